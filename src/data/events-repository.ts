import type { Knex } from 'knex';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import type { Database } from './database';
import type { EventRecord, NewEvent } from './records';
import type { RowMapper } from './row-mapper';
import type { EventType } from '../model';

/** The PostgreSQL channel that announces committed events (its payload: the last id committed). */
export const EVENTS_CHANNEL = 'agent_fleet_events';
/**
 * The transaction-level advisory lock every event-writing transaction takes just before it
 * commits (any number: its key names this service's events among other users of the database).
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

/** `record` buffers here; the store writes the buffer just before COMMIT (writePendingEvents). */
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

/**
 * Writes the events a transaction recorded, last thing before its COMMIT, in one statement, and
 * answers the last id. On PostgreSQL the transaction first takes a lock that every event-writing
 * transaction takes, so they commit in the order of their ids: a reader that has seen id N never
 * later finds a smaller id committed after it. NOTIFY is delivered when the transaction commits.
 * SQLite's write transactions are serial already (BEGIN IMMEDIATE).
 */
export async function writePendingEvents(trx: Knex.Transaction, postgres: boolean, pending: PendingEvents): Promise<string | undefined> {
  if (pending.length === 0) return undefined;
  const values: Record<string, unknown> = { lock: EVENTS_WRITE_LOCK, channel: EVENTS_CHANNEL };
  pending.forEach((event, row) => {
    values[`type${row}`] = event.type;
    values[`occurred_at${row}`] = event.occurred_at;
    values[`agent_id${row}`] = event.agent_id;
    values[`owner_id${row}`] = event.owner_id;
    values[`task_id${row}`] = event.task_id;
    values[`data${row}`] = JSON.stringify(event.data);
  });
  const result = await insertOf(trx, postgres, pending.length).run(trx, values);
  if (postgres) return String((result as { rows: Array<{ id: string }> }).rows[0]?.id);
  const rows = result as Array<{ id: number }>;
  return String(rows[rows.length - 1]?.id);
}

const COLUMNS = ['type', 'occurred_at', 'agent_id', 'owner_id', 'task_id', 'data'] as const;
/** One compiled statement per dialect and number of rows (a transaction records one to a few events). */
const inserts = new Map<string, CompiledQuery<string, unknown>>();

/**
 * The insert of `count` events, compiled once: no query builder on the write path of every change
 * (on PostgreSQL a prepared statement), and on PostgreSQL the lock, the insert and the NOTIFY in
 * one round trip: the lock is a CTE the insert reads from, so it is held before the first row.
 */
function insertOf(trx: Knex.Transaction, postgres: boolean, count: number): CompiledQuery<string, unknown> {
  const cacheKey = `${postgres ? 'pg' : 'sqlite'}:${count}`;
  let compiled = inserts.get(cacheKey);
  if (compiled) return compiled;
  compiled = compileQuery<string, unknown>(trx as unknown as Knex, (p) => {
    const bindings: unknown[] = [];
    const rows = Array.from({ length: count }, (_, row) => {
      bindings.push(...COLUMNS.map((column) => p.value(`${column}${row}`)));
      return `(${COLUMNS.map(() => '?').join(', ')})`;
    }).join(', ');
    const columns = `(${COLUMNS.join(', ')})`;
    const sql = postgres
      ? `with write_lock as (select pg_advisory_xact_lock(?)), ` +
        `inserted as (insert into events ${columns} select v.type, v.occurred_at::timestamptz, v.agent_id::uuid, v.owner_id::uuid, v.task_id::uuid, v.data::jsonb ` +
        `from write_lock, (values ${rows}) as v ${columns} returning id) ` +
        `select max(id)::text as id, pg_notify(?, max(id)::text) from inserted`
      : `insert into events ${columns} values ${rows} returning id`;
    const all = postgres ? [p.value('lock'), ...bindings, p.value('channel')] : bindings;
    return trx.raw(sql, all as Knex.RawBinding[]) as unknown as Knex.QueryBuilder;
  });
  inserts.set(cacheKey, compiled);
  return compiled;
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
