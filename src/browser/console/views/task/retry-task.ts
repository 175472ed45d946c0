// Running a failed or cancelled task again, from its page (`POST .../attempts`): it is queued as a
// new attempt, its history kept. Several chosen in the agent's table go in one batch request.
import { api, messageOf } from '../../../api';
import type { Task } from '../agent/task-list';

export type Retried = { ok: true; task: Task } | { ok: false; message: string };

/** Only a task that ended without succeeding can be run again. */
export const isRetryable = (task: Pick<Task, 'status'>): boolean => task.status === 'failed' || task.status === 'cancelled';

export async function retryTask(agentId: string, taskId: string): Promise<Retried> {
  try {
    const { data, error, response } = await api.POST('/api/v1/agents/{agent_id}/tasks/{task_id}/attempts', { params: { path: { agent_id: agentId, task_id: taskId } } });
    if (!response.ok || !data) return { ok: false, message: messageOf(error, 'The task could not be retried. Please try again.') };
    return { ok: true, task: data.data as Task };
  } catch (failure) {
    return { ok: false, message: messageOf(failure, 'The task could not be retried. Please try again.') };
  }
}
