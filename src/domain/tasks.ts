import type { Store } from '../data/store';
import type { TaskChanges } from '../data/tasks-repository';
import { newId, nextTimestamp, now } from '../data/ids';
import { agentNotFound, invalidValue, stateConflict, taskNotFound } from '../errors';
import { actorOf, assertNotAgentKey, assertReaches, type Principal } from './access';
import { reachAgent } from './agents';
import { canAcceptTasks, canStartTasks, statusAfterTaskStart, statusAfterTaskStop } from './agent-status';
import type { ListQuery, ListResult } from './collection';
import type { Agent, Task, TaskCreate, TaskStatus, TaskUpdate } from '../model';
import { recordAgentChange, recordTaskChange, recordTaskEvent, type Actor } from './events';
import { assertPrecondition, type Precondition } from './precondition';
import { assertTaskQuota, chargeStoredBytes, jsonBytes, releaseStoredBytes, taskBytes, type Quotas } from './quotas';
import { assertTaskTransition, isTerminal } from './task-status';
import type { TaskWakeups } from './task-wakeups';

export const MAX_JSON_BYTES = 64 * 1024;
const DEFAULT_PRIORITY = 5;
const DEFAULT_MAX_ATTEMPTS = 3;

export async function listTasks(store: Store, principal: Principal, agentId: string, query: ListQuery): Promise<ListResult<Task>> {
  await reachAgent(store, principal, agentId);
  return store.tasks.list(agentId, query);
}

/**
 * The agent's row lock serialises its task writes, so its task count is exact here. What the task
 * stores is charged to the agent's owner last, so the owner's row is held for as short as can be.
 * Once it is committed, the claims of this process waiting for the agent's next task look again.
 */
export async function createTask(
  store: Store,
  principal: Principal,
  agentId: string,
  input: TaskCreate,
  quotas: Quotas,
  wakeups?: TaskWakeups,
  origin?: { scheduleId: string },
): Promise<Task> {
  assertReaches(principal, agentId);
  assertJsonSize('input', input.input);
  const runAt = input.run_at === undefined ? null : checkRunAt(input.run_at);
  const created = await store.transaction(async (tx) => {
    const agent = await reachAgent(tx, principal, agentId, { lock: true });
    assertAcceptsTasks(agent);
    await assertTaskQuota(tx, agentId, quotas);
    const timestamp = now();
    const task: Task = {
      id: newId(),
      agent_id: agentId,
      title: input.title,
      description: input.description ?? null,
      input: input.input ?? null,
      priority: input.priority ?? DEFAULT_PRIORITY,
      status: 'queued',
      result: null,
      error: null,
      created_at: timestamp,
      updated_at: timestamp,
      started_at: null,
      finished_at: null,
      attempts: 0,
      max_attempts: input.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
      available_at: runAt !== null && runAt > timestamp ? runAt : timestamp,
      progress: null,
      lease_id: null,
      last_error: null,
      usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      run_at: runAt,
      timeout_seconds: input.timeout_seconds ?? null,
      deadline_at: null,
      schedule_id: origin?.scheduleId ?? null,
    };
    const bytes = taskBytes(task);
    await tx.tasks.insert(task, bytes);
    await tx.agents.addStoredBytes(agentId, bytes);
    await chargeStoredBytes(tx, agent.owner_id, bytes, quotas, agentNotFound);
    // A schedule's firing is the service's own doing.
    recordTaskEvent(tx, origin ? null : actorOf(principal), 'task.created', agent, task.id, { ...task });
    return task;
  });
  wakeups?.notify(agentId);
  return created;
}

export async function getTask(store: Store, principal: Principal, agentId: string, taskId: string): Promise<Task> {
  await reachAgent(store, principal, agentId);
  return (await store.tasks.find(agentId, taskId)) ?? Promise.reject(taskNotFound());
}

export function updateTask(
  store: Store,
  principal: Principal,
  agentId: string,
  taskId: string,
  patch: TaskUpdate,
  quotas: Quotas,
  precondition?: Precondition<Task>,
): Promise<Task> {
  assertJsonSize('result', patch.result);
  return store.transaction(async (tx) => {
    const { agent, task } = await lockTask(tx, principal, agentId, taskId, precondition);
    const changes = planTaskChanges(agent, task, patch);
    if (changes.status === 'running') await assertBelowCap(tx, agent);
    const bytesDelta = taskBytes({ ...task, ...changes }) - taskBytes(task);
    const updated = await tx.tasks.update(task.id, task.status, changes, bytesDelta);
    if (!updated) throw stateConflict('The task changed while this request was handled; read it and retry');
    // The owner's cancel is the one change a leased task takes from outside its lease: it ends the lease.
    if (task.lease_id !== null) await tx.leases.updateActive(task.lease_id, { status: 'cancelled', ended_at: changes.updated_at ?? now(), outcome: 'cancelled' });
    recordTaskChange(tx, actorOf(principal), agent, task, updated);
    if (updated.status !== task.status) await followTaskStatus(tx, actorOf(principal), agent, task.status, updated.status);
    await tx.agents.addStoredBytes(agentId, bytesDelta);
    await chargeStoredBytes(tx, agent.owner_id, bytesDelta, quotas, agentNotFound);
    return updated;
  });
}

