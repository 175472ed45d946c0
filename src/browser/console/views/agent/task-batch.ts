// Cancelling or retrying the tasks chosen in the agent's table: one request
// (`POST .../task-batches` with their ids), whose answer says task by task what changed and what
// the service refused (a task that finished meanwhile, one in a status the action does not take),
// each refusal in the service's own words.
import type { components } from '@agent-fleet/client';
import { AgentFleetError } from '@agent-fleet/client';
import { api } from '../../../api';
import type { TaskRow, TaskStatus } from './task-list';

export type BatchAction = components['schemas']['TaskBatchAction'];

/** The most tasks one batch takes (the API's own bound). */
export const MAX_BATCH = 1000;

/** What became of one chosen task. */
export interface BatchOutcome {
  task: TaskRow;
  /** `changed` by the service, or `refused` by it (`message` says why). */
  result: 'changed' | 'refused';
  /** Its status before, as the table showed it. */
  was: TaskStatus;
  /** Its status now, as the service answered; null when it was deleted meanwhile. */
  status: TaskStatus | null;
  /** Why it was refused. */
  message: string | undefined;
}

/**
 * Applies `action` to `tasks` (at most MAX_BATCH) in one request; the outcomes in the order given.
 * Throws when the service refused the batch as a whole (an id that names no task of the agent any
 * more, a rate limit, no connection): nothing changed then.
 */
export async function runTaskBatch(agentId: string, action: BatchAction, tasks: readonly TaskRow[]): Promise<BatchOutcome[]> {
  const chosen = tasks.slice(0, MAX_BATCH);
  if (chosen.length === 0) return [];
  const { data, error, response } = await api.POST('/api/v1/agents/{agent_id}/task-batches', {
    params: { path: { agent_id: agentId } },
    body: { action, ids: chosen.map((task) => task.id) },
  });
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  const results = new Map(data.data.results.map((result) => [result.task_id, result]));
  return chosen.map((task) => {
    const result = results.get(task.id);
    if (!result) return { task, result: 'refused', was: task.status, status: task.status, message: 'the service did not say' };
    return { task, result: result.outcome, was: task.status, status: result.status, message: result.error?.message };
  });
}
