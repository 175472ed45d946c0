import type { RequestHandler } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RateLimit, RateLimits } from '../config';
import { RedisUnavailableError, type RedisConnection } from '../data/redis';
import { rateLimited } from '../errors';
import type { Logger } from '../logger';
import type { Metrics } from './observability';

/**
 * rate-limit-redis keeps the promise of its first SCRIPT LOAD: one that failed (Redis down at
 * start, or when a restarted Redis lost its scripts) would fail every later count, and shared
 * counting would never resume. A failed load here yields a digest Redis does not know, so the next
 * EVALSHA answers NOSCRIPT and the store loads the script again.
 */
class RecoveringRedisStore extends RedisStore {
  override async loadIncrementScript(key?: string): Promise<string> {
    return super.loadIncrementScript(key).catch(() => NOT_LOADED);
  }
  override async loadGetScript(key?: string): Promise<string> {
    return super.loadGetScript(key).catch(() => NOT_LOADED);
  }
}
const NOT_LOADED = '0000000000000000000000000000000000000000';

/** Paths that probes and scrapers call: never limited. */
export const UNLIMITED = /^\/(health(\/ready)?|metrics)$/;

/**
 * The limiters of DESIGN section 4: `/api` (100 per 15 min) and a generous one for the root
 * surface (failed sign-ins are limited by src/auth/sign-in-throttle.ts, where they fail). Counters
 * live in Redis when a client is given, so that every instance shares them.
 */
export function createRateLimiters(limits: RateLimits, metrics: Metrics, logger: Logger, redis?: Pick<RedisConnection, 'sendCommand'>) {
  const limiter = (name: string, limit: RateLimit, extra: Partial<Options> = {}): RequestHandler =>
    rateLimit({
      windowMs: limit.windowMs,
      limit: limit.max,
      identifier: name,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      store: redis
        ? new RecoveringRedisStore({
            prefix: `${limits.keyPrefix}${name}:`,
            sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
          })
        : undefined,
      // An unreachable Redis must not take the API down: requests pass (its circuit breaker logs the outage).
      passOnStoreError: true,
      // Its configuration warnings (e.g. X-Forwarded-For without TRUST_PROXY) and store errors go to
      // our log, but not Redis being unavailable: the circuit breaker logs that once, not per request.
      logger: {
        warn: (error, message) => logger.warn({ err: error }, message ?? 'rate limiter warning'),
        error: (error, message) => {
          if (!(error instanceof RedisUnavailableError)) logger.error({ err: error }, message ?? 'rate limiter error');
        },
      },
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
