import type { Executor } from './compiled-query';
import type { LogLineRecord } from './records';
import type { RowMapper } from './row-mapper';

/** One lease's lines as they are written: each line's `data` already JSON text, its time set. */
export interface LogBatch {
  agent_id: string;
  task_id: string;
  lease_id: string;
  attempt: number;
  lines: Array<{ level: LogLineRecord['level']; message: string; data: string | null; at: string }>;
}

export interface LogQuery {
  /** Only lines after this id. */
  after: string;
  attempt?: number;
  /** Only lines at these levels. */
  levels?: readonly LogLineRecord['level'][];
  limit: number;
}

export interface TaskLogsRepository {
  /** Appends a batch to its task's log (the caller holds the task's lock), then trims the log to its newest `keep` lines. */
  append(batch: LogBatch, keep: number): Promise<void>;
  list(taskId: string, query: LogQuery): Promise<LogLineRecord[]>;
}

const COLUMNS = ['id', 'agent_id', 'task_id', 'lease_id', 'attempt', 'level', 'message', 'data', 'at'];

export function createTaskLogsRepository(db: Executor, mapper: RowMapper, postgres: boolean): TaskLogsRepository {
  // The batch is one statement whatever its size: its lines travel as one JSON parameter, taken
  // apart by the database in their order (ids follow it).
  const insert = postgres
    ? `insert into task_logs (agent_id, task_id, lease_id, attempt, level, message, data, at)
       select ?, ?, ?, ?, l.level, l.message, l.data, l.at
       from rows from (jsonb_to_recordset(?::jsonb) as (level text, message text, data text, at timestamptz)) with ordinality as l(level, message, data, at, n)
       order by l.n`
    : `insert into task_logs (agent_id, task_id, lease_id, attempt, level, message, data, at)
       select ?, ?, ?, ?, value ->> '$.level', value ->> '$.message', value ->> '$.data', value ->> '$.at'
       from json_each(?) order by key`;
  return {
    async append(batch, keep) {
      await db.raw(insert, [batch.agent_id, batch.task_id, batch.lease_id, batch.attempt, JSON.stringify(batch.lines)]);
      const [counted] = (await db('tasks').where({ id: batch.task_id }).increment('log_lines', batch.lines.length).returning('log_lines')) as Array<{ log_lines: unknown }>;
      const excess = Number(counted?.log_lines ?? 0) - keep;
      if (excess <= 0) return;
      // The oldest lines, from the start of the task's index: as many entries read as lines go.
      await db('task_logs')
        .whereIn('id', db('task_logs').select('id').where({ task_id: batch.task_id }).orderBy('id').limit(excess))
        .delete();
      await db('tasks').where({ id: batch.task_id }).update({ log_lines: keep });
    },
    async list(taskId, query) {
      const select = db('task_logs').select(COLUMNS).where({ task_id: taskId }).andWhere('id', '>', query.after).orderBy('id').limit(query.limit);
      if (query.attempt !== undefined) select.andWhere({ attempt: query.attempt });
      if (query.levels !== undefined) select.whereIn('level', query.levels);
      return (await select).map(mapper.toLogLine);
    },
  };
}
