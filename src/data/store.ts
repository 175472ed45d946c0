import type { Knex } from 'knex';
import { compileAgentsQueries, createAgentsRepository, type AgentsRepository } from './agents-repository';
import { isPostgres, type Database } from './database';
import { createIdentitiesRepository, type IdentitiesRepository } from './identities-repository';
import { createPostsRepository, type PostsRepository } from './posts-repository';
import { createProviderTokensRepository, type ProviderTokensRepository } from './provider-tokens-repository';
import { createRowMapper } from './row-mapper';
import { compileSessionsQueries, createSessionsRepository, type SessionsRepository } from './sessions-repository';
import { compileTasksQueries, createTasksRepository, type TasksRepository } from './tasks-repository';
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
  const agents = compileAgentsQueries(db, postgres);
  const tasks = compileTasksQueries(db, postgres);
  const sessions = compileSessionsQueries(db);
  const bind = (executor: Knex | Knex.Transaction, inTransaction: boolean): Store => ({
    agents: createAgentsRepository(executor, mapper, postgres, agents),
    tasks: createTasksRepository(executor, mapper, tasks),
    users: createUsersRepository(executor, mapper, postgres),
    posts: createPostsRepository(executor, mapper),
    identities: createIdentitiesRepository(executor, mapper),
    providerTokens: createProviderTokensRepository(executor, mapper),
    sessions: createSessionsRepository(executor, mapper, sessions),
    transaction: (work) => (inTransaction ? work(bind(executor, true)) : runTransaction(db, (trx) => work(bind(trx, true)))),
  });
  return bind(db, false);
}

/**
 * knex's transaction, answering the error that failed the work. SQLite rolls a transaction back by
 * itself on SQLITE_FULL, SQLITE_BUSY or an I/O error; knex's own ROLLBACK then fails ("no
 * transaction is active") and knex rejects with that instead, which would turn a full disk into a
 * 500 where it is a 503.
 */
async function runTransaction<T>(db: Database, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  let failure: { error: unknown } | undefined;
  try {
    return await db.transaction(async (trx) => {
      try {
        return await work(trx);
      } catch (error) {
        failure = { error };
        throw error;
      }
    });
  } catch (error) {
    throw failure ? failure.error : error;
  }
}
