import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createApiKeyCheck } from '../auth/api-keys';
import { invalidCredentials, notAuthenticated, routeNotFound } from '../errors';
import type { RedisObserver } from '../data/redis';
import type { Logger } from '../logger';
import { methodLabel, routeLabel } from './route-label';

export interface Metrics {
  registry: Registry;
  duration: Histogram<'method' | 'route' | 'status_class'>;
  requests: Counter<'method' | 'route' | 'status'>;
  requestSize: Histogram<'method' | 'route'>;
  rateLimitHits: Counter<'limiter'>;
  /** Requests answered before Express saw them (Node's HTTP parser refused them). */
  rejectedRequests: Counter<'status' | 'reason'>;
  /** Third-party sign-in: the specification's authentication callback alert signals. */
  authCallbackFailures: Counter<'provider' | 'reason'>;
  authStateValidationFailures: Counter<'provider'>;
  authTokenRefreshFailures: Counter<'provider'>;
  authInvalidProviderResponses: Counter<'provider'>;
  /** Commands to Redis and requests to the database that failed for want of the dependency. */
  dependencyFailures: Counter<'dependency' | 'reason'>;
  /** 1 while a dependency is in use, 0 while it is skipped (Redis behind its open circuit). */
  dependencyUp: Gauge<'dependency'>;
  /**
   * The work queue, counted from the task events this process commits (src/http/fleet-metrics.ts).
   * No agent label: a counter's series must keep its identity, and which agents are the busiest
   * (the queue gauges' bounded label) changes from one scrape to the next; a fleet's per-agent
   * history is in its events.
   */
  taskWait: Histogram;
  taskRun: Histogram;
  taskOutcomes: Counter<'outcome'>;
  taskRetries: Counter;
  leaseExpirations: Counter;
  /** Webhook attempts recorded by this process's delivery engine, by what became of the delivery. */
  webhookDeliveries: Counter<'outcome'>;
}

/**
 * The fleet's queue gauges (src/http/fleet-metrics.ts), read at each scrape from the database every
 * process shares: each process reports the same fleet.
 */
export const FLEET_GAUGES = ['fleet_tasks_queued', 'fleet_tasks_running'] as const;

/** Seconds from a minute's fraction to a day: how long tasks wait, and run. */
const TASK_SECONDS_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600];

/** One registry per app, so several apps in one process (tests) keep separate counts. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request arrival to the end of the response, by route and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    requestSize: new Histogram({
      name: 'http_request_size_bytes',
      help: 'Request body sizes (Content-Length), by route.',
      labelNames: ['method', 'route'],
      buckets: [0, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
      registers: [registry],
    }),
    rateLimitHits: new Counter({
      name: 'rate_limit_hits_total',
      help: 'Requests refused with 429, by limiter (api, login, root).',
      labelNames: ['limiter'],
      registers: [registry],
    }),
    rejectedRequests: new Counter({
      name: 'http_rejected_requests_total',
      help: 'Requests refused by the HTTP parser before routing (bad syntax, oversized headers, unknown methods), by status and parser reason.',
      labelNames: ['status', 'reason'],
      registers: [registry],
    }),
    authCallbackFailures: new Counter({
      name: 'auth_callback_failures_total',
      help: 'Third-party sign-in callbacks that did not sign anyone in, by provider and reason (reason="access_denied" is a user who cancelled).',
      labelNames: ['provider', 'reason'],
      registers: [registry],
    }),
    authStateValidationFailures: new Counter({
      name: 'auth_state_validation_failures_total',
      help: 'Sign-in callbacks whose state was missing, different or from another provider (possible CSRF), by provider.',
      labelNames: ['provider'],
      registers: [registry],
    }),
    authTokenRefreshFailures: new Counter({
      name: 'auth_token_refresh_failures_total',
      help: 'Failed refreshes of stored provider access tokens, by provider.',
      labelNames: ['provider'],
      registers: [registry],
    }),
    authInvalidProviderResponses: new Counter({
      name: 'auth_invalid_provider_responses_total',
      help: 'Provider answers that could not be used (malformed responses, ID tokens failing verification), by provider.',
      labelNames: ['provider'],
      registers: [registry],
    }),
    dependencyFailures: new Counter({
      name: 'dependency_failures_total',
      help: 'Failures for want of a dependency: Redis commands (reason timeout, error or circuit_open) and requests answered 503 because the database was unavailable (reason connection, pool_timeout, statement_timeout, shutdown, resources, disk_full or busy).',
      labelNames: ['dependency', 'reason'],
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency is in use: redis is 0 while its circuit is open (rate limits and sign-in counting fall back).',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    taskWait: new Histogram({
      name: 'fleet_task_wait_seconds',
      help: 'Time from a task\'s creation to the lease of its first attempt (a released lease gives its attempt back: the next lease is observed again).',
      buckets: TASK_SECONDS_BUCKETS,
      registers: [registry],
    }),
    taskRun: new Histogram({
      name: 'fleet_task_run_seconds',
      help: 'Time from the lease of a task\'s last attempt to its outcome (succeeded or failed).',
      buckets: TASK_SECONDS_BUCKETS,
      registers: [registry],
    }),
    taskOutcomes: new Counter({
      name: 'fleet_task_outcomes_total',
      help: 'Tasks that reached an outcome, by outcome (succeeded, failed).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    taskRetries: new Counter({
      name: 'fleet_task_retries_total',
      help: 'Tasks queued again after a failed attempt or an expired lease (a released lease is no retry).',
      registers: [registry],
    }),
    leaseExpirations: new Counter({
      name: 'fleet_lease_expirations_total',
      help: 'Leases that expired: their task was queued again, or failed with "lease expired".',
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook attempts by outcome: succeeded, retrying (failed, another attempt is scheduled) or failed (failed, the retries are spent).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

/** Redis's failures and circuit, as metrics. */
export function observeRedis(metrics: Metrics): RedisObserver {
  return {
    failure: (reason) => metrics.dependencyFailures.inc({ dependency: 'redis', reason }),
    availability: (up) => metrics.dependencyUp.set({ dependency: 'redis' }, up ? 1 : 0),
  };
}

