import { lookup } from 'node:dns/promises';
import express, { type Express } from 'express';
import { AGENT_TOKEN_MAX_SECONDS, createAgentKeySignIn } from './auth/agent-key-sign-in';
import { createApiKeyFinder } from './auth/api-keys';
import { createDeviceCookies } from './auth/device-cookie';
import { createTokenCipher } from './auth/oauth/token-cipher';
import { createPasswordChecks } from './auth/password-sign-in';
import { createSessionService } from './auth/sessions';
import { createMemoryThrottleBackend, createRedisThrottleBackend, createSignInThrottle, signInThrottleLimits } from './auth/sign-in-throttle';
import { createTokenService, type TokenService } from './auth/tokens';
import type { Config } from './config/config';
import type { Database } from './data/database';
import { RedisUnavailableError, type RedisConnection } from './data/redis';
import { createStore } from './data/store';
import { authenticateFor, credentialCheckFor, type SecurityRequirement } from './http/authenticate';
import { allowCrossOrigin } from './http/cors';
import { createDispatcher, handleThroughDispatcher, type Step } from './http/dispatch';
import { loadBrowserAssets, type BrowserAssets } from './http/browser-assets';
import { docsHandlers } from './http/docs';
import { pageLinksOf } from './http/page-links';
import { errorHandler } from './http/error-handler';
import { IDEMPOTENCY_KEY, idempotencyStep } from './http/idempotency';
import { createMetrics, observeRequests, serveMetrics, type Metrics } from './http/observability';
import { observeFleet } from './http/fleet-metrics';
import { loadApiDocument, type ApiDocument } from './contract/openapi';
import { bindHandlers, pathToOf, type OperationHandlers } from './http/operations';
import { checkQueryShape, parseQuery } from './http/query';
import { createRateLimiters, isRateLimited, type SharedCounters } from './http/rate-limit';
import { parseDeclaredBody, refuseUnstorableText } from './http/request-body';
import { assignRequestId } from './http/request-id';
import { compileRouteTable, ROUTE_TABLE, type CompiledOperation, type Route } from './contract/route-table';
import { agentHandlers } from './http/routes/agents';
import { eventHandlers } from './http/routes/events';
import { createEventStreams } from './http/event-stream';
import { authHandlers } from './http/routes/auth';
import { healthHandlers, type Lifecycle } from './http/routes/health';
import { fleetHealthHandlers } from './http/routes/fleet-health';
import { leaseHandlers } from './http/routes/leases';
import { scheduleHandlers } from './http/routes/schedules';
import { taskSteeringHandlers } from './http/routes/task-steering';
import { taskHandlers } from './http/routes/tasks';
import { v1AgentKeyHandlers } from './http/routes/v1-agent-keys';
import { v1AgentHandlers } from './http/routes/v1-agents';
import { v1UserHandlers } from './http/routes/v1-users';
import { v1WebhookHandlers } from './http/routes/v1-webhooks';
import { workspaceHandlers } from './http/routes/workspaces';
import { SECURITY_HEADERS, securityHeaders, setHeaders } from './http/security-headers';
import { createSignIn } from './http/sign-in';
import { armResponseCheck, checkResponsesOf, createValidation } from './http/validation';
import { deprecationHeadersOf, negotiateApiVersion } from './http/versioning';
import type { Logger } from './logger';
import type { AgentKeyScope, WorkspaceRole } from './model';
import type { WorkQueue } from './domain/leases';
import { createTaskWakeups, type TaskWakeups } from './domain/task-wakeups';
import { createEventFeed, type EventFeed } from './domain/event-feed';
import { postgresEventListener, type redisEventListener } from './data/event-notifications';
import { watchEventCommits } from './data/events-repository';
import type { ResolveHost } from './domain/webhook-targets';
import type { SecretSealer } from './domain/webhooks';

/** Webhook signing secrets at rest: sealed under their own key, derived from TOKEN_ENCRYPTION_KEY. */
export const createWebhookSealer = (tokenEncryptionKey: Buffer): SecretSealer => createTokenCipher(tokenEncryptionKey, 'webhook-secrets');

