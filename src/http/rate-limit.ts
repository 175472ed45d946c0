import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { ThrottleBackend } from '../auth/sign-in-throttle';
import type { RateLimit, RateLimits } from '../config/config';
import { RedisUnavailableError, type RedisConnection } from '../data/redis';
import type { Principal } from '../domain/access';
import { AppError, rateLimited } from '../errors';
import type { Logger } from '../logger';
import { memoizeBounded } from './memoize';
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

/** The surfaces with limits of their own for people and addresses: `/api` (the specification's) and the root one. */
export type LimitedSurface = 'api' | 'root';

/** A budget: the surface's own (addresses, and people on the root surface), a person's under /api, or a machine credential's, whichever surface it calls. */
export type Budget = LimitedSurface | 'user' | 'service-key' | 'agent-key';

export interface RateLimiters {
  /**
   * One step for the rate limit and the credential check of an operation on `surface`
   * (`authenticate`: its credential check, none when it is open).
   */
  guard(surface: LimitedSurface, authenticate: RequestHandler | undefined): RequestHandler;
}

export interface RateLimiterOptions {
  limits: RateLimits;
  metrics: Metrics;
  logger: Logger;
  redis?: Pick<RedisConnection, 'sendCommand'>;
  stores?: RateLimitStores;
}

/**
 * The rate limits. An authenticated request is counted against its credential: a person per user
 * id against a budget of their own under `/api` (a working day in the console: 1,000 per 15 min)
 * and the root surface's (a generous one) elsewhere, a service key or an agent key against its own
 * budget on either surface. Anonymous requests, every request to an open operation (sign-in and
 * /token among them) and refused credentials are counted against the client address, on the
 * surface's budget (under `/api`, the specification's 100 per 15 min). Failed sign-ins are limited as well by src/auth/sign-in-throttle.ts, where
 * they fail. Each request is counted once, when it arrives: a long poll is one request however
 * long it waits. Which operations are limited (never the probes and /metrics) is the router's
 * choice. Counters live in Redis when a client is given, so that every instance shares them; else
 * in the cluster primary when `stores` is given, so that every worker does.
 */
export function createRateLimiters({ limits, metrics, logger, redis, stores }: RateLimiterOptions): RateLimiters {
  const addressKeyOf = createClientKeys(logger);
  const keyOf = (req: Request) => (req.principal ? counterKeyOf(req.principal) : addressKeyOf(req));
  const logStoreError = (error: unknown, message: string) => {
    // Redis being unavailable is logged once, by its circuit breaker, not per request.
    if (!(error instanceof RedisUnavailableError)) logger.error({ err: error }, message);
  };
  const storeFor = (name: string): Store | undefined => {
    if (redis) {
      return new RecoveringRedisStore({
        prefix: `${limits.keyPrefix}${name}:`,
        sendCommand: (...args: string[]) => redis.sendCommand(args) as Promise<RedisReply>,
      });
    }
    return stores?.rateLimitStore(name);
  };
  /**
   * One budget: express-rate-limit's store for it (its MemoryStore, rate-limit-redis's, or the
   * cluster primary's) counts each request once, and the answer carries the draft-8 headers. A
   * store that fails (Redis unreachable, a primary that does not answer) lets the request pass,
   * uncounted and without headers: the limiter must not take the API down.
   */
  const limiter = (name: Budget, limit: RateLimit): RequestHandler => {
    const store = storeFor(name) ?? new MemoryStore();
    // Every store the service uses reads only the window of its options.
    void Promise.resolve(store.init?.({ windowMs: limit.windowMs } as Options)).catch((error: unknown) => logStoreError(error, 'rate limit store failed to start'));
    return (req, res, next) => {
      const key = keyOf(req);
      let counted: Promise<IncrementResponse>;
      try {
        counted = Promise.resolve(store.increment(key));
      } catch (error) {
        counted = Promise.reject(error);
      }
      counted.then(
        ({ totalHits, resetTime }) => {
          const resetSeconds = writeRateLimitHeaders(res, name, limit, { key, remaining: Math.max(limit.max - totalHits, 0), resetTime });
          if (totalHits <= limit.max) return next();
          metrics.rateLimitHits.inc({ limiter: name });
          next(rateLimited(resetSeconds));
        },
        (error: unknown) => {
          logStoreError(error, 'rate limit store failed: request allowed uncounted');
          next();
        },
      );
    };
  };
  const limiters: Record<Budget, RequestHandler> = {
    api: limiter('api', limits.api),
    user: limiter('user', limits.user),
    root: limiter('root', limits.root),
    'service-key': limiter('service-key', limits.serviceKey),
    'agent-key': limiter('agent-key', limits.agentKey),
  };

  const guard = (surface: LimitedSurface, authenticate: RequestHandler | undefined): RequestHandler => {
    const byAddress = limiters[surface];
    if (!authenticate) return byAddress;
    return (req, res, next) => {
      // Nothing to check (an anonymous flood): counted against the address before anything else.
      if (!carriesCredential(req)) return byAddress(req, res, (error?: unknown) => (error ? next(error) : authenticate(req, res, next)));
      // A credential is checked first, so that what it is decides the counter: an accepted one is
      // never refused because others behind its address (a NAT) spent the address's budget, and an
      // invented one brings no fresh budget but spends the address's.
      authenticate(req, res, (error?: unknown) => {
        if (req.principal) return limiters[budgetOf(surface, req.principal)](req, res, (refused?: unknown) => next(refused ?? error));
        if (error === undefined || isRefusedCredential(error)) return byAddress(req, res, (refused?: unknown) => next(refused ?? error));
        next(error);
      });
    };
  };
  return { guard };
}

