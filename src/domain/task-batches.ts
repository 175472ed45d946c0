import type { Store } from '../data/store';
import { AppError, invalidValue } from '../errors';
import type { Task, TaskStatus } from '../model';
import type { components } from '../../generated/api';
import { assertNotAgentKey, type Principal } from './access';
import { reachAgent } from './agents';
import type { Quotas } from './quotas';
import type { TaskWakeups } from './task-wakeups';
import { retryTask, updateTask } from './tasks';

export type TaskBatchCreate = components['schemas']['TaskBatchCreate'];

/** What the batch did to one task: the task as it is now, and the refusal when it did not change. */
export interface TaskBatchEntry {
  task_id: string;
  /** Null when the task was deleted while the batch ran. */
  status: TaskStatus | null;
  refusal: AppError | null;
}

export interface TaskBatchOutcome {
  action: TaskBatchCreate['action'];
  entries: TaskBatchEntry[];
  more: boolean;
}

const DEFAULT_LIMIT = 1000;

/**
 * Cancels or retries the agent's tasks named by `ids`, or those in `status` (oldest first), each in
 * a transaction of its own exactly as its own request would: a refusal leaves that task as it was
 * and the others go on. Ids that name no task of the agent refuse the whole batch before anything
 * changes.
 */
export async function runTaskBatch(store: Store, principal: Principal, agentId: string, batch: TaskBatchCreate, quotas: Quotas, wakeups?: TaskWakeups): Promise<TaskBatchOutcome> {
  assertNotAgentKey(principal);
  await reachAgent(store, principal, agentId);
  const { ids, more } = await chosenTasks(store, agentId, batch);
  const entries: TaskBatchEntry[] = [];
  for (const id of ids) entries.push(await applyTo(store, principal, agentId, id, batch.action, quotas));
  if (batch.action === 'retry' && entries.some((entry) => entry.refusal === null)) wakeups?.notify(agentId);
  return { action: batch.action, entries, more };
}

async function chosenTasks(store: Store, agentId: string, batch: TaskBatchCreate): Promise<{ ids: string[]; more: boolean }> {
  if ('ids' in batch) {
    const existing = await store.tasks.existingIds(agentId, batch.ids);
    const unknown = batch.ids.flatMap((id, index) => (existing.has(id) ? [] : [{ field: `ids/${index}`, in: 'body' as const, message: 'names no task of this agent' }]));
    if (unknown.length > 0) throw invalidValue(`${unknown.length} of the ids name no task of this agent: nothing was changed`, unknown);
    return { ids: batch.ids, more: false };
  }
  const limit = batch.limit ?? DEFAULT_LIMIT;
  // One more than asked says whether more are left.
  const ids = await store.tasks.idsInStatus(agentId, batch.status, limit + 1);
  return { ids: ids.slice(0, limit), more: ids.length > limit };
}

async function applyTo(store: Store, principal: Principal, agentId: string, taskId: string, action: TaskBatchCreate['action'], quotas: Quotas): Promise<TaskBatchEntry> {
  try {
    const task: Task =
      action === 'cancel' ? await updateTask(store, principal, agentId, taskId, { status: 'cancelled' }, quotas) : await retryTask(store, principal, agentId, taskId, quotas);
    return { task_id: taskId, status: task.status, refusal: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const current = await store.tasks.find(agentId, taskId);
    return { task_id: taskId, status: current?.status ?? null, refusal: error };
  }
}
