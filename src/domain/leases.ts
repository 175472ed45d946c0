import type { LeaseRecord, UsageDelta } from '../data/records';
import type { Store } from '../data/store';
import type { LogBatch } from '../data/task-logs-repository';
import { newId, nextTimestamp, now } from '../data/ids';
import { agentNotFound, invalidValue, leaseLost, leaseNotFound, stateConflict, type LeaseEnd } from '../errors';
import type { Agent, Lease, LeaseUpdate, LogLineCreate, Task, UsageIncrement, WorkerKind } from '../model';
import { actorOf, type Principal } from './access';
import { reachAgent } from './agents';
import { canStartTasks } from './agent-status';
import { chargeStoredBytes, recordStoredBytes, taskBytes, type Quotas } from './quotas';
import { recordTaskChange, type Actor } from './events';
import { assertJsonSize, deadlineFromStart, followTaskStatus, isAtCap } from './tasks';
import type { TaskWakeups } from './task-wakeups';

/** How a task waits before its next attempt (config LEASE_RETRY_*). */
export interface RetryPolicy {
  /** The first retry's delay; it doubles with each attempt, jittered. */
  retryBaseMs: number;
  /** The longest a retry waits. */
  retryMaxMs: number;
}

/** What the work queue needs besides the store: how retries back off, and whom to wake. */
export interface WorkQueue {
  store: Store;
  retry: RetryPolicy;
  wakeups: TaskWakeups;
  quotas: Quotas;
  /** The most log lines a task keeps (the oldest go first); 10,000 when not set. */
  logLinesPerTask?: number;
}

export const DEFAULT_TTL_SECONDS = 60;
/** A waiting claim looks again at least this often, for tasks queued on other instances. */
export const RECHECK_MS = 500;
/** The most expired leases one sweep ends (the next sweep takes the rest). */
const SWEEP_BATCH = 100;
/** The error of a task whose last lease expired with no attempt left. */
export const LEASE_EXPIRED_ERROR = 'lease expired';
/** The error of a task not finished `timeout_seconds` after its first lease. */
export const DEADLINE_ERROR = 'deadline exceeded';

const pastDeadline = (task: Task, at: string): boolean => task.deadline_at !== null && task.deadline_at <= at;

/**
 * The delay before a task whose attempt number `attempts` failed may be claimed again: the base
 * doubled with each attempt, capped, and jittered into its upper half so that tasks that failed
 * together do not all come back at once.
 */
