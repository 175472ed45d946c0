/** The event log as transactions write it: what each records, and the statements that write it as it commits. */
import type { Knex } from 'knex';
import type { NewEvent } from './records';

/** The PostgreSQL channel that announces committed events (its payload: the last id committed). */
export const EVENTS_CHANNEL = 'agent_fleet_events';
/**
 * The transaction-level advisory lock every event-writing transaction takes as it commits (any
 * number: its key names this service's events among other users of the database).
 */
const EVENTS_WRITE_LOCK = 0x41_46_45_56;

/** What a transaction writes to the event log as it commits, and, once it has, the last id. */
export interface EventWrites {
  events: NewEvent[];
  lastId?: string;
}

const eventWrites = new WeakMap<object, EventWrites>();

/**
 * Has the transaction write `writes.events` as it commits (see knex-clients.ts): on SQLite
 * synchronously just before its COMMIT, on PostgreSQL in the COMMIT's round trip. Either the events
 * and the change commit together or neither does.
 */
export function writeEventsOnCommit(trx: Knex.Transaction, writes: EventWrites): void {
  eventWrites.set(trx, writes);
}

/** The events to write as this transaction (knex's transactor, a function) commits; undefined when none. */
export function eventWritesOf(transactor: unknown): EventWrites | undefined {
  const writes = typeof transactor === 'function' ? eventWrites.get(transactor) : undefined;
  return writes && writes.events.length > 0 ? writes : undefined;
}

const COLUMNS = ['type', 'occurred_at', 'agent_id', 'owner_id', 'workspace_id', 'actor_type', 'actor_id', 'task_id', 'data'] as const;
const valuesOf = (event: NewEvent): unknown[] => [
  event.type,
  event.occurred_at,
  event.agent_id,
  event.owner_id,
  event.workspace_id,
  event.actor?.type ?? null,
  event.actor?.id ?? null,
  event.task_id,
  JSON.stringify(event.data),
];

/** What inserting events needs of a better-sqlite3 connection (the package ships no types). */
export interface SqliteEventConnection {
  prepare(sql: string): { all(...values: unknown[]): unknown[] };
}

/** Rows per SQLite statement: 9 variables a row stays far below SQLite's limit of 32,766. */
const SQLITE_ROWS_PER_INSERT = 500;

/** The SQLite insert of `count` rows, one text per count (a transaction records one to a few events). */
const sqliteInserts = new Map<number, string>();
function sqliteInsertOf(count: number): string {
  let sql = sqliteInserts.get(count);
  if (sql === undefined) {
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    sqliteInserts.set(count, (sql = `insert into events (${COLUMNS.join(', ')}) values ${Array.from({ length: count }, () => row).join(', ')} returning id`));
  }
  return sql;
}

/**
 * Inserts the events on SQLite, synchronously, and answers the last id: called on the
 * transaction's connection just before its COMMIT (the connection's statement cache keeps each
 * text prepared). Write transactions are serial already (BEGIN IMMEDIATE), so ids follow commit order.
 */
export function insertEventsNow(connection: SqliteEventConnection, events: readonly NewEvent[]): string {
  let last: unknown;
  for (let start = 0; start < events.length; start += SQLITE_ROWS_PER_INSERT) {
    const chunk = events.slice(start, start + SQLITE_ROWS_PER_INSERT);
    const rows = connection.prepare(sqliteInsertOf(chunk.length)).all(...chunk.flatMap(valuesOf)) as Array<{ id: unknown }>;
    last = rows[rows.length - 1]?.id;
  }
  return String(last);
}

/**
 * One PostgreSQL text that takes the event-writing lock, inserts the events, NOTIFYs their last id
 * and commits: sent as one simple query, it costs the COMMIT's round trip and nothing more, which
 * matters because the transaction holds its agent's row lock until it commits. Values are SQL
 * literals escaped by node-postgres (a simple query takes no parameters). The lock makes events
 * commit in the order of their ids: a reader that has seen id N never later finds a smaller one.
 * Its first result row holds the last id.
 */
export function insertEventsAndCommitSql(events: readonly NewEvent[], escapeLiteral: (value: string) => string): string {
  const literal = (value: unknown) => (value === null || value === undefined ? 'null' : escapeLiteral(String(value)));
  const rows = events.map((event) => `(${valuesOf(event).map(literal).join(', ')})`).join(', ');
  const columns = `(${COLUMNS.join(', ')})`;
  return (
    `with write_lock as (select pg_advisory_xact_lock(${EVENTS_WRITE_LOCK})), ` +
    `inserted as (insert into events ${columns} select v.type, v.occurred_at::timestamptz, v.agent_id::uuid, v.owner_id::uuid, v.workspace_id::uuid, v.actor_type, v.actor_id, v.task_id::uuid, v.data::jsonb ` +
    `from write_lock, (values ${rows}) as v ${columns} returning id) ` +
    `select max(id)::text as id, pg_notify(${escapeLiteral(EVENTS_CHANNEL)}, max(id)::text) from inserted; COMMIT;`
  );
}
