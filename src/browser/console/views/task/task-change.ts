// One change of a task sent from the console (cancel, retry): what the service answered, or its
// refusal (or the failure to reach it) in words to show.
import { messageOf } from '../../../api';
import type { Task } from '../agent/task-list';

export type TaskChange = { ok: true; task: Task } | { ok: false; message: string };

type Answer = { data?: { data: unknown }; error?: unknown; response: Response };

export async function sendTaskChange(send: () => Promise<Answer>, failed: string): Promise<TaskChange> {
  try {
    const { data, error, response } = await send();
    if (!response.ok || !data) return { ok: false, message: messageOf(error, failed) };
    return { ok: true, task: data.data as Task };
  } catch (failure) {
    return { ok: false, message: messageOf(failure, failed) };
  }
}
