/**
 * The agent reads and writes of the benchmark's comparison apps: the statements the service's knex
 * builds for these routes (src/data/agents-repository.ts, src/data/collection-query.ts,
 * src/domain/agents.ts), prepared once on one better-sqlite3 connection with the pragmas of
 * src/data/database.ts. The schema is the service's: the bench harness migrates the file first.
 */
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import type { Agent, AgentCreate } from '../../src/model';

export interface AgentsSql {
  find(id: string): Agent | undefined;
  list(skip: number, limit: number): Agent[];
  insert(input: AgentCreate): Agent;
  close(): void;
}

type AgentRow = Agent & { stored_bytes: number };

/** The row without the columns the API never shows (stored_bytes), fields in api.yaml's order. */
const toAgent = (row: AgentRow): Agent => ({
  id: row.id,
  owner_id: row.owner_id,
  workspace_id: row.workspace_id,
  name: row.name,
  type: row.type,
  status: row.status,
  created_at: row.created_at,
  updated_at: row.updated_at,
  max_concurrency: row.max_concurrency ?? null,
});

export function openAgentsSql(filename: string, busyTimeoutMs: number): AgentsSql {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('synchronous = FULL');
  // `limit 1` written in, as the service writes it: SQLite prepares a statement whose LIMIT is bound again at every run.
  const findOne = db.prepare<AgentRow>('select * from `agents` where `id` = ? limit 1');
  // knex leaves out `offset ?` when skip is 0.
  const firstPage = db.prepare<AgentRow>('select * from `agents` order by `id` asc limit ?');
  const laterPage = db.prepare<AgentRow>('select * from `agents` order by `id` asc limit ? offset ?');
  const insertOne = db.prepare(
    'insert into `agents` (`created_at`, `id`, `name`, `owner_id`, `status`, `type`, `updated_at`, `workspace_id`) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // Agents created with the API key have no owner: they go to the `service` workspace, whose id the service reads once.
  const serviceWorkspace = db.prepare<{ id: string }>("select `id` from `workspaces` where `kind` = 'service' limit 1").get();
  if (!serviceWorkspace) throw new Error('the service workspace is missing: the migrations have not run');
  // The service inserts inside a transaction (BEGIN; insert; COMMIT), as createAgent does.
  const insertInTransaction = db.transaction((agent: Agent) => {
    insertOne.run(agent.created_at, agent.id, agent.name, agent.owner_id, agent.status, agent.type, agent.updated_at, agent.workspace_id);
  });
  return {
    find: (id) => {
      const row = findOne.get(id);
      return row ? toAgent(row) : undefined;
    },
    list: (skip, limit) => (skip === 0 ? firstPage.all(limit) : laterPage.all(limit, skip)).map(toAgent),
    insert: (input) => {
      const timestamp = new Date().toISOString();
      const agent: Agent = { id: uuidv7(), owner_id: null, workspace_id: serviceWorkspace.id, name: input.name, type: input.type, status: 'idle', created_at: timestamp, updated_at: timestamp, max_concurrency: null };
      insertInTransaction(agent);
      return agent;
    },
    close: () => db.close(),
  };
}
