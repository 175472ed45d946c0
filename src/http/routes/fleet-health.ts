import type { Request } from 'express';
import type { Store } from '../../data/store';
import * as health from '../../domain/fleet-health';
import { principalOf } from '../authenticate';
import { envelope } from '../envelope';
import { wantsEventStream } from '../event-stream';
import { followLogs, type LogStreamSettings } from '../log-stream';
import type { OperationHandlers } from '../operations';
import type { Handler } from '../typed-handler';

const MAX_PAGE = 100;
const PRIVATE = 'private, no-cache';

/** What each task went through (attempts, logs) and how the agent's fleet is doing (workers, stats, usage). */
export function fleetHealthHandlers(
  store: Store,
  logStreams: Omit<LogStreamSettings, 'draining'> & { draining: () => boolean },
  stillAuthenticated: (req: Pick<Request, 'get' | 'headers' | 'method'>) => Promise<boolean>,
): Pick<OperationHandlers, 'listTaskAttempts' | 'listTaskLogs' | 'listAgentWorkers' | 'getAgentStats' | 'getAgentUsage'> {
  const statsCache = health.createStatsCache();
  const listTaskAttempts: Handler<'listTaskAttempts'> = async (req, res) => {
    const { agent_id: agentId, task_id: taskId } = req.params;
    const page = await health.listAttempts(store, principalOf(req), agentId, taskId, req.query.cursor, Math.min(req.query.limit ?? 20, MAX_PAGE));
    res.set('Cache-Control', PRIVATE).json({ data: page.items, meta: { nextCursor: page.nextCursor, hasMore: page.hasMore } });
  };
  const listTaskLogs: Handler<'listTaskLogs'> = async (req, res) => {
    const { agent_id: agentId, task_id: taskId } = req.params;
    // `cursor` wins over the header an EventSource sends when it reconnects.
    const filter = { after: req.query.cursor ?? req.get('last-event-id'), attempt: req.query.attempt, level: req.query.level };
    if (wantsEventStream(req)) {
      const task = await health.findLoggedTask(store, principalOf(req), agentId, taskId);
      return followLogs(req, res, store, task, filter, logStreams, () => stillAuthenticated(req));
    }
    const page = await health.listLogs(store, principalOf(req), agentId, taskId, filter, req.query.limit ?? 100);
    res.set('Cache-Control', PRIVATE).json({ data: page.items, meta: { nextCursor: page.nextCursor, hasMore: page.hasMore } });
  };
  const listAgentWorkers: Handler<'listAgentWorkers'> = async (req, res) => {
    const page = await health.listWorkers(store, principalOf(req), req.params.agent_id, req.query.cursor, Math.min(req.query.limit ?? 20, MAX_PAGE));
    res.set('Cache-Control', PRIVATE).json({ data: page.items, meta: { nextCursor: page.nextCursor, hasMore: page.hasMore } });
  };
  const getAgentStats: Handler<'getAgentStats'> = async (req, res) => {
    res.set('Cache-Control', PRIVATE).json(envelope(await health.getAgentStats(store, statsCache, principalOf(req), req.params.agent_id, req.query.window ?? '1h')));
  };
  const getAgentUsage: Handler<'getAgentUsage'> = async (req, res) => {
    res.set('Cache-Control', PRIVATE).json(envelope(await health.getAgentUsage(store, principalOf(req), req.params.agent_id, req.query)));
  };
  return { listTaskAttempts, listTaskLogs, listAgentWorkers, getAgentStats, getAgentUsage };
}
