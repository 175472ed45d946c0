import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Task, TaskStatus, TaskSummary } from '../model';
import { newestPerGroup, runListQuery, type ColumnAllowList } from './collection-query';
import { compileQuery, type CompiledQuery, type Executor } from './compiled-query';
import { isId } from './ids';
import type { UsageDelta } from './records';
import { toIsoTimestamp, toJsonColumn, type RowMapper } from './row-mapper';
import { usageColumns } from './usage-repository';

/**
 * Upper bounds of what a task adds as JSON beyond its stored bytes: keys, ids, timestamps,
 * status, priority, attempts, usage, `null`s and punctuation (at most about 650 bytes of them for
 * a task), and its progress, which is not counted as stored: a message of 500 characters is at
 * most 3,000 bytes as JSON (control characters escaped as `\u0000`). Its `last_error` is stored.
 */
export const TASK_FIXED_BYTES = 4096;

/** Usage is never set: it only grows, by addUsage. */
export type TaskChanges = Partial<Omit<Task, 'id' | 'agent_id' | 'created_at' | 'usage'>>;

export interface TasksRepository {
  /** `storedBytes`: what the task stores as JSON (see domain/quotas.ts). */
  insert(task: Task, storedBytes: number): Promise<Task>;
  find(agentId: string, id: string, options?: { lock?: boolean }): Promise<Task | undefined>;
  list(agentId: string, query: ListQuery): Promise<ListResult<Task>>;
  /** The newest `perAgent` tasks of each agent as summaries, for embedding; input and result are never read. */
  summariesOf(agentIds: string[], perAgent: number): Promise<Map<string, TaskSummary[]>>;
  /** How many tasks each agent has per status, in one grouped query; a status without tasks is absent. */
  countByStatus(agentIds: string[]): Promise<Map<string, Partial<Record<TaskStatus, number>>>>;
  /** Compare-and-swap: applies only while the task still has `expectedStatus`; `bytesDelta` moves its stored bytes. */
  update(id: string, expectedStatus: TaskStatus, changes: TaskChanges, bytesDelta: number): Promise<Task | undefined>;
  /**
   * The task a claim takes: the highest priority, then the oldest, of the agent's queued tasks
   * available at `at`. Locked; on PostgreSQL a task another transaction holds is passed over.
   */
  nextClaimable(agentId: string, at: string): Promise<Task | undefined>;
  /** Makes the agent's deferred tasks whose `available_at` has come claimable; answers how many. */
  releaseDue(agentId: string, at: string): Promise<number>;
  /** Adds to the task's usage sums; answers the task as it is after. */
  addUsage(id: string, usage: UsageDelta): Promise<Task | undefined>;
  countRunning(agentId: string): Promise<number>;
  /** The agent's deferred tasks that cannot be claimed before a later `available_at`. */
  countWaiting(agentId: string, at: string): Promise<number>;
  countOf(agentId: string): Promise<number>;
  /** When the agent's next queued task that is not yet claimable at `at` becomes claimable; undefined when none waits. */
  nextAvailableAt(agentId: string, at: string): Promise<string | undefined>;
  /** Unfinished tasks (of any agent) whose deadline is at or before `at`, the earliest first. */
  listPastDeadline(at: string, limit: number): Promise<Array<Pick<Task, 'id' | 'agent_id'>>>;
  /** Which of `ids` name tasks of the agent. */
  existingIds(agentId: string, ids: string[]): Promise<Set<string>>;
  /** The ids of the agent's tasks in `status`, oldest first, at most `limit`. */
  idsInStatus(agentId: string, status: TaskStatus, limit: number): Promise<string[]>;
  /** The bytes the deleted task stored, or undefined when there was no such task. */
  remove(agentId: string, id: string): Promise<number | undefined>;
}

const LISTABLE: ColumnAllowList = {
  title: 'text',
  status: 'text',
  priority: 'integer',
  created_at: 'time',
  updated_at: 'time',
  started_at: 'time',
  finished_at: 'time',
  attempts: 'integer',
  max_attempts: 'integer',
  available_at: 'time',
};

const SUMMARY_COLUMNS = ['id', 'agent_id', 'title', 'status', 'priority', 'created_at', 'updated_at', 'started_at', 'finished_at'];

/**
 * A task queued to become claimable after the write that queues it is deferred: it stays out of
 * the claim's index until a claim of its agent releases it (see `releaseDue`).
 */
