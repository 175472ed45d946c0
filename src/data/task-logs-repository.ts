import type { Executor } from './compiled-query';
import type { LogLineRecord } from './records';
import type { RowMapper } from './row-mapper';

export type NewLogLine = Omit<LogLineRecord, 'id'>;

export interface LogQuery {
  /** Only lines after this id. */
  after: string;
  attempt?: number;
  /** Only lines at these levels. */
  levels?: readonly LogLineRecord['level'][];
  limit: number;
}

export interface TaskLogsRepository {
  /** Appends lines to one task's log, then trims it to its newest `keep` lines. */
  append(taskId: string, lines: NewLogLine[], keep: number): Promise<void>;
  list(taskId: string, query: LogQuery): Promise<LogLineRecord[]>;
}

const COLUMNS = ['id', 'agent_id', 'task_id', 'lease_id', 'attempt', 'level', 'message', 'data', 'at'];

export function createTaskLogsRepository(db: Executor, mapper: RowMapper): TaskLogsRepository {
  return {
    async append(taskId, lines, keep) {
      await db('task_logs').insert(lines.map((line) => ({ ...line, data: line.data === undefined ? null : JSON.stringify(line.data) })));
      // The newest line past the bound (an index seek on the task's lines): it and every older one go.
      const oldestKept = await db('task_logs').where({ task_id: taskId }).orderBy('id', 'desc').offset(keep).first('id');
      if (oldestKept) await db('task_logs').where({ task_id: taskId }).andWhere('id', '<=', oldestKept.id).delete();
    },
    async list(taskId, query) {
      const select = db('task_logs').select(COLUMNS).where({ task_id: taskId }).andWhere('id', '>', query.after).orderBy('id').limit(query.limit);
      if (query.attempt !== undefined) select.andWhere({ attempt: query.attempt });
      if (query.levels !== undefined) select.whereIn('level', query.levels);
      return (await select).map(mapper.toLogLine);
    },
  };
}
