// The agent's tasks as the view holds them: pages read newest first, then kept current by events
// (which patch the list at once) until the next read reconciles it.
import type { components, FleetEvent } from '@agent-fleet/client';
import { api } from '../../../api';
import { changesOf } from '../../live';

export type Task = components['schemas']['TaskResource'];
export type TaskStatus = components['schemas']['TaskStatus'];
export type TaskFilter = TaskStatus | 'all';

export interface TaskList {
  /** The filter the tasks were read with. */
  filter: TaskFilter;
  tasks: Task[];
  /** Where the next page starts; null when every task is shown. */
  nextCursor: string | null;
}

export const TASK_FILTERS: readonly TaskFilter[] = ['all', 'queued', 'running', 'succeeded', 'failed', 'cancelled'];
/** Tasks a page shows before "Load more". */
export const TASK_PAGE = 50;
/** The most tasks one read brings back (a reconcile re-reads what "Load more" added, up to this). */
const MAX_REREAD = 500;

const matches = (filter: TaskFilter, task: Pick<Task, 'status'>) => filter === 'all' || task.status === filter;

/** One page of the agent's tasks (`limit` at most 100, as the API caps it). */
export async function readTaskPage(agentId: string, filter: TaskFilter, limit: number, cursor?: string | null): Promise<TaskList> {
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}/tasks', {
    params: {
      path: { agent_id: agentId },
      query: { limit: Math.min(100, limit), sort: '-created_at', ...(filter === 'all' ? {} : { status: filter }), ...(cursor ? { cursor } : {}) },
    },
  });
  if (!response.ok || !data) throw error ?? new Error(`The tasks could not be read (${response.status}).`);
  return { filter, tasks: data.data as Task[], nextCursor: data.meta.hasMore ? data.meta.nextCursor : null };
}

/** The newest `count` tasks (at least a page): a reconcile keeps what "Load more" brought in. */
export async function readTasks(agentId: string, filter: TaskFilter, count: number): Promise<TaskList> {
  const want = Math.min(MAX_REREAD, Math.max(TASK_PAGE, count));
  const list: TaskList = { filter, tasks: [], nextCursor: null };
  let cursor: string | null = null;
  do {
    const page: TaskList = await readTaskPage(agentId, filter, want - list.tasks.length, cursor);
    list.tasks.push(...page.tasks);
    list.nextCursor = page.nextCursor;
    cursor = page.nextCursor;
  } while (cursor !== null && list.tasks.length < want);
  return list;
}

/** Adds tasks the list does not hold yet (a created task arrives in the answer and as an event). */
export function insertTasks(list: TaskList, tasks: readonly Task[], where: 'start' | 'end'): TaskList {
  const known = new Set(list.tasks.map((task) => task.id));
  const added = tasks.filter((task) => !known.has(task.id) && matches(list.filter, task));
  if (added.length === 0) return list;
  return { ...list, tasks: where === 'start' ? [...added, ...list.tasks] : [...list.tasks, ...added] };
}

/** Changes fields of one task; a task whose new status the filter hides leaves the list. */
export function patchTask(list: TaskList, taskId: string, fields: Partial<Task>): TaskList {
  if (!list.tasks.some((task) => task.id === taskId)) return list;
  const tasks = list.tasks.flatMap((task) => {
    if (task.id !== taskId) return [task];
    const patched = { ...task, ...fields, id: task.id, agent_id: task.agent_id };
    return matches(list.filter, patched) ? [patched] : [];
  });
  return { ...list, tasks };
}

/** The list after one event of the agent's tasks (events of other agents change nothing). */
export function applyTaskEvent(list: TaskList, agentId: string, event: FleetEvent): TaskList {
  if (event.agent_id !== agentId || !event.type.startsWith('task.') || !event.task_id) return list;
  const taskId = event.task_id;
  if (event.type === 'task.created') return insertTasks(list, [event.data as unknown as Task], 'start');
  if (event.type === 'task.deleted') return { ...list, tasks: list.tasks.filter((task) => task.id !== taskId) };
  return patchTask(list, taskId, changesOf<Task>(event));
}