const isDeferred = (availableAt: string, writtenAt: string): boolean => availableAt > writtenAt;

const toColumns = (changes: TaskChanges): Record<string, unknown> => {
  const columns: Record<string, unknown> = { ...changes };
  if (changes.available_at !== undefined) columns.deferred = isDeferred(changes.available_at, changes.updated_at ?? new Date().toISOString());
  if ('input' in changes) columns.input = toJsonColumn(changes.input);
  if ('result' in changes) columns.result = toJsonColumn(changes.result);
  if ('progress' in changes) columns.progress = toJsonColumn(changes.progress);
  return columns;
};

/** The columns a Task is read from: its fields (the compiler checks the list against Task), its usage in three. */
const FIELD_COLUMNS = Object.keys({
  id: true,
  agent_id: true,
  title: true,
  description: true,
  input: true,
  priority: true,
  status: true,
  result: true,
  error: true,
  created_at: true,
  updated_at: true,
  started_at: true,
  finished_at: true,
  attempts: true,
  max_attempts: true,
  available_at: true,
  progress: true,
  lease_id: true,
  last_error: true,
  run_at: true,
  timeout_seconds: true,
  deadline_at: true,
  schedule_id: true,
} satisfies Record<Exclude<keyof Task, 'usage'>, true>) as Array<Exclude<keyof Task, 'usage'>>;
const COLUMNS = [...FIELD_COLUMNS, 'input_tokens', 'output_tokens', 'cost_micro_usd'];

/** A task is inserted with what it stores too; its usage starts at the columns' zeros. */
const INSERTED_COLUMNS = [...FIELD_COLUMNS, 'stored_bytes', 'deferred'] as const;

type FindQuery = CompiledQuery<'id' | 'agentId', Record<string, unknown> | undefined>;

/** The queries of reading one task and creating one, compiled once per store. */
export interface TasksQueries {
  /** By lock (the same query where the database cannot lock rows). */
  find: Record<'plain' | 'locked', FindQuery>;
  insert: CompiledQuery<(typeof INSERTED_COLUMNS)[number], unknown>;
}

export function compileTasksQueries(db: Knex, canLock: boolean): TasksQueries {
  const find = (lock: boolean): FindQuery =>
    compileQuery(db, (parameters) => {
      const query = db('tasks').select(COLUMNS).where({ id: parameters.value('id'), agent_id: parameters.value('agentId') }).first();
      if (lock) query.forUpdate();
      return query;
    });
  const plain = find(false);
  return {
    find: { plain, locked: canLock ? find(true) : plain },
    insert: compileQuery(db, (parameters) =>
      db('tasks').insert(Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, parameters.value(column)]))),
    ),
  };
}

