import type { Knex } from 'knex';
import { createAgentsRepository, type AgentsRepository } from './agents-repository';
import { isPostgres, type Database } from './database';
import { createRowMapper } from './row-mapper';
import { createTasksRepository, type TasksRepository } from './tasks-repository';
import { createUsersRepository, type UsersRepository } from './users-repository';

/** The repositories over one connection or transaction; domain code sees only this. */
export interface Store {
  agents: AgentsRepository;
  tasks: TasksRepository;
  users: UsersRepository;
  /** Runs `work` in one transaction; rows read with `lock` stay locked until it ends. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

export function createStore(db: Database): Store {
  const postgres = isPostgres(db);
  const mapper = createRowMapper(postgres ? 'pg' : 'sqlite');
  const bind = (executor: Knex | Knex.Transaction, inTransaction: boolean): Store => ({
    agents: createAgentsRepository(executor, mapper, postgres),
    tasks: createTasksRepository(executor, mapper, postgres),
    users: createUsersRepository(executor, mapper),
    transaction: (work) =>
      inTransaction ? work(bind(executor, true)) : db.transaction((trx) => work(bind(trx, true))),
  });
  return bind(db, false);
}