/** Request headers whose values are credentials: logged by name only. */
const CREDENTIAL_REQUEST_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization', 'referer']);
/**
 * The response headers worth a log line. The fixed security headers (CSP, HSTS and the like)
 * would triple every line and its serialisation cost for nothing a reader needs. `set-cookie`
 * carries sessions and `location` the state, nonce and PKCE challenge of sign-in redirects: named,
 * never shown.
 */
const LOGGED_RESPONSE_HEADERS = ['content-type', 'content-length', 'location', 'set-cookie', 'retry-after'] as const;
const HIDDEN_RESPONSE_HEADERS: ReadonlySet<string> = new Set(['location', 'set-cookie']);
const REDACTED = '[redacted]';

interface RequestSeries {
  duration: ReturnType<Metrics['duration']['labels']>;
  requests: ReturnType<Metrics['requests']['labels']>;
  size: ReturnType<Metrics['requestSize']['labels']>;
}

/**
 * One log line and one set of metric samples per request, written when the response ends. The
 * line is built from what may be logged (credential headers by name only), so it needs no
 * redaction pass: it goes out through a child logger without one.
 */
export function observeRequests(logger: Logger, metrics: Metrics): (req: Request, res: Response) => void {
  const requestLog = logger.child({}, { redact: [] });
  // prom-client hashes the label set of every sample: each (method, route, status) is looked up once.
  const series = new Map<string, RequestSeries>();
  const seriesOf = (method: string, route: string, status: number): RequestSeries => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (found === undefined) {
      found = {
        duration: metrics.duration.labels({ method, route, status_class: `${Math.floor(status / 100)}xx` }),
        requests: metrics.requests.labels({ method, route, status: String(status) }),
        size: metrics.requestSize.labels({ method, route }),
      };
      series.set(key, found);
    }
    return found;
  };
  return (req, res) => {
    const started = process.hrtime.bigint();
    // HEAD is served as GET further on: the log and the metrics keep what the client sent.
    const method = req.method;
    // 'close', not 'finish': a client that hangs up first (a timeout, a cancelled upload) never
    // fires 'finish', and those slowest requests would vanish from both the log and the histogram.
    let finished = false;
    res.once('finish', () => {
      finished = true;
    });
    res.on('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      // An event stream ends when its reader leaves: that is how it ends, not an abort, and how long it
      // stayed open is no request latency.
      const stream = res.headersSent && String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
      const aborted = !finished && !stream;
      // 499 (nginx's "client closed request"): the status the handler meant to send never reached anyone.
      const status = aborted ? 499 : res.statusCode;
      const samples = seriesOf(methodLabel(method), route, status);
      if (!stream) samples.duration.observe(seconds);
      samples.requests.inc();
      samples.size.observe(Number(req.headers['content-length'] ?? 0) || 0);
      const level = status >= 500 ? 'error' : aborted ? 'warn' : 'info';
      if (!requestLog.isLevelEnabled(level)) return;
      requestLog[level](
        {
          reqId: req.id,
          method,
          route,
          // The path only: query strings can carry codes and tokens.
          path: req.originalUrl.split('?', 1)[0],
          status,
          ...(aborted && { aborted: true }),
          ...(stream && { stream: true }),
          durationMs: Math.round(seconds * 1e6) / 1e3,
          req: { headers: loggedRequestHeaders(req.headers), remoteAddress: req.socket.remoteAddress },
          res: { headers: loggedResponseHeaders(res) },
        },
        'request completed',
      );
    });
  };
}

function loggedRequestHeaders(headers: IncomingHttpHeaders): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const name in headers) logged[name] = CREDENTIAL_REQUEST_HEADERS.has(name) ? REDACTED : headers[name];
  return logged;
}

function loggedResponseHeaders(res: Response): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_RESPONSE_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = HIDDEN_RESPONSE_HEADERS.has(name) ? REDACTED : value;
  }
  return headers;
}

/** The registry in Prometheus's text format (the metrics listener and the API listener share it). */
export async function renderMetrics(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * GET /metrics on the API listener: only with `Authorization: Bearer <METRICS_TOKEN>` (401
 * otherwise). Without a token configured it is not served there at all: 404, as an unknown path.
 */
export function serveMetrics(metrics: Metrics, token: string | undefined): (req: Pick<Request, 'get'>, res: Response, next: NextFunction) => Promise<void> {
  // The API keys' constant-time comparison: the same time whatever was presented.
  const isToken = token === undefined ? undefined : createApiKeyCheck([token]);
  return async (req, res, next) => {
    if (isToken === undefined) return next(routeNotFound());
    const authorization = req.get('authorization');
    if (authorization === undefined) return next(notAuthenticated());
    const presented = BEARER.exec(authorization)?.[1];
    if (presented === undefined || !isToken(presented)) return next(invalidCredentials());
    const { contentType, body } = await renderMetrics(metrics);
    res.set('Cache-Control', 'no-store').type(contentType).send(body);
  };
}