/** The most attempts a task may be allowed, retries included. */
export const MAX_ATTEMPTS_EVER = 1000;

/**
 * Queues a failed or cancelled task again as a new attempt, with one more attempt allowed when its
 * attempts are spent. Its history (attempts, logs, usage, `last_error`) stays; its deadline starts
 * again at its next lease.
 */
export async function retryTask(store: Store, principal: Principal, agentId: string, taskId: string, quotas: Quotas, wakeups?: TaskWakeups): Promise<Task> {
  const retried = await store.transaction(async (tx) => {
    const { agent, task } = await lockTask(tx, principal, agentId, taskId);
    if (task.status !== 'failed' && task.status !== 'cancelled') {
      throw stateConflict(`A ${task.status} task cannot be retried: only a failed or cancelled one`, { status: task.status });
    }
    assertAcceptsTasks(agent);
    if (task.attempts >= MAX_ATTEMPTS_EVER) {
      throw stateConflict(`The task has used its ${MAX_ATTEMPTS_EVER} attempts: create a new task`, { status: task.status });
    }
    const timestamp = nextTimestamp(task.updated_at);
    const changes: TaskChanges = {
      status: 'queued',
      updated_at: timestamp,
      available_at: timestamp,
      started_at: null,
      finished_at: null,
      error: null,
      result: null,
      progress: null,
      deadline_at: null,
      max_attempts: Math.max(task.max_attempts, task.attempts + 1),
    };
    const bytesDelta = taskBytes({ ...task, ...changes }) - taskBytes(task);
    const updated = await tx.tasks.update(task.id, task.status, changes, bytesDelta);
    if (!updated) throw stateConflict('The task changed while this request was handled; read it and retry');
    recordTaskChange(tx, actorOf(principal), agent, task, updated, 'task.requeued', { reason: 'retried', error: task.last_error });
    await tx.agents.addStoredBytes(agentId, bytesDelta);
    await chargeStoredBytes(tx, agent.owner_id, bytesDelta, quotas, agentNotFound);
    return updated;
  });
  wakeups?.notify(agentId);
  return retried;
}

export function deleteTask(store: Store, principal: Principal, agentId: string, taskId: string, precondition?: Precondition<Task>): Promise<void> {
  return store.transaction(async (tx) => {
    const { agent, task } = await lockTask(tx, principal, agentId, taskId, precondition);
    const storedBytes = await tx.tasks.remove(agentId, taskId);
    if (storedBytes === undefined) throw taskNotFound();
    recordTaskEvent(tx, actorOf(principal), 'task.deleted', agent, task.id, { id: task.id, status: task.status, title: task.title });
    if (task.status === 'running') await followTaskStatus(tx, actorOf(principal), agent, 'running', 'cancelled');
    await tx.agents.addStoredBytes(agentId, -storedBytes);
    await releaseStoredBytes(tx, agent.owner_id, storedBytes);
  });
}

/**
 * Locks the agent, then the task (always in that order, so transitions of one agent's tasks
 * serialise without deadlocks), and checks the caller's precondition on the task.
 */
async function lockTask(tx: Store, principal: Principal, agentId: string, taskId: string, precondition?: Precondition<Task>): Promise<{ agent: Agent; task: Task }> {
  // A task changes through its owner (or an admin, or a service key); an agent's own processes work it through leases.
  assertNotAgentKey(principal);
  const agent = await reachAgent(tx, principal, agentId, { lock: true });
  const task = await tx.tasks.find(agentId, taskId, { lock: true });
  if (!task) throw taskNotFound();
  assertPrecondition(precondition, task);
  return { agent, task };
}

