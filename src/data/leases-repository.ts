import type { Knex } from 'knex';
import type { Executor } from './compiled-query';
import { isId } from './ids';
import type { LeaseRecord, UsageDelta } from './records';
import { usageColumns } from './usage-repository';
import { toJsonColumn, type RowMapper } from './row-mapper';

/** Every way an attempt can end, as the outcome column holds it. */
const ATTEMPT_OUTCOMES = Object.keys({
  succeeded: true,
  failed: true,
  released: true,
  expired: true,
  cancelled: true,
} satisfies Record<NonNullable<LeaseRecord['outcome']>, true>);

export type LeaseChanges = Partial<
  Pick<LeaseRecord, 'status' | 'ttl_seconds' | 'expires_at' | 'ended_at' | 'outcome' | 'error' | 'last_heartbeat_at' | 'progress'>
>;

/** A lease with the title of its task, for a view of the agent's workers. */
export type WorkerLeaseRecord = LeaseRecord & { task_title: string };

/** The 50th and 95th percentiles of a duration in seconds; null when nothing was measured. */
export interface Percentiles {
  p50: number | null;
  p95: number | null;
}

/** An agent's attempts over a window: how they ended, how long tasks waited and ran. */
export interface AttemptFigures {
  /** Task creation to its first lease, for first leases made since the window's start. */
  wait: Percentiles;
  /** Lease to outcome, for attempts a worker ended (succeeded or failed) since the window's start. */
  run: Percentiles;
  /** Attempts that ended since the window's start, by outcome. */
  outcomes: Partial<Record<NonNullable<LeaseRecord['outcome']>, number>>;
}

/** The nearest-rank percentile of ascending values (what PostgreSQL's percentile_disc answers). */
export function percentileOf(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? null;
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
  figuresOf(agentId: string, since: string): Promise<AttemptFigures>;
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
    async figuresOf(agentId, since) {
      // First leases carry their task's wait (a partial index); ended ones their outcome and start (on
      // PostgreSQL, in the index): neither read touches the tasks.
      const waits = db('leases').where({ agent_id: agentId }).whereRaw('number = 1').andWhere('created_at', '>=', since).whereNotNull('wait_ms');
      const ended = db('leases').where({ agent_id: agentId }).andWhere('ended_at', '>=', since).whereNotNull('outcome');
      const byOutcome = (rows: Array<{ outcome: unknown; n: unknown }>): AttemptFigures['outcomes'] =>
        Object.fromEntries(rows.map((row) => [String(row.outcome), Number(row.n)]));
      if (postgres) {
        // One sort serves both percentiles; the run time as a double (extract's numeric sorts slowly).
        const percentiles = (value: string, filter = '') => `percentile_disc(array[0.5, 0.95]) within group (order by ${value})${filter} as p`;
        const counted = ATTEMPT_OUTCOMES.map((outcome) => `count(*) filter (where outcome = '${outcome}') as "${outcome}"`).join(', ');
        const [wait, run] = (await Promise.all([
          waits.clone().first(db.raw(percentiles('wait_ms'))),
          ended.clone().first(db.raw(`${counted}, ${percentiles("date_part('epoch', ended_at - created_at)", " filter (where outcome in ('succeeded', 'failed'))")}`)),
        ])) as Array<Record<string, unknown> | undefined>;
        const figures = (value: unknown, scale: number): Percentiles => {
          const [p50, p95] = Array.isArray(value) ? value.map((figure) => (figure === null ? null : Math.max(0, Number(figure) / scale))) : [];
          return { p50: p50 ?? null, p95: p95 ?? null };
        };
        const outcomes = byOutcome(ATTEMPT_OUTCOMES.map((outcome) => ({ outcome, n: run?.[outcome] ?? 0 })).filter((row) => Number(row.n) > 0));
        return { wait: figures(wait?.p, 1000), run: figures(run?.p, 1), outcomes };
      }
      // SQLite keeps timestamps as ISO text.
      const outcomes = byOutcome(await ended.clone().select('outcome').count({ n: '*' }).groupBy('outcome'));
      const sorted = async (query: Knex.QueryBuilder, value: string) =>
        ((await query.select(db.raw(`${value} as value`)).orderBy('value')) as Array<{ value: unknown }>).map((row) => Math.max(0, Number(row.value)));
      const waitSeconds = (await sorted(waits.clone(), 'wait_ms')).map((ms) => ms / 1000);
      const runs = await sorted(ended.clone().whereIn('outcome', ['succeeded', 'failed']), '((julianday(ended_at) - julianday(created_at)) * 86400.0)');
      return {
        wait: { p50: percentileOf(waitSeconds, 0.5), p95: percentileOf(waitSeconds, 0.95) },
        run: { p50: percentileOf(runs, 0.5), p95: percentileOf(runs, 0.95) },
        outcomes,
      };
    },
  };
}
