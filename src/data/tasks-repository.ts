import type { Knex } from 'knex';
import type { ListQuery, ListResult } from '../domain/collection';
import type { Task, TaskStatus } from '../domain/model';
import { newestPerGroup, runListQuery, type ColumnAllowList } from './collection-query';
import { isId } from './ids';
import { toJsonColumn, type RowMapper } from './row-mapper';

export type TaskChanges = Partial<Omit<Task, 'id' | 'agent_id' | 'created_at'>>;

export interface TasksRepository {
  insert(task: Task): Promise<Task>;
  find(agentId: string, id: string, options?: { lock?: boolean }): Promise<Task | undefined>;
  list(agentId: string, query: ListQuery): Promise<ListResult<Task>>;
  /** The newest `perAgent` tasks of each agent, for embedding. */
  newestOf(agentIds: string[], perAgent: number): Promise<Map<string, Task[]>>;
  /** Compare-and-swap: applies only while the task still has `expectedStatus`. */
  update(id: string, expectedStatus: TaskStatus, changes: TaskChanges): Promise<Task | undefined>;
  countRunning(agentId: string): Promise<number>;
  remove(agentId: string, id: string): Promise<boolean>;
}

const LISTABLE: ColumnAllowList = {
  title: 'text',
  status: 'text',
  priority: 'integer',
  created_at: 'time',
  updated_at: 'time',
  started_at: 'time',
  finished_at: 'time',
};

const toColumns = (changes: TaskChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = { ...changes };
  if ('input' in changes) columns.input = toJsonColumn(changes.input);
  if ('result' in changes) columns.result = toJsonColumn(changes.result);
  return columns;
};

export function createTasksRepository(db: Knex | Knex.Transaction, mapper: RowMapper, canLock: boolean): TasksRepository {
  return {
    async insert(task) {
      await db('tasks').insert({ ...task, input: toJsonColumn(task.input), result: toJsonColumn(task.result) });
      return task;
    },
    async find(agentId, id, options = {}) {
      if (!isId(id) || !isId(agentId)) return undefined;
      const query = db('tasks').where({ id, agent_id: agentId }).first();
      if (options.lock && canLock) query.forUpdate();
      const row = await query;
      return row ? mapper.toTask(row) : undefined;
    },
    async list(agentId, query) {
      const result = await runListQuery(db('tasks').where({ agent_id: agentId }), query, LISTABLE);
      return { ...result, items: result.items.map(mapper.toTask) };
    },
    async newestOf(agentIds, perAgent) {
      const rows = await newestPerGroup(db, 'tasks', 'agent_id', agentIds, perAgent);
      return new Map([...rows].map(([id, group]) => [id, group.map(mapper.toTask)]));
    },
    async update(id, expectedStatus, changes) {
      const [row] = await db('tasks').where({ id, status: expectedStatus }).update(toColumns(changes)).returning('*');
      return row ? mapper.toTask(row) : undefined;
    },
    async countRunning(agentId) {
      const row = await db('tasks').where({ agent_id: agentId, status: 'running' }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async remove(agentId, id) {
      if (!isId(id) || !isId(agentId)) return false;
      return (await db('tasks').where({ id, agent_id: agentId }).delete()) > 0;
    },
  };
}
