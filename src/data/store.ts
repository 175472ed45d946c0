import type { Knex } from 'knex';
import { createAgentsRepository, type AgentsRepository } from './agents-repository';
import { isPostgres, type Database } from './database';
import { createIdentitiesRepository, type IdentitiesRepository } from './identities-repository';
import { createPostsRepository, type PostsRepository } from './posts-repository';
import { createProviderTokensRepository, type ProviderTokensRepository } from './provider-tokens-repository';
import { createRowMapper } from './row-mapper';
import { createSessionsRepository, type SessionsRepository } from './sessions-repository';
import { createTasksRepository, type TasksRepository } from './tasks-repository';
import { createUsersRepository, type UsersRepository } from './users-repository';

/** The repositories over one connection or transaction; domain code sees only this. */
export interface Store {
  agents: AgentsRepository;
  tasks: TasksRepository;
  users: UsersRepository;
  posts: PostsRepository;
  identities: IdentitiesRepository;
  providerTokens: ProviderTokensRepository;
  sessions: SessionsRepository;
  /** Runs `work` in one transaction; rows read with `lock` stay locked until it ends. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

export function createStore(db: Database): Store {
  const postgres = isPostgres(db);
  const mapper = createRowMapper(postgres ? 'pg' : 'sqlite');
  const bind = (executor: Knex | Knex.Transaction, inTransaction: boolean): Store => ({
    agents: createAgentsRepository(executor, mapper, postgres),
    tasks: createTasksRepository(executor, mapper, postgres),
    users: createUsersRepository(executor, mapper, postgres),
    posts: createPostsRepository(executor, mapper),
    identities: createIdentitiesRepository(executor, mapper),
    providerTokens: createProviderTokensRepository(executor, mapper),
    sessions: createSessionsRepository(executor, mapper),
    transaction: (work) =>
      inTransaction ? work(bind(executor, true)) : db.transaction((trx) => work(bind(trx, true))),
  });
  return bind(db, false);
}
