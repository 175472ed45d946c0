import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import { isId } from './ids';
import type { LeaseRecord, UsageDelta } from './records';
import { usageColumns } from './usage-repository';
import { toJsonColumn, type RowMapper } from './row-mapper';

export type LeaseChanges = Partial<
  Pick<LeaseRecord, 'status' | 'ttl_seconds' | 'expires_at' | 'ended_at' | 'outcome' | 'error' | 'last_heartbeat_at' | 'progress'>
>;

/** A lease with the title of its task, for a view of the agent's workers. */
export type WorkerLeaseRecord = LeaseRecord & { task_title: string };

/** A span of time: from `from` (inclusive) to `to` (exclusive), or on from `from`. */
export interface TimeRange {
  from: string;
  to?: string;
}

/** A first lease's wait: when it was made (epoch ms) and how long its task had waited (s). */
export interface WaitRow {
  atMs: number;
  seconds: number;
}

/** An ended attempt: when it ended (epoch ms), how, and how long it had run (s). */
export interface EndRow {
  atMs: number;
  outcome: NonNullable<LeaseRecord['outcome']>;
  seconds: number;
}

export interface LeasesRepository {
  /** Inserts a lease numbered after its task's earlier ones (counted in the same statement); answers it with its number. */
  insert(lease: Omit<LeaseRecord, 'number'>): Promise<LeaseRecord>;
  find(agentId: string, id: string, options?: { lock?: boolean }): Promise<LeaseRecord | undefined>;
  /**
   * Compare-and-swap: applies only while the lease is still `active` and, with `unexpiredAt`, has
   * not expired by then. Undefined when it no longer is (another worker, the sweep or an owner
   * changed it first).
   */
  /** Changes an active lease (one not past `unexpiredAt`, when given), adding `usage` to its sums in the same statement. */
  updateActive(id: string, changes: LeaseChanges, unexpiredAt?: string, usage?: UsageDelta): Promise<LeaseRecord | undefined>;
  /** Adds what a worker reported to its attempt's usage (and names the model, when it did). */
  /** Active leases past their time, the longest expired first (the sweep). */
  listExpired(at: string, limit: number): Promise<Array<Pick<LeaseRecord, 'id' | 'agent_id'>>>;
  /** One agent's active leases past their time (a claim expires them first). Not locked: the caller locks each one's task, then swaps its status. */
  expiredOf(agentId: string, at: string): Promise<LeaseRecord[]>;
  /** How many leases the task has had (the next one's number is one more). */
  /** A task's leases (its attempts) after number `after`, oldest first. */
  attemptsOf(taskId: string, after: number, limit: number): Promise<LeaseRecord[]>;
  /** The agent's leases made since `since` or still active, with their tasks' titles. */
  recentOf(agentId: string, since: string): Promise<WorkerLeaseRecord[]>;
  /** An agent's attempts over the window from `since`: PostgreSQL computes the percentiles, SQLite's rows are few enough to sort here. */
  /** The agent's first leases made in the ranges, with their tasks' waits (index-only on PostgreSQL). */
  waitsIn(agentId: string, ranges: TimeRange[]): Promise<WaitRow[]>;
  /** The agent's attempts that ended in the ranges (index-only on PostgreSQL). */
  endsIn(agentId: string, ranges: TimeRange[]): Promise<EndRow[]>;
}

const COLUMNS = Object.keys({
  id: true,
  agent_id: true,
  task_id: true,
  status: true,
  ttl_seconds: true,
  expires_at: true,
  created_at: true,
  ended_at: true,
  number: true,
  worker_kind: true,
  worker_id: true,
  outcome: true,
  error: true,
  last_heartbeat_at: true,
  progress: true,
  input_tokens: true,
  output_tokens: true,
  cost_micro_usd: true,
  model: true,
  wait_ms: true,
} satisfies Record<keyof LeaseRecord, true>);

const toColumns = (changes: LeaseChanges): Record<string, unknown> => ('progress' in changes ? { ...changes, progress: toJsonColumn(changes.progress) } : { ...changes });

/** Rows whose `column` falls in any of the ranges. */
function inRanges(query: Knex.QueryBuilder, column: string, ranges: TimeRange[]): Knex.QueryBuilder {
  return query.where((any) => {
    for (const range of ranges) {
      any.orWhere((one) => {
        one.where(column, '>=', range.from);
        if (range.to !== undefined) one.andWhere(column, '<', range.to);
      });
    }
  });
}

