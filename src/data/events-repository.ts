import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import type { Database } from './database';
import type { EventRecord, NewEvent } from './records';
import { toIsoTimestamp, type RowMapper } from './row-mapper';
import type { EventType } from '../model';

export interface EventFilter {
  /** Only events after this id. */
  after: string;
  /** Only this agent's. */
  agentId?: string;
  /** Only every event of the workspaces `all` and the agent and task events of the workspaces `fleet`. */
  workspaces?: { all: readonly string[]; fleet: readonly string[] };
  /** Only agent and task events. */
  fleetOnly?: boolean;
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
  /**
   * One agent's task events from `since` on, counted by bucket of `bucketMs` (its number: the
   * bucket's start in ms divided by `bucketMs`), type, and the status and previous status they
   * name. Events are found through the agent's id index from the first event at `since`, found
   * by a few seeks on the primary key (ids follow commit order, and so, closely, the clock).
   */
  countTaskEventsOf(agentId: string, since: string, bucketMs: number): Promise<TaskEventCount[]>;
}

export interface TaskEventCount {
  bucket: number;
  type: string;
  status: string | null;
  previous: string | null;
  n: number;
}

/** `record` buffers here; the transaction writes the buffer as it commits (writeEventsOnCommit). */
export type PendingEvents = NewEvent[];

export function createEventsRepository(executor: Executor, mapper: RowMapper, postgres: boolean, pending: PendingEvents | undefined): EventsRepository {
  const db = executor as Knex;
  const idParameter = (id: string): string | number => (postgres ? id : Number(id));
  /**
   * The smallest id whose event happened at or after `since` (or an id with no event behind it,
   * standing for the next one): a binary search by primary key. Undefined when there is no event.
   * PostgreSQL runs the search as one recursive statement; SQLite, in process, step by step.
   */
  const firstIdSince = async (since: string): Promise<string | undefined> => {
    if (postgres) {
      const result = await db.raw(
        `with recursive search(low, high) as (
           select (select min(id) from events), (select max(id) from events) + 1
           union all
           select case when probe.id is null or probe.id >= s.high then s.low when probe.occurred_at < ? then probe.id + 1 else s.low end,
                  case when probe.id is null or probe.id >= s.high then (s.low + s.high) / 2 when probe.occurred_at < ? then s.high else probe.id end
           from search s
           left join lateral (select id, occurred_at from events where id >= (s.low + s.high) / 2 order by id limit 1) probe on true
           where s.low < s.high
         )
         select low from search where low >= high or low is null limit 1`,
        [since, since],
      );
      const low = (result.rows as Array<{ low: unknown }>)[0]?.low;
      return low === null || low === undefined ? undefined : String(low);
    }
    const bounds = await db('events').min({ low: 'id' }).max({ high: 'id' }).first();
    if (bounds?.high === null || bounds?.high === undefined) return undefined;
    let low = Number(bounds.low);
    let high = Number(bounds.high) + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const row = await db('events').select('id', 'occurred_at').where('id', '>=', middle).orderBy('id').first();
      if (!row || Number(row.id) >= high) high = middle;
      else if (toIsoTimestamp(row.occurred_at) < since) low = Number(row.id) + 1;
      else high = Number(row.id);
    }
    return String(low);
  };
  return {
    record(event) {
      if (!pending) throw new Error('an event is recorded in the transaction of its change');
      pending.push(event);
    },
    async countTaskEventsOf(agentId, since, bucketMs) {
      const low = await firstIdSince(since);
      if (low === undefined) return [];
      const bucket = postgres
        ? db.raw('floor(extract(epoch from occurred_at) * 1000 / ?)::bigint as bucket', [bucketMs])
        : db.raw('cast(((julianday(occurred_at) - 2440587.5) * 86400000.0) / ? as integer) as bucket', [bucketMs]);
      const status = postgres ? db.raw("data->>'status' as status") : db.raw("json_extract(data, '$.status') as status");
      const previous = postgres ? db.raw("data->>'previous_status' as previous") : db.raw("json_extract(data, '$.previous_status') as previous");
      const rows: Array<Record<string, unknown>> = await db('events')
        .select(bucket, 'type', status, previous)
        .count({ n: '*' })
        .where('agent_id', agentId)
        .andWhere('id', '>=', idParameter(low))
        .andWhere('occurred_at', '>=', since)
        .andWhere('type', 'like', 'task.%')
        .groupByRaw('1, 2, 3, 4');
      return rows.map((row) => ({
        bucket: Number(row.bucket),
        type: String(row.type),
        status: row.status === null || row.status === undefined ? null : String(row.status),
        previous: row.previous === null || row.previous === undefined ? null : String(row.previous),
        n: Number(row.n),
      }));
    },
    async list({ after, agentId, workspaces, fleetOnly, types, limit }) {
      const query = db('events').where('id', '>', idParameter(after)).orderBy('id', 'asc').limit(limit);
      if (agentId !== undefined) query.andWhere('agent_id', agentId);
      const fleetTypes = (where: Knex.QueryBuilder) => where.where('type', 'like', 'agent.%').orWhere('type', 'like', 'task.%');
      if (fleetOnly) query.andWhere(fleetTypes);
      if (workspaces !== undefined) {
        const { all, fleet } = workspaces;
        query.andWhere((where) => {
          if (all.length === 0 && fleet.length === 0) where.whereRaw('1 = 0');
          if (all.length > 0) where.orWhereIn('workspace_id', all);
          if (fleet.length > 0) where.orWhere((member) => member.whereIn('workspace_id', fleet).andWhere(fleetTypes));
        });
      }
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