export function retryDelayMs(attempts: number, retry: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(retry.retryMaxMs, retry.retryBaseMs * 2 ** Math.max(0, Math.min(attempts - 1, 40)));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** The status a client sees: an `active` lease past its time is `expired`, whether or not a sweep has recorded it yet. */
function effectiveStatus(lease: LeaseRecord, at: string): Lease['status'] {
  return lease.status === 'active' && lease.expires_at <= at ? 'expired' : lease.status;
}

function present(lease: LeaseRecord, task: Task, at: string): Lease {
  const { id, agent_id, task_id, ttl_seconds, expires_at, created_at } = lease;
  return { id, agent_id, task_id, status: effectiveStatus(lease, at), ttl_seconds, expires_at, created_at, task };
}

/** The credential a claim records as its attempt's worker (a service key by its number, never the key). */
export function workerOf(principal: Principal): { kind: WorkerKind; id: string } {
  if (principal.kind === 'user') return { kind: 'user', id: principal.user.id };
  if (principal.kind === 'service') return { kind: 'service_key', id: `service-key-${principal.keyNumber}` };
  return { kind: 'agent_key', id: principal.keyId };
}

/** The hour an instant falls in, as an ISO timestamp. */
const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;

/** What a worker reported, as stored: dollars in whole millionths. */
function usageDelta(usage: UsageIncrement): UsageDelta {
  return {
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    cost_micro_usd: Math.round((usage.cost_usd ?? 0) * 1_000_000),
    model: usage.model ?? null,
  };
}

/**
 * Adds usage to the agent's hour. Every worker of the agent writes that one row, and holds it until
 * its transaction commits: callers write it last.
 */
async function addAgentUsage(tx: Store, agentId: string, at: string, usage: UsageDelta): Promise<void> {
  await tx.usage.add(agentId, hourOf(at), usage);
}

/** Refuses a lease that is no longer `active` (at `at`): 409 `LEASE_LOST`, naming what ended it. */
function assertActive(lease: LeaseRecord, at: string): void {
  const status = effectiveStatus(lease, at);
  if (status !== 'active') throw leaseLost(status as LeaseEnd);
}

/** The LEASE_LOST of a lease whose compare-and-swap failed: what ended it meanwhile, read again. */
async function lostNow(tx: Store, lease: LeaseRecord, at: string): Promise<never> {
  const current = (await tx.leases.find(lease.agent_id, lease.id)) ?? { ...lease, status: 'expired' as const };
  const status = effectiveStatus(current, at);
  throw leaseLost(status === 'active' ? 'expired' : status);
}

async function findLease(tx: Store, agentId: string, leaseId: string): Promise<LeaseRecord> {
  return (await tx.leases.find(agentId, leaseId)) ?? Promise.reject(leaseNotFound());
}

async function leasedTask(tx: Store, lease: LeaseRecord): Promise<Task> {
  const task = await tx.tasks.find(lease.agent_id, lease.task_id, { lock: true });
  // Leases go with their task (the foreign key cascades): a lease is never without one.
  if (!task) throw leaseNotFound();
  return task;
}

/**
 * Claims the agent's next task, waiting up to `waitSeconds` for one (a long poll): woken when a
 * task is queued in this process, and looking again every RECHECK_MS for those queued elsewhere.
 * Undefined when none came in time, when the process drains, or when the client went away
 * (`signal`): a lease claimed for a client that is gone is given back at once.
 */
export async function claimLease(
  queue: WorkQueue,
  principal: Principal,
  agentId: string,
  claim: { ttlSeconds: number; waitSeconds: number },
  signal?: AbortSignal,
): Promise<Lease | undefined> {
  const deadline = Date.now() + claim.waitSeconds * 1000;
  for (;;) {
    const { lease, nextAt } = await claimOnce(queue, principal, agentId, claim.ttlSeconds);
    if (lease && signal?.aborted) {
      await giveBack(queue, principal, lease).catch(() => undefined);
      return undefined;
    }
    if (lease) return lease;
    const remaining = deadline - Date.now();
    if (remaining <= 0 || signal?.aborted || queue.wakeups.closed) return undefined;
    // A task scheduled (or backing off) to become claimable sooner than the next look is waited for exactly.
    const untilNext = nextAt === undefined ? RECHECK_MS : Math.max(0, Date.parse(nextAt) - Date.now());
    await queue.wakeups.wait(agentId, Math.min(remaining, RECHECK_MS, untilNext), signal);
    if (signal?.aborted || queue.wakeups.closed) return undefined;
  }
}

/**
 * One look: the agent's expired leases end first (their tasks may be the next), then, unless the
 * agent already runs `max_concurrency` tasks, the next task is taken. Without one, `nextAt` is when
 * the agent's next waiting task becomes claimable, if any does.
 */
function claimOnce(queue: WorkQueue, principal: Principal, agentId: string, ttlSeconds: number): Promise<{ lease?: Lease; nextAt?: string }> {
  return queue.store.transaction(async (tx) => {
    let agent = await reachAgent(tx, principal, agentId, { lock: true });
    if (!canStartTasks(agent.status)) {
      throw stateConflict(`Agent is ${agent.status}: no task can start`, { agent_status: agent.status });
    }
    const at = now();
    for (const expired of await tx.leases.expiredOf(agentId, at)) agent = await expireLocked(tx, agent, expired, at, queue);
    // The agent's lock serialises its claims, and its running count is kept in the same transactions
    // as its tasks' moves: the cap holds exactly, across instances.
    if (await isAtCap(tx, agent)) return {};
    // Deferred tasks whose time has come join the claimable ones under the agent's lock, so each
    // is released once and ranked by its priority like any other.
    await tx.tasks.releaseDue(agentId, at);
    let task = await tx.tasks.nextClaimable(agentId, at);
    // A task past its deadline while queued (backing off) fails instead of starting.
    while (task && pastDeadline(task, at)) {
      agent = await timeOutLocked(tx, agent, task, at, queue);
      task = await tx.tasks.nextClaimable(agentId, at);
    }
    if (!task) return { nextAt: await tx.tasks.nextAvailableAt(agentId, at) };
    const timestamp = nextTimestamp(task.updated_at);
    const worker = workerOf(principal);
    const draft: Omit<LeaseRecord, 'number'> = {
      id: newId(),
      agent_id: agentId,
      task_id: task.id,
      status: 'active',
      ttl_seconds: ttlSeconds,
      expires_at: addMs(timestamp, ttlSeconds * 1000),
      created_at: timestamp,
      ended_at: null,
      worker_kind: worker.kind,
      worker_id: worker.id,
      outcome: null,
      error: null,
      last_heartbeat_at: null,
      progress: null,
      input_tokens: 0,
      output_tokens: 0,
      cost_micro_usd: 0,
      model: null,
      wait_ms: Math.max(0, Date.parse(timestamp) - Date.parse(task.created_at)),
    };
    const running = await tx.tasks.update(
      task.id,
      'queued',
      {
        status: 'running',
        attempts: task.attempts + 1,
        started_at: timestamp,
        updated_at: timestamp,
        lease_id: draft.id,
        progress: null,
        ...deadlineFromStart(task, timestamp),
      },
      0,
    );
    // The task row is locked (or, on SQLite, the whole database): nobody else can have moved it.
    if (!running) throw new Error(`task ${task.id} changed under its lock`);
    const lease = await tx.leases.insert(draft);
    recordTaskChange(tx, actorOf(principal), agent, task, running, 'task.leased');
    await followTaskStatus(tx, actorOf(principal), agent, 'queued', 'running');
    return { lease: present(lease, running, timestamp) };
  });
}

/** Releases a lease whose client went away before it could be handed over. */
async function giveBack(queue: WorkQueue, principal: Principal, lease: Lease): Promise<void> {
  await releaseLease(queue, principal, lease.agent_id, lease.id);
}

export async function getLease(store: Store, principal: Principal, agentId: string, leaseId: string): Promise<Lease> {
  await reachAgent(store, principal, agentId);
  const lease = await findLease(store, agentId, leaseId);
  const task = await store.tasks.find(agentId, lease.task_id);
  if (!task) throw leaseNotFound();
  return present(lease, task, now());
}

/**
 * A heartbeat (the lease expires `ttl_seconds` from now, its own when absent; progress is recorded
 * on the task), or the attempt's outcome. A lease that is no longer active changes nothing.
 */
export async function updateLease(queue: WorkQueue, principal: Principal, agentId: string, leaseId: string, update: LeaseUpdate): Promise<Lease> {
  if (!('status' in update)) return heartbeat(queue.store, principal, agentId, leaseId, update);
  if (update.status === 'succeeded') assertJsonSize('result', update.result);
  let requeued = false;
  let capped = false;
  const lease = await queue.store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, agentId, { lock: true });
    capped = agent.max_concurrency !== null;
    const found = await findLease(tx, agentId, leaseId);
    const task = await leasedTask(tx, found);
    const at = now();
    assertActive(found, at);
    // Too late: the task fails as the sweep would have failed it, and the worker hears so once that is committed.
    if (pastDeadline(task, at)) {
      await timeOutLocked(tx, agent, task, at, queue);
      return undefined;
    }
    // Usage is added to the attempt in the statement that ends it.
    const usage = update.usage === undefined ? undefined : usageDelta(update.usage);
    const ended = await tx.leases.updateActive(
      found.id,
      { status: 'completed', ended_at: at, expires_at: at, outcome: update.status, error: update.status === 'failed' ? update.error : null },
      at,
      usage,
    );
    if (!ended) return lostNow(tx, found, at);
    const used = usage === undefined ? task : ((await tx.tasks.addUsage(task.id, usage)) ?? task);
    const outcome =
      update.status === 'succeeded'
        ? await settle(tx, actorOf(principal), agent, used, { status: 'succeeded', result: update.result ?? null }, at, queue)
        : await settle(tx, actorOf(principal), agent, used, { status: 'failed', error: update.error, retry: update.retry === true }, at, queue);
    if (usage !== undefined) await addAgentUsage(tx, agentId, at, usage);
    requeued = outcome.status === 'queued';
    return present(ended, outcome, at);
  });
  // A capped agent's waiting claims may go on once one of its tasks stops running.
  if (requeued || capped) queue.wakeups.notify(agentId);
  if (!lease) throw leaseLost('timed_out');
  return lease;
}

