// Running a failed or cancelled task again, from its page (`POST .../attempts`): it is queued as a
// new attempt, its history kept. Several chosen in the agent's table go in one batch request.
import { api } from '../../../api';
import type { Task } from '../agent/task-list';
import { sendTaskChange, type TaskChange } from './task-change';

/** Only a task that ended without succeeding can be run again. */
export const isRetryable = (task: Pick<Task, 'status'>): boolean => task.status === 'failed' || task.status === 'cancelled';

export function retryTask(agentId: string, taskId: string): Promise<TaskChange> {
  return sendTaskChange(
    () => api.POST('/api/v1/agents/{agent_id}/tasks/{task_id}/attempts', { params: { path: { agent_id: agentId, task_id: taskId } } }),
    'The task could not be retried. Please try again.',
  );
}
