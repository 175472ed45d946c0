import { Router } from 'express';
import { pingDatabase, type Database } from '../../data/database';
import type { RateLimitRedis } from '../rate-limit';
import type { Handler } from '../typed-handler';

export function healthRoutes(db: Database, redis?: RateLimitRedis): Router {
  const live: Handler<'getHealth'> = (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  };
  const ready: Handler<'getReadiness'> = async (_req, res) => {
    const checks: Record<string, 'up' | 'down'> = { database: (await pingDatabase(db)) ? 'up' : 'down' };
    if (redis) checks.redis = (await answersWithin(redis.sendCommand(['PING']), 1000)) ? 'up' : 'down';
    const up = Object.values(checks).every((state) => state === 'up');
    res
      .status(up ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: up ? 'ready' : 'unavailable', checks });
  };
  return Router().get('/health', live).get('/health/ready', ready);
}

/** A client that queues commands while disconnected would never answer: give up after `ms`. */
function answersWithin(reply: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([reply.then(() => true, () => false), timeout]).finally(() => clearTimeout(timer));
}
