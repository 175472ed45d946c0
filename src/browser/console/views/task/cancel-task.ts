// Cancelling tasks: one from its page, or several chosen in the agent's table, each through the
// task's own PATCH. A batch operation would be one request; until the API has one, the table sends
// a few at a time and tells each task's outcome, since some may be refused (finished meanwhile).
import { api, messageOf } from '../../../api';
import type { Task, TaskRow } from '../agent/task-list';

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

/** What became of one chosen task. */
export interface CancelOutcome {
  task: TaskRow;
  /** `cancelled` by the service, `refused` by it (its message), or `skipped`: not sent, since its status cannot be cancelled. */
  result: 'cancelled' | 'refused' | 'skipped';
  message: string;
  /** The task as the service answered, when cancelled. */
  changed?: Task;
}

/** Requests in flight at once: enough to be quick, few enough to leave the person's rate budget for the rest. */
const AT_ONCE = 4;

/** Cancels each queued or running task of `tasks`, AT_ONCE at a time; the outcomes in the order given. */
export async function cancelTasks(tasks: readonly TaskRow[]): Promise<CancelOutcome[]> {
  const outcomes: CancelOutcome[] = tasks.map((task) => ({ task, result: 'skipped', message: `not sent: it is ${task.status}, and only queued or running tasks can be cancelled` }));
  const toSend = tasks.flatMap((task, index) => (isCancellable(task) ? [index] : []));
  let next = 0;
  const lane = async () => {
    while (next < toSend.length) {
      const index = toSend[next++] as number;
      const task = tasks[index] as TaskRow;
      const answer = await cancelTask(task.agent_id, task.id);
      outcomes[index] = answer.ok ? { task, result: 'cancelled', message: `${task.status} → cancelled`, changed: answer.task } : { task, result: 'refused', message: answer.message };
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, toSend.length) }, lane));
  return outcomes;
}
