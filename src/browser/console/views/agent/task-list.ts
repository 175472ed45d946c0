// The agent's tasks as the table holds them: one page read with the person's status filter, sort
// and title search (all done by the service, so that they hold across an agent's every task, not
// only the ones loaded), then kept current by events until the next read reconciles it.
import type { components, FleetEvent } from '@agent-fleet/client';
import { AgentFleetError } from '@agent-fleet/client';
import { api } from '../../../api';
import { changesOf } from '../../live';

export type Task = components['schemas']['TaskResource'];
export type TaskStatus = components['schemas']['TaskStatus'];
export type TaskFilter = TaskStatus | 'all';
/** A row of the table: the task's fields the table shows (`fields=`, so that a page of large inputs stays small). */
export type TaskRow = Pick<Task, 'id' | 'agent_id' | 'title' | 'status' | 'priority' | 'attempts' | 'max_attempts' | 'created_at' | 'updated_at' | 'last_error'>;

export const ROW_FIELDS = ['agent_id', 'title', 'status', 'priority', 'attempts', 'max_attempts', 'created_at', 'updated_at', 'last_error'] as const;
export const TASK_FILTERS: readonly TaskFilter[] = ['all', 'queued', 'running', 'succeeded', 'failed', 'cancelled'];
/** Rows a page shows. */
export const TASK_PAGE = 50;

/** The columns a person may sort by, as the API names them. */
export type SortField = 'title' | 'status' | 'priority' | 'attempts' | 'created_at' | 'updated_at';
export interface Sort {
  field: SortField;
  descending: boolean;
}
export const NEWEST_FIRST: Sort = { field: 'created_at', descending: true };
export const isNewestFirst = (sort: Sort): boolean => sort.field === 'created_at' && sort.descending;
/** Which way a column sorts at its first click: numbers and times largest first, words from A. */
export const FIRST_DESCENDING: Record<SortField, boolean> = { title: false, status: false, priority: true, attempts: true, created_at: true, updated_at: true };

export interface TaskQuery {
  status: TaskFilter;
  sort: Sort;
  /** Titles containing this text, whatever its case ('' for every title). */
  titleSearch: string;
}

export interface TaskPage {
  query: TaskQuery;
  tasks: TaskRow[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

const sortParam = (sort: Sort) => `${sort.descending ? '-' : ''}${sort.field}` as const;

/** One page of the agent's tasks under `query`, from `cursor` (the first page when null). */
export async function readTaskPage(agentId: string, query: TaskQuery, cursor: string | null): Promise<TaskPage> {
  const titleSearch = query.titleSearch;
  const { data, error, response } = await api.GET('/api/v1/agents/{agent_id}/tasks', {
    params: {
      path: { agent_id: agentId },
      query: {
        limit: TASK_PAGE,
        sort: sortParam(query.sort),
        fields: [...ROW_FIELDS],
        ...(query.status === 'all' ? {} : { status: query.status }),
        ...(titleSearch === '' ? {} : { 'filter[title]': { contains: titleSearch } }),
        ...(cursor ? { cursor } : {}),
      },
    },
  });
  if (!response.ok || !data) throw new AgentFleetError(response, error);
  return { query, tasks: data.data as TaskRow[], nextCursor: data.meta.hasMore ? data.meta.nextCursor : null };
}

/** Whether a task belongs under the query's status filter and title search. */
export function matchesQuery(query: TaskQuery, task: Pick<TaskRow, 'status' | 'title'>): boolean {
  return (query.status === 'all' || task.status === query.status) && (query.titleSearch === '' || task.title.toLowerCase().includes(query.titleSearch.toLowerCase()));
}

/** Changes fields of one row; a task whose new status the filter hides leaves the page. */
export function patchRow(page: TaskPage, taskId: string, fields: Partial<TaskRow>): TaskPage {
  if (!page.tasks.some((task) => task.id === taskId)) return page;
  const tasks = page.tasks.flatMap((task) => {
    if (task.id !== taskId) return [task];
    const patched = { ...task, ...fields, id: task.id, agent_id: task.agent_id };
    return matchesQuery(page.query, patched) ? [patched] : [];
  });
  return { ...page, tasks };
}

/**
 * The page after one event of the agent's tasks. A new task joins the top of the first page when
 * the table shows the newest first and it matches; elsewhere its place is the service's to say,
 * at the next read.
 */
export function applyTaskEvent(page: TaskPage, firstPage: boolean, agentId: string, event: FleetEvent): TaskPage {
  if (event.agent_id !== agentId || !event.type.startsWith('task.') || !event.task_id) return page;
  const taskId = event.task_id;
  if (event.type === 'task.created') {
    const task = event.data as unknown as TaskRow;
    if (!firstPage || !isNewestFirst(page.query.sort) || !matchesQuery(page.query, task) || page.tasks.some((row) => row.id === task.id)) return page;
    return { ...page, tasks: [task, ...page.tasks] };
  }
  if (event.type === 'task.deleted') return { ...page, tasks: page.tasks.filter((task) => task.id !== taskId) };
  return patchRow(page, taskId, changesOf<TaskRow>(event));
}