function heartbeat(
  store: Store,
  principal: Principal,
  agentId: string,
  leaseId: string,
  update: { ttl_seconds?: number; progress?: Task['progress']; usage?: UsageIncrement },
): Promise<Lease> {
  return store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, agentId);
    const found = await findLease(tx, agentId, leaseId);
    // The task's lock first, as every write of a leased task takes it (before its lease).
    let task = await leasedTask(tx, found);
    const at = now();
    assertActive(found, at);
    // The sweep fails the task under its agent's lock, which a heartbeat does not take.
    if (pastDeadline(task, at)) throw leaseLost('timed_out');
    const ttlSeconds = update.ttl_seconds ?? found.ttl_seconds;
    const usage = update.usage === undefined ? undefined : usageDelta(update.usage);
    const extended = await tx.leases.updateActive(
      found.id,
      { ttl_seconds: ttlSeconds, expires_at: addMs(at, ttlSeconds * 1000), last_heartbeat_at: at, ...(update.progress === undefined ? {} : { progress: update.progress }) },
      at,
      usage,
    );
    if (!extended) return lostNow(tx, found, at);
    if (usage !== undefined) task = (await tx.tasks.addUsage(task.id, usage)) ?? task;
    if (update.progress !== undefined) {
      const changed = await tx.tasks.update(task.id, 'running', { progress: update.progress, updated_at: nextTimestamp(task.updated_at) }, 0);
      if (!changed) throw new Error(`task ${task.id} changed under its lock`);
      recordTaskChange(tx, actorOf(principal), agent, task, changed, 'task.progress');
      task = changed;
    }
    if (usage !== undefined) await addAgentUsage(tx, agentId, at, usage);
    return present(extended, task, at);
  });
}

