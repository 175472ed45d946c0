import express, { type Express } from 'express';
import helmet from 'helmet';
import { createApiKeyCheck } from './auth/api-keys';
import { createPasswordChecks } from './auth/password-sign-in';
import { createSessionService } from './auth/sessions';
import { createMemoryThrottleBackend, createRedisThrottleBackend, createSignInThrottle } from './auth/sign-in-throttle';
import { createTokenService, type TokenService } from './auth/tokens';
import type { Config } from './config';
import type { Database } from './data/database';
import { RedisUnavailableError, type RedisConnection } from './data/redis';
import { createStore } from './data/store';
import { routeNotFound } from './errors';
import { authenticate } from './http/authenticate';
import { allowCrossOrigin } from './http/cors';
import { createDocsRouter } from './http/docs';
import { errorHandler } from './http/error-handler';
import { createMetrics, observeRequests, serveMetrics, type Metrics } from './http/observability';
import { loadApiDocument, validateAgainst, type ApiDocument } from './http/openapi';
import { createRateLimiters } from './http/rate-limit';
import type { SharedCounters } from './http/shared-counters';
import { checkQueryShape, parseQuery } from './http/query';
import { parseDeclaredBody, refuseUnstorableText } from './http/request-body';
import { assignRequestId } from './http/request-id';
import { answerOptions, compileRouteTable, ROUTE_TABLE, routeExactly } from './http/route-table';
import { agentRoutes } from './http/routes/agents';
import { authRoutes } from './http/routes/auth';
import { healthRoutes, type Lifecycle } from './http/routes/health';
import { taskRoutes } from './http/routes/tasks';
import { v1AgentRoutes } from './http/routes/v1-agents';
import { v1UserRoutes } from './http/routes/v1-users';
import { createSignIn } from './http/sign-in';
import { announceDeprecations, negotiateApiVersion } from './http/versioning';
import type { Logger } from './logger';

export interface AppDependencies {
  config: Config;
  db: Database;
  logger: Logger;
  apiDocument?: ApiDocument;
  metrics?: Metrics;
  tokens?: TokenService;
  /** Shared rate-limit counters (and a readiness check) when REDIS_URL is configured. */
  redis?: Pick<RedisConnection, 'sendCommand' | 'ping'>;
  /** Set by server.ts when draining; readiness answers 503 from then on. */
  lifecycle?: Lifecycle;
  /** The Markdown file `GET /client` renders (default: the typed client's README, src/client/README.md). */
  clientReadme?: string;
  /** Rate-limit and sign-in counters kept by the cluster primary (a worker without REDIS_URL). */
  sharedCounters?: SharedCounters;
}

/** Paths that probes and scrapers call: never limited. */
export const UNLIMITED = /^\/(health(\/ready)?|metrics)$/;

/** Builds the whole HTTP application. It never listens: server.ts (or a test) does. */
export function buildApp({
  config,
  db,
  logger,
  apiDocument = loadApiDocument(),
  metrics = createMetrics(),
  tokens = createTokenService(config.auth.jwt),
  redis,
  lifecycle = { draining: false },
  clientReadme,
  sharedCounters,
}: AppDependencies): Express {
  const store = createStore(db);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQuery);
  app.set('trust proxy', config.trustProxy);
  // Reads set their own ETags and evaluate preconditions themselves (src/http/caching.ts). Express's
  // own freshness check would answer 304 where api.yaml declares none (any `If-None-Match: *`).
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, enumerable: true, get: () => false });

  app.use(assignRequestId, observeRequests(logger, metrics));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // ReDoc renders its search index in a worker it builds from a blob.
          'worker-src': ["'self'", 'blob:'],
          // TLS is the proxy's business; on plain HTTP this directive would break the docs pages.
          'upgrade-insecure-requests': null,
        },
      },
    }),
  );
  // api.yaml is the routing table: nothing it does not declare gets further than this.
  const routes = compileRouteTable(apiDocument);
  app.set(ROUTE_TABLE, routes);
  app.use(routeExactly(routes));
  // CORS answers the preflights of allowed origins; every other OPTIONS gets its 204 and `Allow` here.
  app.use(allowCrossOrigin(config.corsOrigins), answerOptions, negotiateApiVersion(apiDocument));
  const limiters = createRateLimiters(config.rateLimits, metrics, logger, redis, sharedCounters);
  app.use('/api', limiters.api);
  // Until dispatch by operation chooses the limiter: probes and scrapers are never limited.
  app.use((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') || UNLIMITED.test(req.path) ? next() : limiters.root(req, res, next)));

  app.get('/metrics', serveMetrics(metrics, config.metrics.token));
  app.use(createDocsRouter(apiDocument, { clientReadme }));
  const sessions = createSessionService(store, tokens, { accessSeconds: config.auth.jwt.ttlSeconds, refreshSeconds: config.auth.refreshTtlSeconds });
  // Every password check (/api/auth/login, /token, current_password) counts against one set of limits.
  const throttleLimits = {
    clientMax: config.rateLimits.login.max,
    clientWindowMs: config.rateLimits.login.windowMs,
    accountFreeFailures: config.auth.accountThrottle.freeFailures,
    accountBaseDelayMs: config.auth.accountThrottle.baseDelayMs,
    accountMaxDelayMs: config.auth.accountThrottle.maxDelayMs,
  };
  const memoryThrottle = createMemoryThrottleBackend(throttleLimits);
  const sharedThrottle = redis ? createRedisThrottleBackend(redis, throttleLimits, `${config.rateLimits.keyPrefix}sign-in:`) : sharedCounters?.signInThrottle;
  const throttle = createSignInThrottle(sharedThrottle ?? memoryThrottle, {
    // While Redis (or the cluster primary) is unavailable, failures are counted per process: guessing never goes unlimited.
    fallback: sharedThrottle ? memoryThrottle : undefined,
    // Redis being unavailable is logged once, by its circuit breaker.
    onStoreError: (error) => {
      if (!(error instanceof RedisUnavailableError)) logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'sign-in throttle store failed');
    },
    onRefused: () => metrics.rateLimitHits.inc({ limiter: 'login' }),
  });
  const passwords = createPasswordChecks(store, throttle);
  const signIn = createSignIn({ config, store, sessions, logger, metrics });
  app.use(signIn.pages);

  const requireCredentials = authenticate({
    sessions,
    cookieName: config.auth.sessionCookieName,
    isApiKey: createApiKeyCheck(config.auth.apiKeys),
    trustedOrigins: config.auth.trustedOrigins,
    defaultSecurity: (apiDocument.security ?? []) as Array<Record<string, string[]>>,
  });
  app.use(
    validateAgainst(apiDocument, {
      validateResponses: config.validateResponses,
      beforeValidation: [requireCredentials, parseDeclaredBody(config.maxBodyBytes), checkQueryShape, refuseUnstorableText, announceDeprecations(apiDocument)],
    }),
  );

  app.use(healthRoutes(db, lifecycle, redis), authRoutes({ sessions, passwords, cookieName: config.auth.sessionCookieName, trustedOrigins: config.auth.trustedOrigins }), agentRoutes(store, config), taskRoutes(store, config), v1UserRoutes(store, config, passwords), v1AgentRoutes(store, config), signIn.routes);

  // A declared path whose handler passed it on (a static file that does not exist).
  app.use((_req, _res, next) => next(routeNotFound()));
  app.use(errorHandler(logger, metrics));
  return app;
}
