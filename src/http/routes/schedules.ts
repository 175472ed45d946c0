import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import * as schedules from '../../domain/schedules';
import { principalOf } from '../authenticate';
import { cursorMeta, toListQuery } from '../collection-params';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** A schedule changes behind every read (each firing moves `next_run_at`): revalidate each. */
const READ_CACHING = { 'Cache-Control': 'private, no-cache' };

/** An agent's schedules: its owner, an admin or a service key manage them; its agent keys with `tasks:read` read them. */
export function scheduleHandlers(
  store: Store,
  limits: ServiceLimits,
  pathTo: PathTo,
): Pick<OperationHandlers, 'listSchedules' | 'createSchedule' | 'getSchedule' | 'updateSchedule' | 'deleteSchedule'> {
  const listSchedules: Handler<'listSchedules'> = async (req, res) => {
    const page = await schedules.listSchedules(store, principalOf(req), req.params.agent_id, toListQuery(req.query, 'cursor', 'created_at'));
    res.set(READ_CACHING).json({ data: page.items, meta: cursorMeta(page) });
  };
  const createSchedule: Handler<'createSchedule'> = async (req, res) => {
    const schedule = await schedules.createSchedule(store, principalOf(req), req.params.agent_id, req.body, limits.quotas);
    res.status(201).location(pathTo('getSchedule', { agent_id: schedule.agent_id, schedule_id: schedule.id })).json(envelope(schedule));
  };
  const getSchedule: Handler<'getSchedule'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await schedules.getSchedule(store, principalOf(req), req.params.agent_id, req.params.schedule_id)));
  };
  const updateSchedule: Handler<'updateSchedule'> = async (req, res) => {
    res.set(READ_CACHING).json(envelope(await schedules.updateSchedule(store, principalOf(req), req.params.agent_id, req.params.schedule_id, req.body)));
  };
  const deleteSchedule: Handler<'deleteSchedule'> = async (req, res) => {
    await schedules.deleteSchedule(store, principalOf(req), req.params.agent_id, req.params.schedule_id);
    res.status(204).end();
  };
  return { listSchedules, createSchedule, getSchedule, updateSchedule, deleteSchedule };
}