/** Gives the task back: it is queued again at once, and the attempt is not counted. */
export async function releaseLease(queue: WorkQueue, principal: Principal, agentId: string, leaseId: string): Promise<void> {
  await queue.store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, agentId, { lock: true });
    const found = await findLease(tx, agentId, leaseId);
    const task = await leasedTask(tx, found);
    const at = now();
    assertActive(found, at);
    if (!(await tx.leases.updateActive(found.id, { status: 'released', ended_at: at, expires_at: at, outcome: 'released' }, at))) await lostNow(tx, found, at);
    await requeue(tx, actorOf(principal), agent, task, { attempts: Math.max(0, task.attempts - 1), available_at: at }, at, { reason: 'released', error: null });
  });
  queue.wakeups.notify(agentId);
}

/** `byService`: the service ends the attempt itself (an expiry); what it writes is recorded, never refused by a quota. */
type Outcome = { status: 'succeeded'; result: unknown } | { status: 'failed'; error: string; retry: boolean; byService?: boolean };

/**
 * Ends the running attempt of a leased task: it succeeds, fails for good, or (a failure to retry,
 * while attempts remain) is queued again after a back-off. The caller holds the agent's and the
 * task's locks and has ended the lease.
 */
async function settle(tx: Store, actor: Actor, agent: Agent, task: Task, outcome: Outcome, at: string, queue: WorkQueue): Promise<Task> {
  if (outcome.status === 'failed' && outcome.retry && task.attempts < task.max_attempts) {
    const reason = outcome.byService ? 'expired' : 'failed';
    const changes = { available_at: addMs(at, retryDelayMs(task.attempts, queue.retry)), last_error: outcome.error };
    const updated = await requeue(tx, actor, agent, task, changes, at, { reason, error: outcome.error });
    await chargeOutcome(tx, agent, taskBytes(updated) - taskBytes(task), outcome, queue);
    return updated;
  }
  const timestamp = nextTimestamp(task.updated_at);
  const changes =
    outcome.status === 'succeeded'
      ? { status: 'succeeded' as const, result: outcome.result, finished_at: timestamp, updated_at: timestamp, lease_id: null }
      : { status: 'failed' as const, error: outcome.error, last_error: outcome.error, finished_at: timestamp, updated_at: timestamp, lease_id: null };
  const bytesDelta = taskBytes({ ...task, ...changes }) - taskBytes(task);
  const updated = await tx.tasks.update(task.id, 'running', changes, bytesDelta);
  if (!updated) throw new Error(`task ${task.id} changed under its lock`);
  recordTaskChange(tx, actor, agent, task, updated);
  await followTaskStatus(tx, actor, agent, 'running', updated.status);
  await chargeOutcome(tx, agent, bytesDelta, outcome, queue);
  return updated;
}