/** A timestamp as PostgreSQL (a Date) or SQLite (ISO text) answers it, in epoch milliseconds. */
const epochMs = (value: unknown): number => (value instanceof Date ? value.getTime() : Date.parse(String(value)));

export function createLeasesRepository(db: Executor, mapper: RowMapper, postgres: boolean): LeasesRepository {
  return {
    async insert(lease) {
      const number = db.raw('(select count(*) + 1 from leases where task_id = ?)', [lease.task_id]);
      const [row] = (await db('leases')
        .insert({ ...lease, progress: toJsonColumn(lease.progress), number })
        .returning('number')) as Array<{ number: unknown }>;
      return { ...lease, number: Number(row?.number) };
    },
    async find(agentId, id, options = {}) {
      if (!isId(id) || !isId(agentId)) return undefined;
      const query = db('leases').select(COLUMNS).where({ id, agent_id: agentId }).first();
      if (options.lock && postgres) query.forUpdate();
      const row = await query;
      return row ? mapper.toLease(row) : undefined;
    },
    async updateActive(id, changes, unexpiredAt, usage) {
      const query = db('leases').where({ id, status: 'active' });
      if (unexpiredAt !== undefined) query.andWhere('expires_at', '>', unexpiredAt);
      const [row] = await query.update({ ...toColumns(changes), ...(usage === undefined ? {} : usageColumns(db, usage)) }).returning(COLUMNS);
      return row ? mapper.toLease(row) : undefined;
    },
    async listExpired(at, limit) {
      const rows = await db('leases').select('id', 'agent_id').where({ status: 'active' }).andWhere('expires_at', '<=', at).orderBy('expires_at').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({ id: String(row.id), agent_id: String(row.agent_id) }));
    },
    async expiredOf(agentId, at) {
      const rows = await db('leases').select(COLUMNS).where({ agent_id: agentId, status: 'active' }).andWhere('expires_at', '<=', at).orderBy('expires_at');
      return rows.map(mapper.toLease);
    },
    async attemptsOf(taskId, after, limit) {
      const rows = await db('leases').select(COLUMNS).where({ task_id: taskId }).andWhere('number', '>', after).orderBy('number').limit(limit);
      return rows.map(mapper.toLease);
    },
    async recentOf(agentId, since) {
      const rows = await db('leases')
        .join('tasks', 'tasks.id', 'leases.task_id')
        .select([...COLUMNS.map((column) => `leases.${column}`), 'tasks.title as task_title'])
        .where('leases.agent_id', agentId)
        .andWhere((where) => where.where('leases.created_at', '>=', since).orWhere('leases.status', 'active').orWhere('leases.ended_at', '>=', since));
      return rows.map((row: Record<string, unknown>) => ({ ...mapper.toLease(row), task_title: String(row.task_title) }));
    },
    async waitsIn(agentId, ranges) {
      // `number = 1` in the text, not bound: only then can SQLite use the partial index of first leases.
      const query = db('leases').select('created_at', 'wait_ms').where({ agent_id: agentId }).whereRaw('number = 1').whereNotNull('wait_ms');
      const rows = (await inRanges(query, 'created_at', ranges)) as Array<{ created_at: unknown; wait_ms: unknown }>;
      return rows.map((row) => ({ atMs: epochMs(row.created_at), seconds: Math.max(0, Number(row.wait_ms)) / 1000 }));
    },
    async endsIn(agentId, ranges) {
      // SQLite keeps timestamps as ISO text.
      const seconds = postgres ? "date_part('epoch', ended_at - created_at)" : '((julianday(ended_at) - julianday(created_at)) * 86400.0)';
      const query = db('leases').select('ended_at', 'outcome', db.raw(`${seconds} as seconds`)).where({ agent_id: agentId }).whereNotNull('outcome');
      const rows = (await inRanges(query, 'ended_at', ranges)) as Array<{ ended_at: unknown; outcome: unknown; seconds: unknown }>;
      return rows.map((row) => ({ atMs: epochMs(row.ended_at), outcome: row.outcome as EndRow['outcome'], seconds: Math.max(0, Number(row.seconds)) }));
    },
  };
}
