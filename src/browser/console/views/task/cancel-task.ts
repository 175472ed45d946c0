// Cancelling one task from its page, through the task's own PATCH. Several chosen in the agent's
// table go in one batch request (../agent/task-batch.ts).
import { api } from '../../../api';
import type { Task } from '../agent/task-list';
import { sendTaskChange, type TaskChange } from './task-change';

/** Only a task no worker has finished can be cancelled. */
export const isCancellable = (task: Pick<Task, 'status'>): boolean => task.status === 'queued' || task.status === 'running';

export function cancelTask(agentId: string, taskId: string): Promise<TaskChange> {
  return sendTaskChange(
    () => api.PATCH('/api/v1/agents/{agent_id}/tasks/{task_id}', { params: { path: { agent_id: agentId, task_id: taskId } }, body: { status: 'cancelled' } }),
    'The task could not be cancelled. Please try again.',
  );
}
