// Cancelling one task from its page, through the task's own PATCH. Several chosen in the agent's
// table go in one batch request (../agent/task-batch.ts).
import { api, messageOf } from '../../../api';
import type { Task } from '../agent/task-list';

export type Cancelled = { ok: true; task: Task } | { ok: false; message: string };

/** Only a task no worker has finished can be cancelled. */
export const isCancellable = (task: Pick<Task, 'status'>): boolean => task.status === 'queued' || task.status === 'running';

export async function cancelTask(agentId: string, taskId: string): Promise<Cancelled> {
  try {
    const { data, error, response } = await api.PATCH('/api/v1/agents/{agent_id}/tasks/{task_id}', {
      params: { path: { agent_id: agentId, task_id: taskId } },
      body: { status: 'cancelled' },
    });
    if (!response.ok || !data) return { ok: false, message: messageOf(error, 'The task could not be cancelled. Please try again.') };
    return { ok: true, task: data.data as Task };
  } catch (failure) {
    return { ok: false, message: messageOf(failure, 'The task could not be cancelled. Please try again.') };
  }
}
