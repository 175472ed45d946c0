import type { RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RateLimit, RateLimits } from '../config';
import { rateLimited } from '../errors';
import type { Logger } from '../logger';
import type { Metrics } from './observability';

/** What the limiters need of a Redis client: one raw command at a time (node-redis's sendCommand). */
export interface RateLimitRedis {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Paths that probes and scrapers call: never limited. */
const UNLIMITED = /^\/(health(\/ready)?|metrics)$/;

/**
 * The limiters of DESIGN section 4: `/api` (100 per 15 min) and a generous one for the root
 * surface (failed sign-ins are limited by src/auth/sign-in-throttle.ts, where they fail). Counters
 * live in Redis when a client is given, so that every instance shares them.
 */
export function createRateLimiters(limits: RateLimits, metrics: Metrics, logger: Logger, redis?: RateLimitRedis) {
  const limiter = (name: string, limit: RateLimit, extra: Partial<Options> = {}): RequestHandler =>
    rateLimit({
      windowMs: limit.windowMs,
      limit: limit.max,
      identifier: name,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      store: redis
        ? new RedisStore({
            prefix: `${limits.keyPrefix}${name}:`,
            sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
          })
        : undefined,
      // An unreachable Redis must not take the API down: requests pass and the error is logged.
      passOnStoreError: true,
      // Its store errors and configuration warnings (e.g. X-Forwarded-For without TRUST_PROXY) go to our log.
      logger,
      handler: (_req, res, next) => {
        metrics.rateLimitHits.inc({ limiter: name });
        next(rateLimited(Number(res.getHeader('Retry-After')) || Math.ceil(limit.windowMs / 1000)));
      },
      ...extra,
    });

  const root = limiter('root', limits.root, { skip: (req) => UNLIMITED.test(req.path) });
  return {
    api: limiter('api', limits.api),
    /** Everything outside /api. */
    root: ((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') ? next() : root(req, res, next))) as RequestHandler,
  };
}