/** A counter's partition key (`pk`): the first 12 hex digits of its key's SHA-256, never the key itself; kept for every counter active at once. */
const partitionKeyOf = memoizeBounded(10_000, (key) => Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64'));

/**
 * The draft-8 `RateLimit` and `RateLimit-Policy` fields, as express-rate-limit writes them, with
 * the partition key hashed once per counter instead of once per request. Answers the seconds
 * until the window resets.
 */
function writeRateLimitHeaders(res: Response, name: string, limit: RateLimit, count: { key: string; remaining: number; resetTime: Date | undefined }): number {
  const windowSeconds = Math.ceil(limit.windowMs / 1000);
  const resetSeconds = count.resetTime ? Math.max(0, Math.ceil((count.resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
  if (res.headersSent) return resetSeconds;
  res.appendHeader('RateLimit', `"${name}"; r=${count.remaining}; t=${resetSeconds}`);
  res.appendHeader('RateLimit-Policy', `"${name}"; q=${limit.max}; w=${windowSeconds}; pk=:${partitionKeyOf(count.key)}:`);
  return resetSeconds;
}

/**
 * The counter of an authenticated request, whatever surface it calls: a person's is their user id
 * (whatever session or token they use), a service key's its position in API_KEYS, an agent key's
 * its id (its client_credentials tokens included). Never a secret: these are keys in Redis.
 */
export function counterKeyOf(principal: Principal): string {
  switch (principal.kind) {
    case 'user':
      return `user:${principal.user.id}`;
    case 'service':
      return `service-key:${principal.keyNumber}`;
    case 'agent':
      return `agent-key:${principal.keyId}`;
  }
}

/** The budget of an authenticated request on `surface`: people have their own under /api and the surface's elsewhere, machine credentials their own. */
export function budgetOf(surface: LimitedSurface, principal: Principal): Budget {
  switch (principal.kind) {
    case 'user':
      return surface === 'api' ? 'user' : surface;
    case 'service':
      return 'service-key';
    case 'agent':
      return 'agent-key';
  }
}

/**
 * Whether a request presents something to authenticate (what authenticate.ts reads). A request
 * that does not is anonymous: whatever its operation answers, it is counted against its address.
 */
function carriesCredential(req: Request): boolean {
  return req.headers.authorization !== undefined || req.headers['x-api-key'] !== undefined || req.headers.cookie !== undefined;
}

/** A credential the check refused (401, 403), as opposed to a failure to check it (a database outage: 503). */
function isRefusedCredential(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'unauthorized' || error.code === 'forbidden');
}

/** An IPv6 address's key; enough kept for the addresses of every client active at once. */
const ipv6KeyOf = memoizeBounded(10_000, (ip) => ipKeyGenerator(ip, 56));

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
  return ip.includes(':') ? ipv6KeyOf(ip) : ip;
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