/** What an outcome stores (its result, its error) is the agent's and its owner's: a worker's is charged as the owner's own write would be. */
async function chargeOutcome(tx: Store, agent: Agent, bytesDelta: number, outcome: Outcome, queue: WorkQueue): Promise<void> {
  if (bytesDelta === 0) return;
  await tx.agents.addStoredBytes(agent.id, bytesDelta);
  if (outcome.status === 'failed' && outcome.byService) await recordStoredBytes(tx, agent.owner_id, bytesDelta);
  else await chargeStoredBytes(tx, agent.owner_id, bytesDelta, queue.quotas, agentNotFound);
}

/** Why a task went back to the queue, as its `task.requeued` event says. */
type Requeue = { reason: 'failed' | 'expired' | 'released'; error: string | null };

async function requeue(tx: Store, actor: Actor, agent: Agent, task: Task, changes: { attempts?: number; available_at: string; last_error?: string }, at: string, why: Requeue): Promise<Task> {
  const timestamp = nextTimestamp(task.updated_at > at ? task.updated_at : at);
  const bytesDelta = changes.last_error === undefined ? 0 : taskBytes({ ...task, last_error: changes.last_error }) - taskBytes(task);
  const updated = await tx.tasks.update(task.id, 'running', { status: 'queued', started_at: null, lease_id: null, updated_at: timestamp, ...changes }, bytesDelta);
  if (!updated) throw new Error(`task ${task.id} changed under its lock`);
  recordTaskChange(tx, actor, agent, task, updated, 'task.requeued', why);
  await followTaskStatus(tx, actor, agent, 'running', 'queued');
  return updated;
}

/**
 * Ends an expired lease (the caller holds its agent's lock): its task is queued again after a
 * back-off, or fails with `lease expired` once its attempts are spent. A lease someone else ended
 * first is left as it is. Answers the agent as it is now.
 */
async function expireLocked(tx: Store, agent: Agent, lease: LeaseRecord, at: string, queue: WorkQueue): Promise<Agent> {
  const task = await tx.tasks.find(agent.id, lease.task_id, { lock: true });
  const ended = await tx.leases.updateActive(lease.id, { status: 'expired', ended_at: at, outcome: 'expired', error: LEASE_EXPIRED_ERROR });
  if (!ended || !task || task.lease_id !== lease.id || task.status !== 'running') return agent;
  const retry = task.attempts < task.max_attempts;
  // The service ends an expired lease itself: no one acted.
  await settle(tx, null, agent, task, { status: 'failed', error: LEASE_EXPIRED_ERROR, retry, byService: true }, at, queue);
  return (await tx.agents.find(agent.id)) ?? agent;
}

/**
 * Ends every lease past its time, whichever process runs it, as often as it runs: each lease in a
 * transaction of its own, under its agent's lock, and only while it is still active, so that two
 * sweeps (or a sweep and a claim) never both handle one. On PostgreSQL an agent another
 * transaction holds is passed over until the next sweep. Answers how many leases it ended.
 */
export async function sweepExpiredLeases(queue: WorkQueue, at: string = now()): Promise<number> {
  let ended = 0;
  for (const candidate of await queue.store.leases.listExpired(at, SWEEP_BATCH)) {
    const requeued = await queue.store.transaction(async (tx) => {
      const agent = await tx.agents.lockUnlessHeld(candidate.agent_id);
      if (!agent) return false;
      const lease = await tx.leases.find(candidate.agent_id, candidate.id);
      if (!lease || lease.status !== 'active' || lease.expires_at > at) return false;
      await expireLocked(tx, agent, lease, at, queue);
      ended += 1;
      return true;
    });
    if (requeued) queue.wakeups.notify(candidate.agent_id);
  }
  return ended;
}

/**
 * Fails a queued or running task whose deadline has passed (the caller holds its agent's and its
 * own locks): its active lease ends as `timed_out` and no attempt follows. Answers the agent as it is now.
 */
