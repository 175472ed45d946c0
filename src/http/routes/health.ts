import { pingDatabase, type Database } from '../../data/database';
import type { RedisConnection } from '../../data/redis';
import type { components } from '../../../generated/api';
import type { OperationHandlers } from '../operations';
import type { Handler } from '../typed-handler';

type Readiness = components['schemas']['Readiness'];

/** What the process knows about itself that a load balancer must hear of. */
export interface Lifecycle {
  /** SIGTERM arrived: finishing what is in flight, taking nothing new. */
  draining: boolean;
}

/**
 * Liveness, and readiness: 503 while draining or without a database, so the instance leaves the
 * rotation. A Redis that is down is `degraded`, still 200: every instance shares one Redis, and the
 * service works without it (fail-open), so taking them all out would turn a lost counter store
 * into an outage. The service listens only once its first connection to Redis has settled (made,
 * failed, or out of time), so its first answer already says which.
 */
export function healthHandlers(db: Database, lifecycle: Lifecycle, redis?: Pick<RedisConnection, 'ping'>): Pick<OperationHandlers, 'getHealth' | 'getReadiness'> {
  const live: Handler<'getHealth'> = (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  };
  const ready: Handler<'getReadiness'> = async (_req, res) => {
    const [database, redisUp] = await Promise.all([pingDatabase(db), redis?.ping()]);
    const checks: Readiness['checks'] = { database: database ? 'up' : 'down' };
    if (redis) checks.redis = redisUp ? 'up' : 'down';
    const status: Readiness['status'] = lifecycle.draining ? 'draining' : !database ? 'unavailable' : redis && !redisUp ? 'degraded' : 'ready';
    res
      .status(status === 'draining' || status === 'unavailable' ? 503 : 200)
      .set('Cache-Control', 'no-store')
      .json({ status, checks });
  };
  return { getHealth: live, getReadiness: ready };
}