/** Every address a name resolves to, IPv4 and IPv6, as connections would find them. */
export const resolveWithDns: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

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
  /** Handlers that replace those of the operation table (a test plants one that breaks the contract). */
  handlers?: Partial<OperationHandlers>;
  /** Rate-limit and sign-in counters kept by the cluster primary (a worker without REDIS_URL). */
  sharedCounters?: SharedCounters;
  /** Wakes waiting claims when a task is queued; serve.ts closes it when draining, and its lease sweeper shares it. */
  wakeups?: TaskWakeups;
  /**
   * The process's reader of the event log, which its streams follow; serve.ts closes it when
   * draining. Without one the app makes its own (woken by this process's commits, PostgreSQL's
   * NOTIFY and its poll).
   */
  events?: EventFeed;
  /** How webhook URLs' hosts are resolved when they are checked (node:dns by default; tests make names resolve where they need). */
  resolveHost?: ResolveHost;
  /**
   * Told when a delivery is made due now (sent again): serve.ts has its webhook engine claim it at
   * once. Without it, the delivery waits for a sender's next poll (`WEBHOOK_POLL_MS`) on any instance.
   */
  deliveriesDue?: () => void;
  /** The pages' bundles (default: what `npm run build` wrote in dist/browser). */
  browserAssets?: BrowserAssets;
}

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
  handlers: replacements = {},
  sharedCounters,
  wakeups = createTaskWakeups(),
  events,
  resolveHost = resolveWithDns,
  deliveriesDue = () => undefined,
  browserAssets: assets = loadBrowserAssets(),
}: AppDependencies): Express {
  const store = createStore(db);
  const feed = events ?? createProcessEventFeed(db, logger, config);
  const streams = createEventStreams(store, feed, config.events);
  const queue: WorkQueue = { store, retry: config.leases, wakeups, quotas: config.quotas, logLinesPerTask: config.leases.logLinesPerTask };
  observeFleet(metrics, { db, logger, agentLabelLimit: config.metrics.agentLabelLimit });
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQuery);
  app.set('trust proxy', config.trustProxy);
  // Reads set their own ETags and evaluate preconditions themselves (src/http/caching.ts). Express's
  // own freshness check would answer 304 where api.yaml declares none (any `If-None-Match: *`).
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, enumerable: true, get: () => false });

  // api.yaml is the routing table: nothing it does not declare gets further than the dispatcher.
  const routes = compileRouteTable(apiDocument);
  app.set(ROUTE_TABLE, routes);
  const headers = securityHeaders(config.env === 'production');
  app.set(SECURITY_HEADERS, headers);
  const pathTo = pathToOf(routes);
  const links = pageLinksOf(pathTo, assets);

  const sessions = createSessionService(store, tokens, { accessSeconds: config.auth.jwt.ttlSeconds, refreshSeconds: config.auth.refreshTtlSeconds });
  // Every password check (/api/auth/login, /token, current_password) counts against one set of limits.
  const throttleLimits = signInThrottleLimits(config);
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
  // Failed client_credentials grants count against the key id they name, not the client address.
  const agentKeys = createAgentKeySignIn(store, tokens, throttle, { maxSeconds: Math.min(AGENT_TOKEN_MAX_SECONDS, config.auth.jwt.ttlSeconds) });
  const signIn = createSignIn({ config, store, sessions, logger, metrics, pathTo, assets });

  const authentication = {
    sessions,
    cookieName: config.auth.sessionCookieName,
    findApiKey: createApiKeyFinder(config.auth.apiKeys),
    agentKeys,
    isAgentToken: tokens.isAgentToken,
    isExpired: tokens.isExpired,
    trustedOrigins: config.auth.trustedOrigins,
  };
  const defaultSecurity = (apiDocument.security ?? []) as SecurityRequirement[];
  const securityOf = (operationId: string) => (routes.operations.get(operationId)?.operation.security as SecurityRequirement[] | undefined) ?? defaultSecurity;
  // The operation table: every operationId of api.yaml and its handler.
  const handlers = bindHandlers(routes, {
    ...healthHandlers(db, lifecycle, redis),
    ...authHandlers({
      sessions,
      passwords,
      agentKeys,
      cookieName: config.auth.sessionCookieName,
      trustedOrigins: config.auth.trustedOrigins,
      devices: {
        cookies: createDeviceCookies(config.tokenEncryptionKey, config.auth.knownClients.ttlSeconds),
        cookieName: config.auth.knownClients.cookieName,
        lifetimeSeconds: config.auth.knownClients.ttlSeconds,
      },
    }),
    ...agentHandlers(store, config, pathTo),
    ...taskHandlers(store, config, pathTo, wakeups),
    ...v1UserHandlers(store, config, passwords, pathTo),
    ...v1AgentHandlers(store, config, pathTo, wakeups),
    ...v1AgentKeyHandlers(store, pathTo),
    ...v1WebhookHandlers(
      store,
      { sealer: createWebhookSealer(config.tokenEncryptionKey), resolveHost, allowPrivateNetworks: config.webhooks.allowPrivateNetworks, httpsOnly: config.webhooks.httpsOnly },
      pathTo,
      deliveriesDue,
    ),
    ...workspaceHandlers(store, pathTo),
    ...leaseHandlers(queue, pathTo),
    ...scheduleHandlers(store, config, pathTo),
    ...taskSteeringHandlers(store, config, wakeups),
    ...fleetHealthHandlers(
      store,
      { pollMs: config.events.pollMs, heartbeatMs: config.events.heartbeatMs, draining: () => lifecycle.draining || wakeups.closed },
      credentialCheckFor(securityOf('listTaskLogs'), authentication),
    ),
    ...eventHandlers(store, streams, credentialCheckFor(securityOf('listEvents'), authentication)),
    ...signIn.handlers,
    ...docsHandlers(apiDocument, { clientReadme, pathTo, links }),
    getMetrics: serveMetrics(metrics, config.metrics.token),
    ...replacements,
  } satisfies OperationHandlers);

  const limiters = createRateLimiters({ limits: config.rateLimits, metrics, logger, redis, stores: sharedCounters });
  const validationOf = createValidation(apiDocument, { validateResponses: config.validateResponses });
  const parseBody = parseDeclaredBody(config.maxBodyBytes);
  const idempotent = idempotencyStep({ store, settings: config.idempotency, cipher: createTokenCipher(config.tokenEncryptionKey, 'idempotent-answers'), logger });

  /**
   * An operation's chain, in the order the contract is enforced: limits and credentials (one step:
   * which counter a request spends depends on its credential), input, idempotency (for the
   * operations that declare `Idempotency-Key`), handler.
   */
  const chainOf = (operation: CompiledOperation & { route: Route }): Step[] => {
    const validation = validationOf(operation);
    const deprecation = deprecationHeadersOf(operation.operation, operation.operationId);
    const declares = (status: string) => operation.operation.responses?.[status] !== undefined;
    // What the contract lets an operation answer decides its chain (rate limits: isRateLimited); one
    // that declares no schema violation (the pages and documents people and tools open) has no
    // input to refuse, whatever its query string holds. The root surface refuses input with 422: its
    // 400 is only what the HTTP parser refuses, which every operation declares.
    const validates = declares(operation.route.surface === 'root' ? '422' : '400');
    // An operation open to agent keys acts on the agent its path names, or (the event log) its query does.
    const agentIdIn = operation.route.template.includes('{agent_id}') ? 'path' : 'query';
    const authenticate = authenticateFor(operation.operation.security ?? defaultSecurity, authentication, {
      agentKeyScope: operation.operation['x-agent-key-scope'] as AgentKeyScope | undefined,
      agentIdIn,
      workspaceRole: operation.operation['x-workspace-role'] as WorkspaceRole | undefined,
    });
    const steps: Array<Step | undefined> = [
      isRateLimited(operation.operation) ? limiters.guard(operation.route.surface === 'api' ? 'api' : 'root', authenticate) : authenticate,
      parseBody,
      validates ? checkQueryShape : undefined,
      validates ? refuseUnstorableText : undefined,
      deprecation && ((_req, res, next) => (setHeaders(res, deprecation), next())),
      validates ? validation.request : undefined,
      validation.response && armResponseCheck(validation.response),
      operation.headerParameters.has(IDEMPOTENCY_KEY) ? idempotent : undefined,
      handlers.get(operation.operationId),
    ];
    return steps.filter((step): step is Step => step !== undefined);
  };
  const observe = observeRequests(logger, metrics);
  const negotiate = negotiateApiVersion(apiDocument);
  const dispatch = createDispatcher({
    table: routes,
    chains: new Map([...routes.operations].map(([operationId, operation]) => [operationId, chainOf(operation)])),
    headers,
    begin: (req, res) => {
      assignRequestId(req, res);
      observe(req, res);
    },
    cors: allowCrossOrigin(config.corsOrigins),
    negotiate,
  });
  checkResponsesOf(app);
  handleThroughDispatcher(app, dispatch, errorHandler(logger, metrics, routes.surfaceOf), (err, req) => logger.error({ reqId: req.id, err }, 'the error handler failed'));
  return app;
}

/**
 * The event feed of a process: woken by its own commits at once, by PostgreSQL's NOTIFY (or
 * Redis's pub/sub, when given) for commits elsewhere, and by its poll.
 */
export function createProcessEventFeed(db: Database, logger: Logger, config: Pick<Config, 'events'>, redisSource?: ReturnType<typeof redisEventListener>): EventFeed {
  const sources = [postgresEventListener(db, logger), redisSource].filter((source) => source !== undefined);
  const feed = createEventFeed({ store: createStore(db), logger, pollMs: config.events.pollMs, sources });
  const unwatch = watchEventCommits(db, () => feed.wake());
  const close = feed.close;
  feed.close = async () => {
    unwatch();
    await close();
  };
  return feed;
}