async function timeOutLocked(tx: Store, agent: Agent, task: Task, at: string, queue: WorkQueue): Promise<Agent> {
  if (task.status === 'running' && task.lease_id !== null) {
    await tx.leases.updateActive(task.lease_id, { status: 'timed_out', ended_at: at, expires_at: at, outcome: 'timed_out', error: DEADLINE_ERROR });
  }
  const timestamp = nextTimestamp(task.updated_at > at ? task.updated_at : at);
  const changes = { status: 'failed' as const, error: DEADLINE_ERROR, last_error: DEADLINE_ERROR, finished_at: timestamp, updated_at: timestamp, lease_id: null };
  const bytesDelta = taskBytes({ ...task, ...changes }) - taskBytes(task);
  const updated = await tx.tasks.update(task.id, task.status, changes, bytesDelta);
  if (!updated) throw new Error(`task ${task.id} changed under its lock`);
  recordTaskChange(tx, null, agent, task, updated);
  const current = await followTaskStatus(tx, null, agent, task.status, 'failed');
  await chargeOutcome(tx, agent, bytesDelta, { status: 'failed', error: DEADLINE_ERROR, retry: false, byService: true }, queue);
  return current;
}

/**
 * Fails every task past its deadline, whichever process runs it: each in a transaction of its own,
 * under its agent's lock, and only while it is still unfinished and past it. Answers how many it failed.
 */
export async function sweepDeadlines(queue: WorkQueue, at: string = now()): Promise<number> {
  let ended = 0;
  for (const candidate of await queue.store.tasks.listPastDeadline(at, SWEEP_BATCH)) {
    const failed = await queue.store.transaction(async (tx) => {
      const agent = await tx.agents.lockUnlessHeld(candidate.agent_id);
      if (!agent) return false;
      const task = await tx.tasks.find(candidate.agent_id, candidate.id, { lock: true });
      if (!task || (task.status !== 'queued' && task.status !== 'running') || !pastDeadline(task, at)) return false;
      await timeOutLocked(tx, agent, task, at, queue);
      ended += 1;
      return agent.max_concurrency !== null;
    });
    if (failed) queue.wakeups.notify(candidate.agent_id);
  }
  return ended;
}

export const DEFAULT_LOG_LINES_PER_TASK = 10_000;
/** The furthest back a worker may date a log line, and the furthest ahead (clocks drift). */
const LOG_PAST_MS = 24 * 3_600_000;
const LOG_FUTURE_MS = 60_000;
/** The most a line's `data` may take, as JSON. */
export const LOG_DATA_MAX_BYTES = 8192;

/**
 * Appends a worker's log lines to its leased task, tagged with the attempt, in one transaction: the
 * whole batch or nothing. A lease that is no longer active (checked under the task's lock, which
 * every end of a lease takes) writes nothing.
 */
export async function appendLogs(queue: WorkQueue, principal: Principal, agentId: string, leaseId: string, lines: LogLineCreate[]): Promise<void> {
  await queue.store.transaction(async (tx) => {
    await reachAgent(tx, principal, agentId);
    const lease = await findLease(tx, agentId, leaseId);
    const task = await leasedTask(tx, lease);
    const at = now();
    assertActive(lease, at);
    if (pastDeadline(task, at)) throw leaseLost('timed_out');
    const kept = keepableLines(lines, at);
    await tx.taskLogs.append({ agent_id: agentId, task_id: lease.task_id, lease_id: lease.id, attempt: lease.number, lines: kept }, queue.logLinesPerTask ?? DEFAULT_LOG_LINES_PER_TASK);
  });
}

/**
 * The lines as they are stored (each `data` as JSON text, measured as it is written, each time set),
 * or 400 for a batch with a line whose data is too large or whose time is far from the service's clock.
 */
function keepableLines(lines: LogLineCreate[], at: string): LogBatch['lines'] {
  const clock = Date.parse(at);
  const problems: Array<{ field: string; in: 'body'; message: string }> = [];
  const kept = lines.map((line, index) => {
    const data = line.data === undefined || line.data === null ? null : JSON.stringify(line.data);
    if (data !== null && Buffer.byteLength(data, 'utf8') > LOG_DATA_MAX_BYTES) problems.push({ field: `lines/${index}/data`, in: 'body', message: `must be at most ${LOG_DATA_MAX_BYTES} bytes as JSON` });
    const stamped = line.at === undefined ? clock : Date.parse(line.at);
    if (stamped < clock - LOG_PAST_MS || stamped > clock + LOG_FUTURE_MS) {
      problems.push({ field: `lines/${index}/at`, in: 'body', message: 'must be within the last day (and at most a minute ahead)' });
    }
    return { level: line.level, message: line.message, data, at: line.at === undefined ? at : new Date(stamped).toISOString() };
  });
  if (problems.length > 0) throw invalidValue('Some log lines cannot be kept', problems);
  return kept;
}
