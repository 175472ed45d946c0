import type { LeaseRecord, LogLineRecord } from '../data/records';
import type { Store } from '../data/store';
import { dollarsOf } from '../data/row-mapper';
import { now } from '../data/ids';
import { agentNotFound, invalidCursor, invalidValue, taskNotFound } from '../errors';
import type { AgentStats, AgentUsage, Attempt, LogLevel, LogLine, Worker, WorkerKind } from '../model';
import type { Principal } from './access';
import { countTasks, reachAgent } from './agents';
import { createFiguresCache, readAttemptFigures, type FiguresCache } from './attempt-figures';

/** What a worker's attempts and health are read for: the agent, when the principal may see it. */
function reachableAgent(store: Store, principal: Principal, agentId: string) {
  return reachAgent(store, principal, agentId);
}

async function reachableTask(store: Store, principal: Principal, agentId: string, taskId: string) {
  await reachableAgent(store, principal, agentId);
  return (await store.tasks.find(agentId, taskId)) ?? Promise.reject(taskNotFound());
}

/** The names of the credentials that claimed, read once per credential. */
async function workerNames(store: Store, workers: Iterable<{ kind: WorkerKind; id: string }>): Promise<Map<string, string | null>> {
  const names = new Map<string, string | null>();
  for (const { kind, id } of workers) {
    const key = `${kind}:${id}`;
    if (names.has(key)) continue;
    if (kind === 'user') names.set(key, (await store.users.find(id))?.name ?? null);
    else if (kind === 'agent_key') names.set(key, (await store.agentKeys.findById(id))?.name ?? null);
    else names.set(key, `Service key ${id.replace('service-key-', '')}`);
  }
  return names;
}

const workerKey = (lease: LeaseRecord) => (lease.worker_kind === null || lease.worker_id === null ? undefined : { kind: lease.worker_kind, id: lease.worker_id });

function presentAttempt(lease: LeaseRecord, names: Map<string, string | null>): Attempt {
  const worker = workerKey(lease);
  return {
    number: lease.number,
    lease_id: lease.id,
    worker: worker ? { kind: worker.kind, credential_id: worker.id, name: names.get(`${worker.kind}:${worker.id}`) ?? null } : null,
    started_at: lease.created_at,
    ended_at: lease.ended_at,
    outcome: lease.outcome,
    error: lease.error,
    last_heartbeat_at: lease.last_heartbeat_at,
    progress: lease.progress,
    usage: { input_tokens: lease.input_tokens, output_tokens: lease.output_tokens, cost_usd: dollarsOf(lease.cost_micro_usd) },
    model: lease.model,
  };
}

/** A page's cursor: a positive whole number this collection handed out (an attempt's number, a line's id). */
function numberCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^[0-9]{1,15}$/.test(cursor)) throw invalidCursor();
  return Number(cursor);
}