function planTaskChanges(agent: Agent, task: Task, patch: TaskUpdate): TaskChanges {
  const target = patch.status ?? task.status;
  if (isTerminal(task.status)) {
    throw stateConflict(`A ${task.status} task never changes`, { status: task.status });
  }
  // A leased task belongs to its worker: only the lease changes it, except for its owner's cancel.
  if (task.lease_id !== null && !(patch.status === 'cancelled' && Object.keys(patch).length === 1)) {
    throw stateConflict('The task is leased to a worker: only its lease changes it (its owner may still cancel it)', { status: task.status, lease_id: task.lease_id });
  }
  if (patch.result !== undefined && target !== 'succeeded') {
    throw invalidValue('result can only be reported with status succeeded', [
      { field: 'result', in: 'body', message: 'only allowed with status succeeded' },
    ]);
  }
  if (patch.error !== undefined && target !== 'failed') {
    throw invalidValue('error can only be reported with status failed', [
      { field: 'error', in: 'body', message: 'only allowed with status failed' },
    ]);
  }
  const edits = (['title', 'description', 'priority'] as const).filter((field) => patch[field] !== undefined);
  if (edits.length > 0 && task.status !== 'queued') {
    throw stateConflict(`${edits.join(', ')} can only change while the task is queued`, { status: task.status });
  }

  const timestamp = nextTimestamp(task.updated_at);
  const changes: TaskChanges = { updated_at: timestamp };
  for (const field of edits) Object.assign(changes, { [field]: patch[field] });

  if (patch.status !== undefined) {
    // A status is a claim (a worker starting or finishing the task): repeating it must lose, so that
    // two workers never both believe they started the same task.
    assertTaskTransition(task.status, target);
    if (target === 'running' && !canStartTasks(agent.status)) {
      throw stateConflict(`Agent is ${agent.status}: no task can start`, { agent_status: agent.status });
    }
    changes.status = target;
    if (target === 'running') Object.assign(changes, { started_at: timestamp, ...deadlineFromStart(task, timestamp) });
    if (isTerminal(target)) changes.finished_at = timestamp;
    if (target === 'succeeded') changes.result = patch.result ?? null;
    if (target === 'failed') changes.error = patch.error ?? null;
    if (target === 'failed' && patch.error !== undefined) changes.last_error = patch.error;
    if (task.lease_id !== null) changes.lease_id = null;
  }
  return changes;
}

/**
 * Whether the agent already runs `max_concurrency` tasks. Under the agent's lock the answer holds
 * until the transaction ends: its running count moves in the same transactions as its tasks.
 */
export async function isAtCap(tx: Store, agent: Agent): Promise<boolean> {
  return agent.max_concurrency !== null && (await tx.tasks.countRunning(agent.id)) >= agent.max_concurrency;
}

/** A task may start only while fewer than the agent's `max_concurrency` run (the caller holds the agent's lock). */
async function assertBelowCap(tx: Store, agent: Agent): Promise<void> {
  if (await isAtCap(tx, agent)) {
    throw stateConflict(`Agent already runs as many tasks as its max_concurrency (${agent.max_concurrency})`, { agent_status: agent.status });
  }
}

/** The deadline a task gets as it starts: `timeout_seconds` from its first start, kept across its attempts. */
export function deadlineFromStart(task: Task, startedAt: string): Pick<TaskChanges, 'deadline_at'> {
  if (task.timeout_seconds === null || task.deadline_at !== null) return {};
  return { deadline_at: new Date(Date.parse(startedAt) + task.timeout_seconds * 1000).toISOString() };
}

function assertAcceptsTasks(agent: Agent): void {
  if (!canAcceptTasks(agent.status)) {
    throw stateConflict(`Agent is ${agent.status} and accepts no new task`, { agent_status: agent.status });
  }
}

/**
 * Keeps the agent's status in step with its tasks (an `agent.updated` event when it moves); answers
 * the agent as it is now. The caller holds the agent's lock.
 */
export async function followTaskStatus(tx: Store, actor: Actor, agent: Agent, from: TaskStatus, to: TaskStatus): Promise<Agent> {
  let status = agent.status;
  if (to === 'running') status = statusAfterTaskStart(agent.status);
  else if (from === 'running') status = statusAfterTaskStop(agent.status, await tx.tasks.countRunning(agent.id));
  if (status === agent.status) return agent;
  const updated = await tx.agents.update(agent.id, { status, updated_at: nextTimestamp(agent.updated_at) });
  recordAgentChange(tx, actor, agent, updated);
  return updated;
}

/** How far back a `run_at` may lie (clocks drift, requests queue), and how far ahead. */
const RUN_AT_PAST_MS = 60_000;
const RUN_AT_FUTURE_MS = 365 * 24 * 3_600_000;

/** A `run_at` as stored (UTC, milliseconds), or 400 when it lies too far back or ahead. */
function checkRunAt(runAt: string): string {
  const at = Date.parse(runAt);
  const clock = Date.now();
  if (!(at >= clock - RUN_AT_PAST_MS && at <= clock + RUN_AT_FUTURE_MS)) {
    throw invalidValue('run_at must be at most a minute in the past and at most 365 days ahead', [
      { field: 'run_at', in: 'body', message: 'must be at most a minute in the past and at most 365 days ahead' },
    ]);
  }
  return new Date(at).toISOString();
}

export function assertJsonSize(field: string, value: unknown): void {
  const bytes = jsonBytes(value);
  if (bytes > MAX_JSON_BYTES) {
    throw invalidValue(`${field} is ${bytes} bytes as JSON; the limit is ${MAX_JSON_BYTES}`, [
      { field, in: 'body', message: `must be at most ${MAX_JSON_BYTES} bytes as JSON` },
    ]);
  }
}
