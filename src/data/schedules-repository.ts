import type { Knex } from 'knex';
import type { ListQuery, ListResult } from './list-query';
import type { Schedule } from '../model';
import { compileIdPages, scopedBy, runListQuery, type IdPages } from './collection-query';
import type { Executor } from './compiled-query';
import { isId } from './ids';
import { toIsoTimestamp, toJsonColumn, type RowMapper } from './row-mapper';

/** The columns of a Schedule, which it is inserted with and read from: the compiler checks the list against Schedule. */
const COLUMNS = Object.keys({
  id: true,
  agent_id: true,
  name: true,
  cron: true,
  timezone: true,
  interval_seconds: true,
  template: true,
  paused: true,
  overlap: true,
  next_run_at: true,
  last_run_at: true,
  last_task_id: true,
  last_error: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof Schedule, true>);

/** What a change of a schedule (a request's, or a firing's) may write. */
export type ScheduleChanges = Partial<Omit<Schedule, 'id' | 'agent_id' | 'created_at'>> & { updated_at: string };

/** A schedule due to fire, as the poll lists it: enough to find it again under its agent's lock. */
export interface DueSchedule {
  id: string;
  agent_id: string;
  next_run_at: string;
}

export interface SchedulesRepository {
  insert(schedule: Schedule): Promise<void>;
  /** One schedule of one agent (another agent's reads as missing). */
  find(agentId: string, scheduleId: string): Promise<Schedule | undefined>;
  /** The agent's schedules, oldest first by default (cursor pages). */
  list(agentId: string, query: ListQuery): Promise<ListResult<Schedule>>;
  countOf(agentId: string): Promise<number>;
  /**
   * Writes `changes`; with `expectedNextRunAt`, only while the schedule's `next_run_at` is still
   * that (a compare-and-swap). False when nothing was written.
   */
  update(scheduleId: string, changes: ScheduleChanges, expectedNextRunAt?: string): Promise<boolean>;
  /** False when the agent had no such schedule. */
  remove(agentId: string, scheduleId: string): Promise<boolean>;
  /** Unpaused schedules whose `next_run_at` is at or before `at`, the most overdue first, at most `limit`. */
  listDue(at: string, limit: number): Promise<DueSchedule[]>;
}

export interface SchedulesQueries {
  pages: IdPages;
}

export function compileSchedulesQueries(db: Knex): SchedulesQueries {
  return { pages: compileIdPages(db, 'schedules', COLUMNS, scopedBy('agent_id')) };
}

const toColumns = (changes: ScheduleChanges): Record<string, unknown> => ('template' in changes ? { ...changes, template: toJsonColumn(changes.template) } : { ...changes });

export function createSchedulesRepository(db: Executor, mapper: RowMapper, queries: SchedulesQueries): SchedulesRepository {
  return {
    async insert(schedule) {
      await db('schedules').insert({ ...schedule, template: toJsonColumn(schedule.template) });
    },
    async find(agentId, scheduleId) {
      if (!isId(agentId) || !isId(scheduleId)) return undefined;
      const row = await db('schedules').select(COLUMNS).where({ id: scheduleId, agent_id: agentId }).first();
      return row ? mapper.toSchedule(row) : undefined;
    },
    async list(agentId, query) {
      const result = (await queries.pages.run(db, query, agentId)) ?? (await runListQuery(db('schedules').select(COLUMNS).where({ agent_id: agentId }), query, { created_at: 'time' }));
      return { ...result, items: result.items.map(mapper.toSchedule) };
    },
    async countOf(agentId) {
      const row = await db('schedules').where({ agent_id: agentId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async update(scheduleId, changes, expectedNextRunAt) {
      const query = db('schedules').where({ id: scheduleId });
      if (expectedNextRunAt !== undefined) query.andWhere({ next_run_at: expectedNextRunAt });
      return Number(await query.update(toColumns(changes))) > 0;
    },
    async remove(agentId, scheduleId) {
      if (!isId(agentId) || !isId(scheduleId)) return false;
      return (await db('schedules').where({ id: scheduleId, agent_id: agentId }).delete()) > 0;
    },
    async listDue(at, limit) {
      const rows: Array<Record<string, unknown>> = await db('schedules')
        .select('id', 'agent_id', 'next_run_at')
        .whereNotNull('next_run_at')
        .andWhere('next_run_at', '<=', at)
        .andWhere('paused', false)
        .orderBy([{ column: 'next_run_at' }, { column: 'id' }])
        .limit(limit);
      return rows.map((row) => ({ id: String(row.id), agent_id: String(row.agent_id), next_run_at: toIsoTimestamp(row.next_run_at) }));
    },
  };
}
