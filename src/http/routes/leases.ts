import type { Response } from 'express';
import * as leases from '../../domain/leases';
import { principalOf } from '../authenticate';
import { envelope } from '../envelope';
import type { OperationHandlers, PathTo } from '../operations';
import type { Handler } from '../typed-handler';

/** Aborts when the client goes away before its answer is written (a long poll it gave up on). */
function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** The work queue (conventions surface): claim an agent's next task, heartbeat, report the outcome, give it back. */
export function leaseHandlers(queue: leases.WorkQueue, pathTo: PathTo): Pick<OperationHandlers, 'claimLease' | 'getLease' | 'updateLease' | 'releaseLease' | 'appendLeaseLogs'> {
  const claim: Handler<'claimLease'> = async (req, res) => {
    const { ttl_seconds: ttlSeconds = leases.DEFAULT_TTL_SECONDS, wait_seconds: waitSeconds = 0 } = req.body ?? {};
    const lease = await leases.claimLease(queue, principalOf(req), req.params.agent_id, { ttlSeconds, waitSeconds }, clientGone(res));
    if (!lease) return void res.status(204).end();
    res.status(201).location(pathTo('getLease', { agent_id: lease.agent_id, lease_id: lease.id })).json(envelope(lease));
  };
  const read: Handler<'getLease'> = async (req, res) => {
    const lease = await leases.getLease(queue.store, principalOf(req), req.params.agent_id, req.params.lease_id);
    res.set('Cache-Control', 'private, no-cache').json(envelope(lease));
  };
  const update: Handler<'updateLease'> = async (req, res) => {
    res.json(envelope(await leases.updateLease(queue, principalOf(req), req.params.agent_id, req.params.lease_id, req.body)));
  };
  const release: Handler<'releaseLease'> = async (req, res) => {
    await leases.releaseLease(queue, principalOf(req), req.params.agent_id, req.params.lease_id);
    res.status(204).end();
  };
  const appendLogs: Handler<'appendLeaseLogs'> = async (req, res) => {
    await leases.appendLogs(queue, principalOf(req), req.params.agent_id, req.params.lease_id, req.body.lines);
    res.status(204).end();
  };
  return { claimLease: claim, getLease: read, updateLease: update, releaseLease: release, appendLeaseLogs: appendLogs };
}