/** A task's attempts after `cursor`, oldest first. */
export async function listAttempts(store: Store, principal: Principal, agentId: string, taskId: string, cursor: string | undefined, limit: number) {
  const task = await reachableTask(store, principal, agentId, taskId);
  const leases = await store.leases.attemptsOf(task.id, numberCursor(cursor), limit + 1);
  const page = leases.slice(0, limit);
  const names = await workerNames(store, page.flatMap((lease) => workerKey(lease) ?? []));
  const hasMore = leases.length > limit;
  return { items: page.map((lease) => presentAttempt(lease, names)), nextCursor: hasMore ? String(page.at(-1)?.number) : null, hasMore };
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function presentLine({ agent_id: _agent, task_id: _task, ...line }: LogLineRecord): LogLine {
  return line;
}

/** What a reader of a task's log asks for: after which line, which attempt, from which level. */
export interface LogFilter {
  after: string | undefined;
  attempt?: number;
  level?: LogLevel;
}

/** The task's lines after `filter.after`, oldest first (the task must be the reader's to see). */
export async function listLogs(store: Store, principal: Principal, agentId: string, taskId: string, filter: LogFilter, limit: number) {
  const task = await reachableTask(store, principal, agentId, taskId);
  return readLogs(store, task.id, filter, limit);
}

/** The lines after `filter.after` of a task already found: what a live stream reads as it follows. */
export async function readLogs(store: Store, taskId: string, filter: LogFilter, limit: number) {
  const levels = filter.level === undefined || filter.level === 'debug' ? undefined : LEVELS.slice(LEVELS.indexOf(filter.level));
  const rows = await store.taskLogs.list(taskId, { after: String(numberCursor(filter.after)), attempt: filter.attempt, levels, limit: limit + 1 });
  const page = rows.slice(0, limit).map(presentLine);
  const hasMore = rows.length > limit;
  return { items: page, nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null, hasMore };
}

/** The task a live log stream follows, once the reader may see it. */
export const findLoggedTask = reachableTask;

const MINUTE = 60_000;
const WORKER_WINDOW_MS = 10 * MINUTE;
const HOUR = 60 * MINUTE;

/** The agent's workers: the credentials that claimed lately or hold a lease now, most recently seen first. */
export async function listWorkers(store: Store, principal: Principal, agentId: string, cursor: string | undefined, limit: number) {
  await reachableAgent(store, principal, agentId);
  const at = Date.now();
  const leases = await store.leases.recentOf(agentId, new Date(at - WORKER_WINDOW_MS).toISOString());
  const hourAgo = new Date(at - HOUR).toISOString();
  const atIso = new Date(at).toISOString();
  const byWorker = new Map<string, { kind: WorkerKind; id: string; lastSeen: string; leases: typeof leases; succeeded: number; failed: number }>();
  for (const lease of leases) {
    const worker = workerKey(lease);
    if (!worker) continue;
    const key = `${worker.kind}:${worker.id}`;
    const entry = byWorker.get(key) ?? { ...worker, lastSeen: lease.created_at, leases: [], succeeded: 0, failed: 0 };
    byWorker.set(key, entry);
    for (const seen of [lease.created_at, lease.last_heartbeat_at, lease.outcome === 'succeeded' || lease.outcome === 'failed' || lease.outcome === 'released' ? lease.ended_at : null]) {
      if (seen !== null && seen > entry.lastSeen) entry.lastSeen = seen;
    }
    if (lease.status === 'active' && lease.expires_at > atIso) entry.leases.push(lease);
    if (lease.ended_at !== null && lease.ended_at >= hourAgo) {
      if (lease.outcome === 'succeeded') entry.succeeded += 1;
      if (lease.outcome === 'failed' || lease.outcome === 'expired' || lease.outcome === 'timed_out') entry.failed += 1;
    }
  }
  const ordered = [...byWorker.entries()].sort(([keyA, a], [keyB, b]) => (a.lastSeen === b.lastSeen ? keyA.localeCompare(keyB) : a.lastSeen > b.lastSeen ? -1 : 1));
  if (cursor !== undefined && !/^(user|service_key|agent_key):[A-Za-z0-9-]{1,64}$/.test(cursor)) throw invalidCursor();
  // A worker that left the list since the last page ends it: the list is of now, not a snapshot.
  const after = cursor === undefined ? 0 : ordered.findIndex(([key]) => key === cursor) + 1;
  const start = cursor !== undefined && after === 0 ? ordered.length : after;
  const page = ordered.slice(start, start + limit);
  const names = await workerNames(store, page.map(([, worker]) => worker));
  const items: Worker[] = page.map(([key, worker]) => ({
    kind: worker.kind,
    credential_id: worker.id,
    name: names.get(key) ?? null,
    last_seen_at: worker.lastSeen,
    active_leases: worker.leases
      .sort((a, b) => (a.expires_at < b.expires_at ? -1 : 1))
      .map((lease) => ({ lease_id: lease.id, task_id: lease.task_id, task_title: lease.task_title, expires_at: lease.expires_at, last_heartbeat_at: lease.last_heartbeat_at, progress: lease.progress })),
    succeeded_last_hour: worker.succeeded,
    failed_last_hour: worker.failed,
  }));
  const hasMore = start + limit < ordered.length;
  return { items, nextCursor: hasMore ? (page.at(-1)?.[0] ?? null) : null, hasMore };
}

const WINDOWS = { '1h': HOUR, '24h': 24 * HOUR } as const;

/** The agent's queue now and its attempts over the window. */
export async function getAgentStats(store: Store, cache: StatsCache, principal: Principal, agentId: string, window: keyof typeof WINDOWS): Promise<AgentStats> {
  const agent = await reachableAgent(store, principal, agentId);
  const at = now();
  const since = new Date(Date.parse(at) - WINDOWS[window]).toISOString();
  // Independent reads: on PostgreSQL they run side by side on the pool's connections.
  const [counted, scheduled, figures, buckets] = await Promise.all([
    countTasks(store, [agent]),
    store.tasks.countWaiting(agent.id, at),
    readAttemptFigures(store, cache.figures, `${window}:${agent.id}`, agent.id, { since: Date.parse(since), at: Date.parse(at), ms: BUCKETS[window].ms, settleMs: SERIES_SETTLE_MS }),
    countBuckets(store, cache.series, agent.id, window, Date.parse(at)),
  ]);
  const tasks = counted.get(agent.id);
  if (!tasks) throw agentNotFound();
  const series = seriesOf(buckets, tasks.queued);
  const succeeded = figures.outcomes.succeeded ?? 0;
  const failed = (figures.outcomes.failed ?? 0) + (figures.outcomes.expired ?? 0) + (figures.outcomes.timed_out ?? 0);
  return {
    agent_id: agent.id,
    window,
    at,
    tasks,
    queue_depth: Math.max(0, tasks.queued - scheduled),
    scheduled,
    succeeded,
    failed,
    throughput_per_minute: Math.round(((succeeded + failed) / (WINDOWS[window] / MINUTE)) * 1000) / 1000,
    wait_seconds: figures.wait,
    run_seconds: figures.run,
    series,
  };
}

const BUCKETS = { '1h': { count: 60, ms: MINUTE }, '24h': { count: 96, ms: 15 * MINUTE } } as const;
/**
 * How long after its end a bucket's events may still appear: an event is stamped when its change
 * is made and written when its transaction commits, and instances' clocks differ a little.
 */
const SERIES_SETTLE_MS = MINUTE;
const SERIES_CACHE_LIMIT = 1_000;

interface BucketCounts {
  created: number;
  succeeded: number;
  failed: number;
  /** What entered the queue less what left it. */
  moved: number;
}

/**
 * The counts of buckets that have ended, per agent and window, kept by each instance: an ended
 * bucket never changes, so a read counts only the events of the buckets still open. The agents
 * read longest ago go first past the limit.
 */
export interface SeriesCache {
  entries: Map<string, { counts: Map<number, BucketCounts>; through: number }>;
  limit: number;
}

function createSeriesCache(limit = SERIES_CACHE_LIMIT): SeriesCache {
  return { entries: new Map(), limit };
}

/** What an instance keeps of settled buckets for the stats it is asked: the series' counts and the attempts' figures. */
export interface StatsCache {
  series: SeriesCache;
  figures: FiguresCache;
}

export function createStatsCache(): StatsCache {
  return { series: createSeriesCache(), figures: createFiguresCache() };
}

/** Whether a counted task event took a task into the queue (+1), out of it (-1), or neither (0). */
function queueMove(event: { type: string; status: string | null; previous: string | null }): number {
  if (event.type === 'task.created' || event.type === 'task.requeued') return 1;
  if (event.type === 'task.leased') return -1;
  // A queued task cancelled, deleted, or started by hand (without a lease).
  if (event.type === 'task.cancelled' && event.previous === 'queued') return -1;
  if (event.type === 'task.deleted' && event.status === 'queued') return -1;
  if (event.type === 'task.updated' && event.status === 'running' && event.previous === 'queued') return -1;
  return 0;
}

/** The window's buckets, numbered from the epoch, with what each counted. */
interface CountedBuckets {
  first: number;
  end: number;
  ms: number;
  counts: Map<number, BucketCounts>;
}

/**
 * The window cut into equal buckets with the task events each counted. Buckets that ended are
 * read from the cache when it has them; the rest from the event log, and those of them that have
 * ended are kept.
 */
async function countBuckets(store: Store, cache: SeriesCache, agentId: string, window: keyof typeof WINDOWS, at: number): Promise<CountedBuckets> {
  const { count, ms } = BUCKETS[window];
  const end = Math.floor(at / ms) + 1;
  const first = end - count;
  const key = `${window}:${agentId}`;
  const cached = cache.entries.get(key);
  const readFrom = cached && cached.through > first ? Math.min(cached.through, end) : first;
  const counts = new Map<number, BucketCounts>();
  for (const [bucket, counted] of cached?.counts ?? []) if (bucket >= first && bucket < readFrom) counts.set(bucket, counted);
  for (const row of await store.events.countTaskEventsOf(agentId, new Date(readFrom * ms).toISOString(), ms)) {
    if (row.bucket < readFrom || row.bucket >= end) continue;
    const counted = counts.get(row.bucket) ?? { created: 0, succeeded: 0, failed: 0, moved: 0 };
    counts.set(row.bucket, counted);
    if (row.type === 'task.created') counted.created += row.n;
    if (row.type === 'task.succeeded') counted.succeeded += row.n;
    if (row.type === 'task.failed') counted.failed += row.n;
    counted.moved += queueMove(row) * row.n;
  }
  const through = Math.max(readFrom, Math.min(Math.floor((at - SERIES_SETTLE_MS) / ms), end));
  cache.entries.delete(key);
  cache.entries.set(key, { counts: new Map([...counts].filter(([bucket]) => bucket < through)), through });
  for (const oldest of cache.entries.keys()) {
    if (cache.entries.size <= cache.limit) break;
    cache.entries.delete(oldest);
  }
  return { first, end, ms, counts };
}

/**
 * The buckets as the stats show them: tasks created and finished in each, and the queue's depth at
 * each bucket's end, walked back from the depth now through what entered and left the queue since.
 */
function seriesOf({ first, end, ms, counts }: CountedBuckets, queuedNow: number): AgentStats['series'] {
  const series: AgentStats['series'] = [];
  let depth = queuedNow;
  for (let bucket = end - 1; bucket >= first; bucket -= 1) {
    const counted = counts.get(bucket) ?? { created: 0, succeeded: 0, failed: 0, moved: 0 };
    series.push({ start: new Date(bucket * ms).toISOString(), created: counted.created, succeeded: counted.succeeded, failed: counted.failed, queue_depth: Math.max(0, depth) });
    depth -= counted.moved;
  }
  return series.reverse();
}

const GRANULARITY_MS = { hour: HOUR, day: 24 * HOUR } as const;
/** The longest range a read covers, in buckets. */
const MAX_BUCKETS = { hour: 31 * 24, day: 366 } as const;
const DEFAULT_SPAN = { hour: 24 * HOUR, day: 30 * 24 * HOUR } as const;

/** The agent's usage from `from` to `to`, by hour or day (UTC), every bucket listed. */
export async function getAgentUsage(
  store: Store,
  principal: Principal,
  agentId: string,
  query: { from?: string; to?: string; granularity?: 'hour' | 'day' },
): Promise<AgentUsage> {
  const agent = await reachableAgent(store, principal, agentId);
  const granularity = query.granularity ?? 'hour';
  const size = GRANULARITY_MS[granularity];
  const toMs = query.to === undefined ? Date.now() : Date.parse(query.to);
  const fromMs = query.from === undefined ? toMs - DEFAULT_SPAN[granularity] : Date.parse(query.from);
  const first = Math.floor(fromMs / size) * size;
  const end = Math.floor(toMs / size) * size + size;
  if (fromMs > toMs) throw invalidValue('from must not be after to', [{ field: 'from', in: 'query', message: 'must not be after to' }]);
  if ((end - first) / size > MAX_BUCKETS[granularity]) {
    throw invalidValue(`A read covers at most ${MAX_BUCKETS[granularity]} buckets of a ${granularity}`, [
      { field: 'from', in: 'query', message: `at most ${MAX_BUCKETS[granularity]} ${granularity}s before to` },
    ]);
  }
  const hours = await store.usage.hoursOf(agent.id, new Date(first).toISOString(), new Date(end).toISOString());
  type Sums = { input_tokens: number; output_tokens: number; micro: number };
  const buckets = new Map<number, { sums: Sums; models: Map<string, Sums> }>();
  for (let start = first; start < end; start += size) buckets.set(start, { sums: { input_tokens: 0, output_tokens: 0, micro: 0 }, models: new Map() });
  const add = (sums: Sums, row: { input_tokens: number; output_tokens: number; cost_micro_usd: number }) => {
    sums.input_tokens += row.input_tokens;
    sums.output_tokens += row.output_tokens;
    sums.micro += row.cost_micro_usd;
  };
  const totals: Sums = { input_tokens: 0, output_tokens: 0, micro: 0 };
  for (const row of hours) {
    const bucket = buckets.get(Math.floor(Date.parse(row.hour) / size) * size);
    if (!bucket) continue;
    add(bucket.sums, row);
    add(totals, row);
    const model = bucket.models.get(row.model) ?? { input_tokens: 0, output_tokens: 0, micro: 0 };
    bucket.models.set(row.model, model);
    add(model, row);
  }
  const usage = (sums: Sums) => ({ input_tokens: sums.input_tokens, output_tokens: sums.output_tokens, cost_usd: dollarsOf(sums.micro) });
  return {
    agent_id: agent.id,
    granularity,
    from: new Date(first).toISOString(),
    to: new Date(end).toISOString(),
    totals: usage(totals),
    buckets: [...buckets].map(([start, bucket]) => ({
      start: new Date(start).toISOString(),
      ...usage(bucket.sums),
      models: [...bucket.models]
        .sort(([, a], [, b]) => b.micro - a.micro)
        .map(([model, sums]) => ({ model: model === '' ? null : model, ...usage(sums) })),
    })),
  };
}
