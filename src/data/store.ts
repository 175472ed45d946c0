import type { Knex } from 'knex';
import { compileAgentKeysQueries, createAgentKeysRepository, type AgentKeysRepository } from './agent-keys-repository';
import { compileAgentsQueries, createAgentsRepository, type AgentsRepository } from './agents-repository';
import type { Executor } from './compiled-query';
import { isPostgres, type Database } from './database';
import { writeEventsOnCommit, type EventWrites } from './event-writes';
import { announceEventCommit, createEventsRepository, type EventsRepository, type PendingEvents } from './events-repository';
import { createIdempotencyKeysRepository, type IdempotencyKeysRepository } from './idempotency-keys-repository';
import { createIdentitiesRepository, type IdentitiesRepository } from './identities-repository';
import { createLeasesRepository, type LeasesRepository } from './leases-repository';
import { createPostsRepository, type PostsRepository } from './posts-repository';
import { createProviderTokensRepository, type ProviderTokensRepository } from './provider-tokens-repository';
import { createRowMapper } from './row-mapper';
import { compileSchedulesQueries, createSchedulesRepository, type SchedulesRepository } from './schedules-repository';
import { compileSessionsQueries, createSessionsRepository, type SessionsRepository } from './sessions-repository';
import { createTaskLogsRepository, type TaskLogsRepository } from './task-logs-repository';
import { compileTasksQueries, createTasksRepository, type TasksRepository } from './tasks-repository';
import { createUsageRepository, type UsageRepository } from './usage-repository';
import { createUsersRepository, type UsersRepository } from './users-repository';
import { compileWebhooksQueries, createWebhooksRepository, type WebhooksRepository } from './webhooks-repository';
import { createWorkspacesRepository, type WorkspacesRepository } from './workspaces-repository';

/** The repositories over one connection or transaction; domain code sees only this. */
export interface Store {
  agents: AgentsRepository;
  tasks: TasksRepository;
  leases: LeasesRepository;
  /** Workers' log lines, per task. */
  taskLogs: TaskLogsRepository;
  /** Usage per agent and hour. */
  usage: UsageRepository;
  users: UsersRepository;
  posts: PostsRepository;
  identities: IdentitiesRepository;
  providerTokens: ProviderTokensRepository;
  sessions: SessionsRepository;
  agentKeys: AgentKeysRepository;
  /** The fleet's history; what a transaction records is written as it commits. */
  events: EventsRepository;
  webhooks: WebhooksRepository;
  /** Schedules that create an agent's tasks over time. */
  schedules: SchedulesRepository;
  idempotencyKeys: IdempotencyKeysRepository;
  /** Workspaces, their members and invitations. */
  workspaces: WorkspacesRepository;
  /** Runs `work` in one transaction; rows read with `lock` stay locked until it ends. */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

export function createStore(db: Database): Store {
  const postgres = isPostgres(db);
  const mapper = createRowMapper(postgres ? 'pg' : 'sqlite');
  const agents = compileAgentsQueries(db, postgres);
  const tasks = compileTasksQueries(db, postgres);
  const sessions = compileSessionsQueries(db);
  const agentKeys = compileAgentKeysQueries(db);
  const webhooks = compileWebhooksQueries(db);
  const schedules = compileSchedulesQueries(db);
  // A transaction uses two or three of the repositories: each is made on first use.
  const bind = (executor: Executor, pending: PendingEvents | undefined): Store => {
    const inTransaction = pending !== undefined;
    let agentsRepository: AgentsRepository | undefined;
    let tasksRepository: TasksRepository | undefined;
    let leasesRepository: LeasesRepository | undefined;
    let taskLogsRepository: TaskLogsRepository | undefined;
    let usageRepository: UsageRepository | undefined;
    let usersRepository: UsersRepository | undefined;
    let postsRepository: PostsRepository | undefined;
    let identitiesRepository: IdentitiesRepository | undefined;
    let providerTokensRepository: ProviderTokensRepository | undefined;
    let sessionsRepository: SessionsRepository | undefined;
    let agentKeysRepository: AgentKeysRepository | undefined;
    let eventsRepository: EventsRepository | undefined;
    let webhooksRepository: WebhooksRepository | undefined;
    let schedulesRepository: SchedulesRepository | undefined;
    let idempotencyKeysRepository: IdempotencyKeysRepository | undefined;
    let workspacesRepository: WorkspacesRepository | undefined;
    const store: Store = {
      get agents() {
        return (agentsRepository ??= createAgentsRepository(executor, mapper, postgres, agents));
      },
      get tasks() {
        return (tasksRepository ??= createTasksRepository(executor, mapper, postgres, tasks));
      },
      get leases() {
        return (leasesRepository ??= createLeasesRepository(executor, mapper, postgres));
      },
      get taskLogs() {
        return (taskLogsRepository ??= createTaskLogsRepository(executor, mapper, postgres));
      },
      get usage() {
        return (usageRepository ??= createUsageRepository(executor));
      },
      get users() {
        return (usersRepository ??= createUsersRepository(executor, mapper, postgres));
      },
      get posts() {
        return (postsRepository ??= createPostsRepository(executor, mapper));
      },
      get identities() {
        return (identitiesRepository ??= createIdentitiesRepository(executor, mapper));
      },
      get providerTokens() {
        return (providerTokensRepository ??= createProviderTokensRepository(executor, mapper));
      },
      get sessions() {
        return (sessionsRepository ??= createSessionsRepository(executor, mapper, sessions));
      },
      get agentKeys() {
        return (agentKeysRepository ??= createAgentKeysRepository(executor, mapper, agentKeys));
      },
      get events() {
        return (eventsRepository ??= createEventsRepository(executor, mapper, postgres, pending));
      },
      transaction: (work) => (inTransaction ? work(store) : runWithEvents(work)),
      get webhooks() {
        return (webhooksRepository ??= createWebhooksRepository(executor, mapper, postgres, webhooks));
      },
      get schedules() {
        return (schedulesRepository ??= createSchedulesRepository(executor, mapper, schedules));
      },
      get idempotencyKeys() {
        return (idempotencyKeysRepository ??= createIdempotencyKeysRepository(executor, mapper));
      },
      get workspaces() {
        return (workspacesRepository ??= createWorkspacesRepository(executor, mapper, postgres, db));
      },
    };
    return store;
  };
  /** A transaction whose recorded events are written as it commits, and announced once it has. */
  const runWithEvents = async <T>(work: (store: Store) => Promise<T>): Promise<T> => {
    const writes: EventWrites = { events: [] };
    const result = await runTransaction(db, (trx) => {
      writeEventsOnCommit(trx, writes);
      return work(bind(trx, writes.events));
    });
    if (writes.lastId !== undefined) announceEventCommit(db, writes.lastId, writes.events);
    return result;
  };
  return bind(db, undefined);
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
