import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import type { Database } from './database';
import type { EventRecord, NewEvent } from './records';
import type { RowMapper } from './row-mapper';
import type { EventType } from '../model';

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

/** Told, after a transaction of this process committed events, the last id and the events (as recorded: in memory, without ids). */
type CommitListener = (lastId: string, events: readonly NewEvent[]) => void;
const commitListeners = new WeakMap<Database, Set<CommitListener>>();

/** Calls `listener` with the last id (and the events) each time a transaction on `db` commits events; answers how to stop. */
export function watchEventCommits(db: Database, listener: CommitListener): () => void {
  let listeners = commitListeners.get(db);
  if (!listeners) commitListeners.set(db, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's listeners that `events`, up to `lastId`, were committed. */
export function announceEventCommit(db: Database, lastId: string, events: readonly NewEvent[] = []): void {
  for (const listener of commitListeners.get(db) ?? []) listener(lastId, events);
}
