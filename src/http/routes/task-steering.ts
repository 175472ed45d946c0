import type { ServiceLimits } from '../../config/config';
import type { Store } from '../../data/store';
import { runTaskBatch } from '../../domain/task-batches';
import type { TaskWakeups } from '../../domain/task-wakeups';
import { retryTask } from '../../domain/tasks';
import { principalOf } from '../authenticate';
import { tagWrite } from '../caching';
import { envelope } from '../envelope';
import type { OperationHandlers } from '../operations';
import { apiCodeOf } from '../problems';
import type { Handler } from '../typed-handler';

/** Steering an agent's queue: run a finished task again, cancel or retry many at once. */
export function taskSteeringHandlers(store: Store, limits: ServiceLimits, wakeups?: TaskWakeups): Pick<OperationHandlers, 'retryTask' | 'createTaskBatch'> {
  const retry: Handler<'retryTask'> = async (req, res) => {
    const task = await retryTask(store, principalOf(req), req.params.agent_id, req.params.task_id, limits.quotas, wakeups);
    tagWrite(res, task).set('Cache-Control', 'no-store').status(202).json(envelope(task));
  };
  const batch: Handler<'createTaskBatch'> = async (req, res) => {
    const outcome = await runTaskBatch(store, principalOf(req), req.params.agent_id, req.body, limits.quotas, wakeups);
    const results = outcome.entries.map(({ task_id, status, refusal }) => ({
      task_id,
      status,
      outcome: refusal === null ? ('changed' as const) : ('refused' as const),
      error: refusal === null ? null : { code: apiCodeOf(refusal.code), message: refusal.message },
    }));
    const changed = results.filter((result) => result.outcome === 'changed').length;
    res.set('Cache-Control', 'no-store').json(envelope({ action: outcome.action, changed, refused: results.length - changed, more: outcome.more, results }));
  };
  return { retryTask: retry, createTaskBatch: batch };
}
