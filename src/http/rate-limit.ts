import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { ThrottleBackend } from '../auth/sign-in-throttle';
import type { RateLimit, RateLimits } from '../config/config';
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

/** Where counters live when neither Redis nor this process keeps them: the cluster primary (src/process/shared-counters.ts). */
export interface RateLimitStores {
  /** A store for the limiter `name`; each limiter needs a store of its own. */
  rateLimitStore(name: string): Store;
}

/** The counters of a cluster's primary, shared by its workers: the rate limits' and the sign-in throttle's. */
export interface SharedCounters extends RateLimitStores {
  signInThrottle: ThrottleBackend;
}

export interface RateLimiters {
  /** The specification's limit on /api. */
  api: RequestHandler;
  /** A generous limit on the rest (pages, documentation, /token). */
  root: RequestHandler;
}

/**
 * The limiters of DESIGN section 4: `/api` (100 per 15 min) and a generous one for the root
 * surface (failed sign-ins are limited by src/auth/sign-in-throttle.ts, where they fail). Each
 * counts every request it is given: which requests those are (never the probes and /metrics) is
 * the router's choice. Counters live in Redis when a client is given, so that every instance
 * shares them; else in the cluster primary when `stores` is given, so that every worker does.
 */
export function createRateLimiters(
  limits: RateLimits,
  metrics: Metrics,
  logger: Logger,
  redis?: Pick<RedisConnection, 'sendCommand'>,
  stores?: RateLimitStores,
): RateLimiters {
  const keyOf = createClientKeys(logger);
  const storeFor = (name: string): Store | undefined => {
    if (redis) {
      return new RecoveringRedisStore({
        prefix: `${limits.keyPrefix}${name}:`,
        sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
      });
    }
    return stores?.rateLimitStore(name);
  };
  const limiter = (name: string, limit: RateLimit): RequestHandler =>
    rateLimit({
      windowMs: limit.windowMs,
      limit: limit.max,
      identifier: name,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      keyGenerator: keyOf,
      // Its source-text check cannot see that keyOf groups IPv6 addresses (with ipKeyGenerator).
      validate: { keyGeneratorIpFallback: false },
      store: storeFor(name),
      // An unreachable Redis (or a cluster primary that does not answer) must not take the API
      // down: requests pass (Redis's circuit breaker logs the outage).
      passOnStoreError: true,
      // Its configuration warnings and store errors go to our log, but not Redis being
      // unavailable: the circuit breaker logs that once, not per request.
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
    });
  return { api: limiter('api', limits.api), root: limiter('root', limits.root) };
}

/** Enough for the addresses of every client active at once, and a bounded amount of memory. */
const CACHED_IPV6_KEYS = 10_000;
const ipv6Keys = new Map<string, string>();

/**
 * The client's key, for the rate limiters and the sign-in throttle alike: its address as Express
 * sees it (`req.ip`, which honours TRUST_PROXY), an IPv4-mapped IPv6 address folded to its IPv4
 * address and any other IPv6 address reduced to its /56 as express-rate-limit's default does,
 * since one subscriber's allocation rotates through the bits below. Parsing an IPv6 address for
 * that costs more than the rest of the limiter (scripts/bench/rate-limit.ts), so recent
 * addresses' keys are kept. The keys are the default's, character for character: counters in
 * Redis carry over.
 */
export function clientKeyOf(req: Pick<Request, 'ip' | 'socket'>): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (!ip.includes(':')) return ip;
  let key = ipv6Keys.get(ip);
  if (key === undefined) {
    key = ipKeyGenerator(ip, 56);
    if (ipv6Keys.size >= CACHED_IPV6_KEYS) ipv6Keys.delete(ipv6Keys.keys().next().value as string);
    ipv6Keys.set(ip, key);
  }
  return key;
}

/** clientKeyOf, with the default's one warning worth keeping. */
function createClientKeys(logger: Logger): (req: Request) => string {
  let warnedOfForwarding = false;
  return (req) => {
    // Behind a proxy that nobody declared, every client shares the proxy's address, and its budget.
    if (!warnedOfForwarding && req.headers['x-forwarded-for'] !== undefined && req.app.get('trust proxy') === false) {
      warnedOfForwarding = true;
      logger.warn('X-Forwarded-For arrives but TRUST_PROXY is not set: clients are keyed by the address of the hop in front (see TRUST_PROXY)');
    }
    return clientKeyOf(req);
  };
}

/**
 * Whether an operation is rate-limited: those that declare 429 are; the probes and the metrics
 * scrape declare none, because an orchestrator and a scraper must always get through.
 */
export function isRateLimited(operation: { responses?: Record<string, unknown> }): boolean {
  return operation.responses?.['429'] !== undefined;
}
