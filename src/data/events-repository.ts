import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import type { Database } from './database';
import type { EventRecord, NewEvent } from './records';
import type { RowMapper } from './row-mapper';
import type { EventType } from '../model';

/** The PostgreSQL channel that announces committed events (its payload: the last id committed). */
export const EVENTS_CHANNEL = 'agent_fleet_events';
/**
 * The transaction-level advisory lock every event-writing transaction takes as it commits (any
 * number: its key names this service's events among other users of the database).
 */
const EVENTS_WRITE_LOCK = 0x41_46_45_56;

export interface EventFilter {
  /** Only events after this id. */
  after: string;
  /** Only this agent's. */
  agentId?: string;
  /** Only events of agents this user owned when they happened. */
  ownerId?: string;
  types?: readonly EventType[];
  limit: number;
}

export interface EventsRepository {
  /**
   * Records an event of the change the current transaction makes: it is written when the
   * transaction commits, with it, or not at all. Outside a transaction this throws.
   */
  record(event: NewEvent): void;
  /** Events in id order, oldest first. */
  list(filter: EventFilter): Promise<EventRecord[]>;
  /** The newest event's id ('0' when there is none). */
  latestId(): Promise<string>;
  /** The newest id pruned so far ('0' when none was). */
  prunedThrough(): Promise<string>;
  /** Deletes up to `batch` events older than `before` (oldest first) and raises the pruned mark; answers how many. */
  pruneBatch(before: string, batch: number): Promise<number>;
}

/** `record` buffers here; the transaction writes the buffer as it commits (writeEventsOnCommit). */
export type PendingEvents = NewEvent[];

export function createEventsRepository(executor: Executor, mapper: RowMapper, postgres: boolean, pending: PendingEvents | undefined): EventsRepository {
  const db = executor as Knex;
  const idParameter = (id: string): string | number => (postgres ? id : Number(id));
  return {
    record(event) {
      if (!pending) throw new Error('an event is recorded in the transaction of its change');
      pending.push(event);
    },
    async list({ after, agentId, ownerId, types, limit }) {
      const query = db('events').where('id', '>', idParameter(after)).orderBy('id', 'asc').limit(limit);
      if (agentId !== undefined) query.andWhere('agent_id', agentId);
      if (ownerId !== undefined) query.andWhere('owner_id', ownerId);
      if (types !== undefined && types.length > 0) query.whereIn('type', types);
      const rows = (await query) as Array<Record<string, unknown>>;
      return rows.map((row) => mapper.toEvent(row));
    },
    async latestId() {
      const row = (await db('events').max({ id: 'id' }).first()) as { id: unknown } | undefined;
      return row?.id === null || row?.id === undefined ? '0' : String(row.id);
    },
    async prunedThrough() {
      const row = (await db('event_log').where('id', 1).first('pruned_through')) as { pruned_through: unknown } | undefined;
      return row ? String(row.pruned_through) : '0';
    },
    async pruneBatch(before, batch) {
      // The oldest events by id, and of them the run that is older than `before`; never the newest
      // event, whose id the next one (a SQLite rowid) follows.
      const oldest = (await db('events').orderBy('id', 'asc').limit(batch).select('id', 'occurred_at')) as Array<{ id: unknown; occurred_at: unknown }>;
      const newest = (await db('events').max({ id: 'id' }).first()) as { id: unknown } | undefined;
      // SQLite keeps ISO text, PostgreSQL answers a Date: both read as one.
      const expired = oldest.findIndex((row) => String(row.id) === String(newest?.id) || new Date(row.occurred_at as string | Date).toISOString() >= before);
      const count = expired === -1 ? oldest.length : expired;
      if (count === 0) return 0;
      const through = oldest[count - 1]?.id as string | number;
      // The mark first: a reader that sees an id gone also sees that it was pruned.
      await (db as Database).transaction(async (trx) => {
        await trx('event_log').where('id', 1).andWhere('pruned_through', '<', through).update({ pruned_through: through });
        await trx('events').where('id', '<=', through).delete();
      });
      return count;
    },
  };
}

/** What a transaction writes to the event log as it commits, and, once it has, the last id. */
export interface EventWrites {
  events: NewEvent[];
  lastId?: string;
}

const eventWrites = new WeakMap<object, EventWrites>();

/**
 * Has the transaction write `writes.events` as it commits (see knex-clients.ts): on SQLite in the
 * same synchronous call as COMMIT, on PostgreSQL in the COMMIT's round trip. Either the events and
 * the change commit together or neither does.
 */
export function writeEventsOnCommit(trx: Knex.Transaction, writes: EventWrites): void {
  eventWrites.set(trx, writes);
}

/** The events to write as this transaction (knex's transactor, a function) commits; undefined when none. */
export function eventWritesOf(transactor: unknown): EventWrites | undefined {
  const writes = typeof transactor === 'function' ? eventWrites.get(transactor) : undefined;
  return writes && writes.events.length > 0 ? writes : undefined;
}

const COLUMNS = ['type', 'occurred_at', 'agent_id', 'owner_id', 'task_id', 'data'] as const;
const valuesOf = (event: NewEvent): unknown[] => [event.type, event.occurred_at, event.agent_id, event.owner_id, event.task_id, JSON.stringify(event.data)];

/** What inserting events needs of a better-sqlite3 connection (the package ships no types). */
export interface SqliteEventConnection {
  prepare(sql: string): { all(...values: unknown[]): unknown[] };
}

/** Rows per SQLite statement: 6 variables a row stays far below SQLite's limit of 32,766. */
const SQLITE_ROWS_PER_INSERT = 500;

/**
 * Inserts the events on SQLite, synchronously, and answers the last id. Called inside the
 * transaction just before COMMIT (the connection's statement cache keeps each statement prepared).
 * Write transactions are serial already (BEGIN IMMEDIATE), so ids follow commit order.
 */
export function insertEventsNow(connection: SqliteEventConnection, events: readonly NewEvent[]): string {
  let last: unknown;
  for (let start = 0; start < events.length; start += SQLITE_ROWS_PER_INSERT) {
    const chunk = events.slice(start, start + SQLITE_ROWS_PER_INSERT);
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    const sql = `insert into events (${COLUMNS.join(', ')}) values ${Array.from(chunk, () => row).join(', ')} returning id`;
    const rows = connection.prepare(sql).all(...chunk.flatMap(valuesOf)) as Array<{ id: unknown }>;
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
    `inserted as (insert into events ${columns} select v.type, v.occurred_at::timestamptz, v.agent_id::uuid, v.owner_id::uuid, v.task_id::uuid, v.data::jsonb ` +
    `from write_lock, (values ${rows}) as v ${columns} returning id) ` +
    `select max(id)::text as id, pg_notify(${escapeLiteral(EVENTS_CHANNEL)}, max(id)::text) from inserted; COMMIT;`
  );
}

type CommitListener = (lastId: string) => void;
const commitListeners = new WeakMap<Database, Set<CommitListener>>();

/** Calls `listener` with the last id each time a transaction on `db` commits events; answers how to stop. */
export function watchEventCommits(db: Database, listener: CommitListener): () => void {
  let listeners = commitListeners.get(db);
  if (!listeners) commitListeners.set(db, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's listeners that events up to `lastId` were committed. */
export function announceEventCommit(db: Database, lastId: string): void {
  for (const listener of commitListeners.get(db) ?? []) listener(lastId);
}