export function createTasksRepository(db: Executor, mapper: RowMapper, postgres: boolean, queries: TasksQueries): TasksRepository {
  return {
    async insert(task, storedBytes) {
      const { usage: _usage, ...fields } = task;
      await queries.insert.run(db, { ...fields, input: toJsonColumn(task.input), result: toJsonColumn(task.result), progress: toJsonColumn(task.progress), stored_bytes: storedBytes, deferred: isDeferred(task.available_at, task.created_at) });
      return task;
    },
    async find(agentId, id, options = {}) {
      if (!isId(id) || !isId(agentId)) return undefined;
      const row = await queries.find[options.lock ? 'locked' : 'plain'].run(db, { id, agentId });
      return row ? mapper.toTask(row) : undefined;
    },
    async list(agentId, query) {
      const result = await runListQuery(db('tasks').where({ agent_id: agentId }), query, LISTABLE, { column: 'stored_bytes', fixedBytes: TASK_FIXED_BYTES });
      return { ...result, items: result.items.map(mapper.toTask) };
    },
    async summariesOf(agentIds, perAgent) {
      const rows = await newestPerGroup(db, 'tasks', 'agent_id', agentIds, perAgent, SUMMARY_COLUMNS);
      return new Map([...rows].map(([id, group]) => [id, group.map(mapper.toTaskSummary)]));
    },
    async countByStatus(agentIds) {
      const counts = new Map<string, Partial<Record<TaskStatus, number>>>(agentIds.map((id) => [id, {}]));
      if (agentIds.length === 0) return counts;
      // Kept by triggers on `tasks` (migration 012): a look-up, however many tasks an agent has.
      const rows: Array<{ agent_id: string; status: TaskStatus; n: number | string }> = await db('agent_task_counts')
        .select('agent_id', 'status', 'n')
        .whereIn('agent_id', agentIds)
        .andWhere('n', '<>', 0);
      // PostgreSQL answers a bigint as a string.
      for (const row of rows) {
        const byStatus = counts.get(String(row.agent_id));
        if (byStatus) byStatus[row.status] = Number(row.n);
      }
      return counts;
    },
    async update(id, expectedStatus, changes, bytesDelta) {
      const columns = toColumns(changes);
      if (bytesDelta !== 0) columns.stored_bytes = db.raw('stored_bytes + ?', [bytesDelta]);
      const [row] = await db('tasks').where({ id, status: expectedStatus }).update(columns).returning('*');
      return row ? mapper.toTask(row) : undefined;
    },
    async nextClaimable(agentId, at) {
      const query = db('tasks')
        .select(COLUMNS)
        .where({ agent_id: agentId, status: 'queued', deferred: false })
        .andWhere('available_at', '<=', at)
        .orderBy([{ column: 'priority', order: 'desc' }, { column: 'id', order: 'asc' }])
        .first();
      // SQLite's transactions hold the database's write lock from their first statement: nothing to skip.
      if (postgres) query.forUpdate().skipLocked();
      const row = await query;
      return row ? mapper.toTask(row) : undefined;
    },
    async releaseDue(agentId, at) {
      // The predicate written into the text, as the partial index of deferred tasks names it.
      return db('tasks').where({ agent_id: agentId }).whereRaw("status = 'queued' and deferred").andWhere('available_at', '<=', at).update({ deferred: false });
    },
    async addUsage(id, usage) {
      const [row] = await db('tasks').where({ id }).update(usageColumns(db, usage, false)).returning('*');
      return row ? mapper.toTask(row) : undefined;
    },
    async countRunning(agentId) {
      const row = await db('agent_task_counts').where({ agent_id: agentId, status: 'running' }).first('n');
      return Number(row?.n ?? 0);
    },
    async countWaiting(agentId, at) {
      // The predicate written into the text, not bound: only then can the planner use the partial index of deferred tasks.
      const row = await db('tasks').where({ agent_id: agentId }).whereRaw("status = 'queued' and deferred").andWhere('available_at', '>', at).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async countOf(agentId) {
      const row = await db('agent_task_counts').where({ agent_id: agentId }).sum({ n: 'n' }).first();
      return Number(row?.n ?? 0);
    },
    async nextAvailableAt(agentId, at) {
      const row = await db('tasks').where({ agent_id: agentId }).whereRaw("status = 'queued' and deferred").andWhere('available_at', '>', at).min({ next: 'available_at' }).first();
      return row?.next === null || row?.next === undefined ? undefined : toIsoTimestamp(row.next);
    },
    async listPastDeadline(at, limit) {
      // The statuses written into the text, as the partial index of deadlines names them.
      const rows = await db('tasks').select('id', 'agent_id').whereRaw("status in ('queued', 'running')").andWhere('deadline_at', '<=', at).orderBy('deadline_at').limit(limit);
      return rows.map((row: Record<string, unknown>) => ({ id: String(row.id), agent_id: String(row.agent_id) }));
    },
    async existingIds(agentId, ids) {
      const found = new Set<string>();
      const valid = ids.filter(isId);
      for (let start = 0; start < valid.length; start += 500) {
        const rows = await db('tasks').select('id').where({ agent_id: agentId }).whereIn('id', valid.slice(start, start + 500));
        for (const row of rows) found.add(String(row.id));
      }
      return found;
    },
    async idsInStatus(agentId, status, limit) {
      const rows = await db('tasks').select('id').where({ agent_id: agentId, status }).orderBy('id').limit(limit);
      return rows.map((row: Record<string, unknown>) => String(row.id));
    },
    async remove(agentId, id) {
      if (!isId(id) || !isId(agentId)) return undefined;
      // Read, then delete: knex's SQLite dialect has no DELETE ... RETURNING. The caller holds the row lock.
      const row = await db('tasks').where({ id, agent_id: agentId }).first('stored_bytes');
      if (!row || (await db('tasks').where({ id, agent_id: agentId }).delete()) === 0) return undefined;
      return Number(row.stored_bytes);
    },
  };
}
