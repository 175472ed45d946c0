import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isEmail } from '../domain/email';
import { passwordProblem } from '../domain/password-policy';
import type { IdempotencySettings } from '../domain/idempotency';
import type { RetryPolicy } from '../domain/leases';
import type { Quotas } from '../domain/quotas';
import type { ScheduleSettings } from '../domain/schedules';
import type { WebhookSettings } from '../domain/webhooks';
import { DEFAULT_DATABASE_LIMITS, type DatabaseConfig } from '../data/database';
import type { RedisConfig } from '../data/redis';
import type { LogLevel } from '../logger';
import { parseOAuthProviders, parseTokenEncryptionKey, type OAuthProviderConfig } from './oauth-config';

export type { OAuthProviderConfig } from './oauth-config';

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /**
   * Worker processes sharing the port (WEB_CONCURRENCY, src/process/cluster.ts). 1: no workers, the
   * process serves by itself.
   */
  webConcurrency: number;
  database: DatabaseConfig;
  logLevel: LogLevel;
  maxBodyBytes: number;
  /** The most a list answer may weigh: cursor and skip pages of large items stop short of it. */
  maxResponseBytes: number;
  /** Per-user and per-agent limits (0: none). */
  quotas: Quotas;
  /** The work queue: how retries back off, and how often expired leases are swept. */
  leases: LeaseSettings;
  /** The event log: how long it is kept, and how its streams behave. */
  events: EventSettings;
  /** Webhook deliveries: what may be called, how long an attempt may take, when failures are retried, how often each process looks for work. */
  webhooks: WebhookSettings;
  /** Schedules: how often each process looks for due ones. */
  schedules: ScheduleSettings;
  /** How long the answer to a create sent with an Idempotency-Key is kept for its retries (IDEMPOTENCY_KEY_TTL_HOURS). */
  idempotency: IdempotencySettings;
  validateResponses: boolean;
  shutdownTimeoutMs: number;
  /** How long a client may take to send a request, and to keep an idle connection open. */
  http: HttpTimeouts;
  /** Where Prometheus scrapes: a port of its own, and/or the API listener with a bearer token. */
  metrics: MetricsConfig;
  /** Origins whose pages may call the API from a browser (CORS_ORIGINS; PUBLIC_URL's by default). */
  corsOrigins: string[];
  /** Express's `trust proxy`: which X-Forwarded-For hops to believe when keying clients by IP (never `true`). */
  trustProxy: false | number | string[];
  rateLimits: RateLimits;
  /** Shared rate-limit counters (REDIS_URL); in process memory without it. */
  redis?: RedisConfig;
  /** The service's external base URL (scheme, host, port): the origin browsers see. */
  publicUrl: string;
  auth: AuthConfig;
  /** Third-party sign-in (OAUTH_PROVIDERS); redirect URIs are built from publicUrl. */
  oauth: { providers: OAuthProviderConfig[] };
  /** AES-256-GCM key (TOKEN_ENCRYPTION_KEY) for stored provider tokens and the sign-in check cookie; the device cookie's HMAC key is derived from it. */
  tokenEncryptionKey: Buffer;
  /** Things worth saying once the logger exists (ephemeral secrets and the like). */
  warnings: string[];
}

export interface HttpTimeouts {
  /** The whole request, headers and body (Node's `server.requestTimeout`); 408 beyond it. */
  requestTimeoutMs: number;
  /** The request line and headers (Node's `server.headersTimeout`); at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection (Node's `server.keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
}

export interface MetricsConfig {
  /** METRICS_TOKEN: the API listener serves /metrics only with `Authorization: Bearer <token>`. */
  token?: string;
  /** METRICS_PORT: a listener of its own serving /metrics without a token. */
  port?: number;
  /** METRICS_HOST: the address of that listener (127.0.0.1 by default). */
  host: string;
  /**
   * METRICS_AGENT_LABEL_LIMIT: the agents that get an `agent` label of their own on the fleet's
   * queue gauges (the busiest; the rest are summed as `agent="other"`), so a fleet of any size
   * keeps a bounded number of series.
   */
  agentLabelLimit: number;
}
/** LEASE_RETRY_BASE_MS and LEASE_RETRY_MAX_MS, and the sweep's interval. */
export interface LeaseSettings extends RetryPolicy {
  /** How often each process looks for expired leases (LEASE_SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /** The most log lines a task keeps (TASK_LOG_LINES); the oldest go first. */
  logLinesPerTask: number;
}

export interface EventSettings {
  /** Events older than this are pruned (EVENT_RETENTION_HOURS); resuming before them answers 410. */
  retentionHours: number;
  /** A comment line on every open stream this often (EVENTS_HEARTBEAT_MS), so that proxies and clients see it alive. */
  heartbeatMs: number;
  /** While streams are open, each process reads the log this often anyway (EVENTS_POLL_MS): notifications can be lost. */
  pollMs: number;
  /** Open streams one principal may hold on one process (EVENT_STREAMS_PER_PRINCIPAL); 429 beyond. */
  streamsPerPrincipal: number;
}

/** What the routes need of the configuration to bound answers and writes. */
export type ServiceLimits = Pick<Config, 'maxResponseBytes' | 'quotas'>;

export interface RateLimit {
  windowMs: number;
  max: number;
}

export interface RateLimits {
  /** Under /api, each client address (anonymous requests, refused credentials): the specification's 100 per 15 minutes. */
  api: RateLimit;
  /** Under /api, each signed-in person (every session and token of theirs): a working day in the console, 1,000 per 15 minutes. */
  user: RateLimit;
  /** Failed sign-ins at /api/auth/login: 5 an hour. */
  login: RateLimit;
  /** The root surface, counted as /api is (the spec sets no limit): generous. */
  root: RateLimit;
  /** Each configured API key (API_KEYS, a fleet-wide service key) on either surface: a polling worker's budget. */
  serviceKey: RateLimit;
  /** Each agent key (and its client_credentials tokens) on either surface: a polling worker's budget. */
  agentKey: RateLimit;
  /** Prefix of the counters' keys in Redis (several services may share one). */
  keyPrefix: string;
}

export const JWT_ALGORITHMS = ['HS256', 'RS256', 'ES256', 'EdDSA'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

export interface AuthConfig {
  jwt:
    | { algorithm: 'HS256'; secret: string; issuer: string; audience: string; ttlSeconds: number }
    | { algorithm: Exclude<JwtAlgorithm, 'HS256'>; privateKey: string; publicKey: string; issuer: string; audience: string; ttlSeconds: number };
  /** Seconds a session with a refresh token (`/token`) lives at most (REFRESH_TOKEN_TTL). */
  refreshTtlSeconds: number;
  /** `__Host-agent_fleet_session` in production (HTTPS, Path=/, no Domain: no sibling subdomain can plant one). */
  sessionCookieName: string;
  /** Per-account back-off after failed sign-ins (the per-client budget is rateLimits.login). */
  accountThrottle: { freeFailures: number; baseDelayMs: number; maxDelayMs: number };
  /**
   * Clients that signed in to an account keep signing in whatever strangers do to it: their device
   * cookie `cookieName`, and their address, are known for `ttlSeconds` (LOGIN_KNOWN_CLIENT_TTL).
   */
  knownClients: { ttlSeconds: number; cookieName: string };
  apiKeys: string[];
  admin?: { email: string; password: string };
  /** Origins allowed to make cookie-authenticated changes (CSRF defence): PUBLIC_URL's and TRUSTED_ORIGINS. */
  trustedOrigins: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;
const DEFAULT_SQLITE_FILE = 'data/agent-fleet.sqlite';
const MIB = 1024 * 1024;
/**
 * Agents and users are not cut to the budget: their pages are small by construction (at most 100
 * items of a few KiB with their 10 embedded summaries, about 1.6 MB in the worst case), so the
 * budget may not go below them. A single task or post (at most about 250 KB) fits many times over.
 */
const MIN_RESPONSE_BYTES = 2 * MIB;
/** Far beyond any machine's cores: a typo (WEB_CONCURRENCY=40000) is refused rather than forked. */
const MAX_WEB_CONCURRENCY = 256;

/** Reads and validates the whole configuration once; every problem is reported together. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];

  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };

  const nodeEnv = pick('NODE_ENV', NODE_ENVS, 'development');
  const port = integer('PORT', 8000, 0, 65535);
  const publicUrl = parseOrigin('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${port}`, problems);
  const warnings: string[] = [];
  const oauthProviders = parseOAuthProviders(env, publicUrl, cwd, problems);
  const config: Config = {
    env: nodeEnv,
    host: parseHost('HOST', env.HOST, '0.0.0.0', problems),
    port,
    webConcurrency: integer('WEB_CONCURRENCY', 1, 1, MAX_WEB_CONCURRENCY),
    database: {
      ...parseDatabaseUrl(env.DATABASE_URL, cwd, problems),
      limits: {
        poolMax: integer('DATABASE_POOL_MAX', DEFAULT_DATABASE_LIMITS.poolMax, 2, 1000),
        acquireTimeoutMs: integer('DATABASE_ACQUIRE_TIMEOUT_MS', DEFAULT_DATABASE_LIMITS.acquireTimeoutMs, 100, 600_000),
        statementTimeoutMs: integer('DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_DATABASE_LIMITS.statementTimeoutMs, 100, 3_600_000),
        busyTimeoutMs: integer('SQLITE_BUSY_TIMEOUT_MS', DEFAULT_DATABASE_LIMITS.busyTimeoutMs, 0, 600_000),
      },
    },
    logLevel: pick('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    maxBodyBytes: integer('MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxResponseBytes: integer('MAX_RESPONSE_BYTES', 4 * MIB, MIN_RESPONSE_BYTES, 1024 * MIB),
    quotas: {
      agentsPerUser: integer('QUOTA_AGENTS_PER_USER', 1000, 0, 10_000_000),
      tasksPerAgent: integer('QUOTA_TASKS_PER_AGENT', 10_000, 0, 100_000_000),
      storedBytesPerUser: integer('QUOTA_STORED_BYTES_PER_USER', 100 * MIB, 0, 1024 * 1024 * MIB),
    },
    leases: parseLeases(integer, problems),
    events: {
      retentionHours: integer('EVENT_RETENTION_HOURS', 168, 1, 87_600),
      heartbeatMs: integer('EVENTS_HEARTBEAT_MS', 15_000, 100, 3_600_000),
      pollMs: integer('EVENTS_POLL_MS', 500, 50, 60_000),
      streamsPerPrincipal: integer('EVENT_STREAMS_PER_PRINCIPAL', 10, 1, 10_000),
    },
    webhooks: parseWebhooks(env, nodeEnv, integer, boolean, problems, warnings),
    schedules: { pollMs: integer('SCHEDULE_POLL_MS', 250, 10, 60_000) },
    idempotency: { ttlHours: integer('IDEMPOTENCY_KEY_TTL_HOURS', 24, 1, 24 * 30) },
    validateResponses: boolean('VALIDATE_RESPONSES', true),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    http: parseHttpTimeouts(integer, problems),
    metrics: parseMetrics(env, nodeEnv, port, integer, problems, warnings),
    corsOrigins: parseOrigins('CORS_ORIGINS', env.CORS_ORIGINS, publicUrl, problems),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    rateLimits: {
      api: { windowMs: integer('RATE_LIMIT_API_WINDOW_MS', 15 * 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_API_MAX', 100, 1, 1_000_000) },
      user: { windowMs: integer('RATE_LIMIT_USER_WINDOW_MS', 15 * 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_USER_MAX', 1000, 1, 1_000_000) },
      login: { windowMs: integer('RATE_LIMIT_LOGIN_WINDOW_MS', 60 * 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_LOGIN_MAX', 5, 1, 1_000_000) },
      root: { windowMs: integer('RATE_LIMIT_ROOT_WINDOW_MS', 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_ROOT_MAX', 1000, 1, 1_000_000) },
      serviceKey: { windowMs: integer('RATE_LIMIT_SERVICE_KEY_WINDOW_MS', 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_SERVICE_KEY_MAX', 1000, 1, 1_000_000) },
      agentKey: { windowMs: integer('RATE_LIMIT_AGENT_KEY_WINDOW_MS', 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_AGENT_KEY_MAX', 1000, 1, 1_000_000) },
      keyPrefix: env.RATE_LIMIT_PREFIX || 'agent-fleet:rate-limit:',
    },
    redis: parseRedis(env.REDIS_URL, integer, problems),
    publicUrl,
    auth: {
      jwt: parseJwt(env, nodeEnv, problems, warnings, integer('ACCESS_TOKEN_TTL', 1800, 60, 86_400)),
      refreshTtlSeconds: integer('REFRESH_TOKEN_TTL', 30 * 86_400, 300, 365 * 86_400),
      sessionCookieName: nodeEnv === 'production' ? '__Host-agent_fleet_session' : 'agent_fleet_session',
      accountThrottle: {
        freeFailures: integer('LOGIN_ACCOUNT_FREE_FAILURES', 5, 1, 1000),
        baseDelayMs: integer('LOGIN_ACCOUNT_BACKOFF_MS', 30_000, 100, 3_600_000),
        maxDelayMs: integer('LOGIN_ACCOUNT_BACKOFF_MAX_MS', 15 * 60_000, 100, 86_400_000),
      },
      knownClients: { ttlSeconds: integer('LOGIN_KNOWN_CLIENT_TTL', 30 * 86_400, 60, 365 * 86_400), cookieName: 'agent_fleet_device' },
      apiKeys: parseApiKeys(env.API_KEYS, problems),
      admin: parseAdmin(env, problems),
      trustedOrigins: [
        publicUrl,
        ...loopbackAliasesOf(publicUrl),
        ...(env.TRUSTED_ORIGINS ?? '')
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
          .map((origin) => parseOrigin('TRUSTED_ORIGINS', origin, problems)),
      ],
    },
    oauth: { providers: oauthProviders },
    tokenEncryptionKey: parseTokenEncryptionKey(env, nodeEnv, oauthProviders.length, problems, warnings),
    warnings,
  };
  checkWebConcurrency(config, problems, warnings);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function checkWebConcurrency(config: Config, problems: string[], warnings: string[]): void {
  if (config.webConcurrency === 1) return;
  if (config.database.client === 'sqlite' && config.database.filename === ':memory:') {
    problems.push('WEB_CONCURRENCY above 1 needs a database the workers share: with DATABASE_URL=sqlite::memory: each worker would have a database of its own');
  }
  if (config.metrics.token !== undefined && config.metrics.port === undefined) {
    warnings.push(`WEB_CONCURRENCY=${config.webConcurrency} with METRICS_TOKEN only: /metrics on the API listener answers with the samples of whichever worker took the connection; set METRICS_PORT for the sum of every worker's`);
  }
  const cores = availableParallelism();
  if (config.webConcurrency > cores) {
    warnings.push(`WEB_CONCURRENCY=${config.webConcurrency} is more than the ${cores} cores available: the extra workers add memory and context switches, not throughput`);
  }
}

/**
 * What the cluster primary adds to each worker's environment: the secrets it made up itself when
 * none was configured (development), so that every worker signs, verifies and decrypts with the
 * same ones. A worker reads its configuration as the primary did, from the environment.
 */
export function workerEnvironment(config: Config, env: Env = process.env): Record<string, string> {
  const shared: Record<string, string> = {};
  if (config.auth.jwt.algorithm === 'HS256' && !env.JWT_SECRET) shared.JWT_SECRET = config.auth.jwt.secret;
  if (!env.TOKEN_ENCRYPTION_KEY?.trim()) shared.TOKEN_ENCRYPTION_KEY = config.tokenEncryptionKey.toString('base64');
  return shared;
}

function parseDatabaseUrl(raw: string | undefined, cwd: string, problems: string[]): DatabaseConfig {
  if (raw === undefined || raw === '') {
    return { client: 'sqlite', filename: path.resolve(cwd, DEFAULT_SQLITE_FILE) };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
      return { client: 'pg', connectionString: raw };
    } catch {
      problems.push('DATABASE_URL is not a valid postgres:// URL');
    }
  } else if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === ':memory:') return { client: 'sqlite', filename: ':memory:' };
    if (file !== '') return { client: 'sqlite', filename: path.resolve(cwd, file) };
    problems.push('DATABASE_URL=sqlite: needs a file path, e.g. sqlite:data/fleet.sqlite');
  } else {
    // The value may hold a password: name only its scheme.
    problems.push(`DATABASE_URL must start with postgres://, postgresql:// or sqlite: (got scheme "${raw.split(':')[0]}")`);
  }
  return { client: 'sqlite', filename: path.resolve(cwd, DEFAULT_SQLITE_FILE) };
}

function parseOrigins(name: string, raw: string | undefined, fallback: string, problems: string[]): string[] {
  const listed = (raw ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  return listed.length === 0 ? [fallback] : listed.map((origin) => parseOrigin(name, origin, problems));
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `false`, a hop count, or proxy addresses and subnets (`10.0.0.0/8`, `::1`, `loopback`). `true`
 * is refused: Express would then believe the left-most X-Forwarded-For entry, which any client
 * writes, and every per-client limit would be a per-request one.
 */
function parseTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') {
    problems.push('TRUST_PROXY=true would believe any client\'s X-Forwarded-For: set the number of proxies in front of the service (e.g. 1) or their addresses/subnets (e.g. 10.0.0.0/8,loopback)');
    return false;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 32) return hops === 0 ? false : hops;
    problems.push(`TRUST_PROXY hop count must be from 0 to 32 (got "${raw}")`);
    return false;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  const everyone = entries.filter((entry) => /\/0+$/.test(entry));
  if (everyone.length > 0) {
    problems.push(`TRUST_PROXY ${everyone.join(', ')} trusts every address, as true would: list the proxies' own addresses or subnets`);
    return false;
  }
  if (invalid.length === 0) return entries;
  problems.push(
    `TRUST_PROXY must be false, a hop count or a comma-separated list of proxy addresses, subnets (CIDR) or loopback, linklocal, uniquelocal (not valid: ${invalid.map((entry) => `"${entry}"`).join(', ')})`,
  );
  return false;
}

/** An IPv4 or IPv6 address, with an optional prefix length in range, or one of Express's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 6 ? 128 : 32);
}

function parseRedis(raw: string | undefined, integer: IntegerReader, problems: string[]): RedisConfig | undefined {
  if (raw === undefined || raw === '') return undefined;
  const settings = {
    commandTimeoutMs: integer('REDIS_COMMAND_TIMEOUT_MS', 100, 10, 60_000),
    breakerFailures: integer('REDIS_BREAKER_FAILURES', 3, 1, 1000),
    probeIntervalMs: integer('REDIS_BREAKER_PROBE_MS', 1000, 50, 600_000),
  };
  if (/^rediss?:\/\/[^\s]+$/.test(raw)) return { url: raw, ...settings };
  problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  return undefined;
}

/** An address or a DNS name to listen on; refused here, it would otherwise fail only after migrations ran. */
function parseHost(name: string, raw: string | undefined, fallback: string, problems: string[]): string {
  if (raw === undefined || raw === '') return fallback;
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
  if (isIP(raw) !== 0 || new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`).test(raw)) return raw;
  problems.push(`${name} must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "${raw}")`);
  return fallback;
}

type IntegerReader = (name: string, fallback: number, min: number, max: number) => number;

function parseHttpTimeouts(integer: IntegerReader, problems: string[]): HttpTimeouts {
  const requestTimeoutMs = integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000);
  const headersTimeoutMs = integer('HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 3_600_000);
  const keepAliveTimeoutMs = integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000, 1000, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    problems.push(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

function parseLeases(integer: IntegerReader, problems: string[]): LeaseSettings {
  const retryBaseMs = integer('LEASE_RETRY_BASE_MS', 1000, 1, 3_600_000);
  const retryMaxMs = integer('LEASE_RETRY_MAX_MS', 5 * 60_000, 1, 86_400_000);
  if (retryMaxMs < retryBaseMs) problems.push(`LEASE_RETRY_MAX_MS (${retryMaxMs}) must not be below LEASE_RETRY_BASE_MS (${retryBaseMs})`);
  return {
    retryBaseMs,
    retryMaxMs,
    sweepIntervalMs: integer('LEASE_SWEEP_INTERVAL_MS', 5000, 100, 3_600_000),
    logLinesPerTask: integer('TASK_LOG_LINES', 10_000, 1, 1_000_000),
  };
}

/** Seconds to ten hours and more: `5s`, `5m`, `2h`, `1d`, or milliseconds (`50ms`, the tests' pace). */
const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const MAX_WEBHOOK_RETRIES = 20;

function parseWebhooks(
  env: Env,
  nodeEnv: Config['env'],
  integer: IntegerReader,
  boolean: (name: string, fallback: boolean) => boolean,
  problems: string[],
  warnings: string[],
): WebhookSettings {
  const allowPrivateNetworks = boolean('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false);
  if (allowPrivateNetworks && nodeEnv === 'production') {
    warnings.push('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true in production: webhook endpoints may reach loopback, private and metadata addresses (server-side request forgery)');
  }
  if (nodeEnv === 'production' && !env.TOKEN_ENCRYPTION_KEY?.trim()) {
    warnings.push('TOKEN_ENCRYPTION_KEY is not set: webhook signing secrets are sealed with an ephemeral key, and no other instance, nor this one after a restart, can sign with them');
  }
  return {
    allowPrivateNetworks,
    httpsOnly: nodeEnv === 'production',
    timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    retryScheduleMs: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE, problems),
    pollMs: integer('WEBHOOK_POLL_MS', 1000, 10, 600_000),
    concurrency: integer('WEBHOOK_CONCURRENCY', 8, 1, 256),
  };
}

function parseRetrySchedule(raw: string | undefined, problems: string[]): number[] {
  const text = raw === undefined || raw.trim() === '' ? DEFAULT_WEBHOOK_RETRY_SCHEDULE : raw;
  const delays = text.split(',').map((entry) => DURATION.exec(entry.trim()));
  if (delays.length > MAX_WEBHOOK_RETRIES || delays.some((match) => match === null)) {
    problems.push(`WEBHOOK_RETRY_SCHEDULE must be 1 to ${MAX_WEBHOOK_RETRIES} comma-separated delays such as 5s,5m,2h (units ms, s, m, h, d) (got "${text}")`);
    return parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE, []);
  }
  return delays.map((match) => Number(match?.[1]) * (DURATION_MS[match?.[2] ?? 'ms'] ?? 1));
}

const MIN_METRICS_TOKEN_LENGTH = 32;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

function parseMetrics(env: Env, nodeEnv: Config['env'], apiPort: number, integer: IntegerReader, problems: string[], warnings: string[]): MetricsConfig {
  const token = env.METRICS_TOKEN || undefined;
  // Visible ASCII only: the token travels in an Authorization header.
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))) {
    problems.push(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} printable ASCII characters without spaces (e.g. \`openssl rand -hex 32\`)`);
  }
  const port = env.METRICS_PORT ? integer('METRICS_PORT', 0, 0, 65535) : undefined;
  if (port !== undefined && port !== 0 && port === apiPort) problems.push(`METRICS_PORT must differ from PORT (both are ${port})`);
  const host = parseHost('METRICS_HOST', env.METRICS_HOST, '127.0.0.1', problems);
  if (nodeEnv === 'production') {
    if (token === undefined && port === undefined) {
      warnings.push('Neither METRICS_PORT nor METRICS_TOKEN is set: /metrics is not served anywhere (the API listener answers it 404)');
    }
    if (port !== undefined && WILDCARD_HOSTS.has(host)) {
      warnings.push(`METRICS_HOST=${host}: metrics are served without a token on every interface; make sure only the scraper reaches port ${port}`);
    }
  }
  return { token, port, host, agentLabelLimit: integer('METRICS_AGENT_LABEL_LIMIT', 20, 0, 1000) };
}

function parseOrigin(name: string, raw: string, problems: string[]): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // reported below
  }
  problems.push(`${name} must be an http(s) URL such as https://fleet.example.com (got "${raw}")`);
  return raw;
}

const MIN_SECRET_BYTES = 32;

function parseJwt(env: Env, nodeEnv: Config['env'], problems: string[], warnings: string[], ttlSeconds: number): AuthConfig['jwt'] {
  const algorithm = (env.JWT_ALGORITHM || 'HS256') as JwtAlgorithm;
  const issuer = env.JWT_ISSUER || 'agent-fleet-api';
  const audience = env.JWT_AUDIENCE || 'agent-fleet-api';
  if (!(JWT_ALGORITHMS as readonly string[]).includes(algorithm)) {
    problems.push(`JWT_ALGORITHM must be one of ${JWT_ALGORITHMS.join(', ')} (got "${algorithm}")`);
  }
  if (algorithm !== 'HS256') {
    // PEM in one environment line: "\n" stands for a line break.
    const pem = (value: string | undefined) => value?.replace(/\\n/g, '\n').trim() ?? '';
    const privateKey = pem(env.JWT_PRIVATE_KEY);
    const publicKey = pem(env.JWT_PUBLIC_KEY);
    if (!privateKey.includes('PRIVATE KEY')) problems.push(`JWT_PRIVATE_KEY must be a PKCS#8 PEM private key for ${algorithm}`);
    if (!publicKey.includes('PUBLIC KEY')) problems.push(`JWT_PUBLIC_KEY must be an SPKI PEM public key for ${algorithm}`);
    return { algorithm: algorithm as Exclude<JwtAlgorithm, 'HS256'>, privateKey, publicKey, issuer, audience, ttlSeconds };
  }
  const secret = env.JWT_SECRET ?? '';
  if (secret === '') {
    if (nodeEnv === 'production') {
      problems.push(`JWT_SECRET is required in production (at least ${MIN_SECRET_BYTES} bytes, e.g. \`openssl rand -base64 48\`)`);
    } else {
      warnings.push('JWT_SECRET is not set: using an ephemeral secret; tokens will not survive a restart');
      return { algorithm: 'HS256', secret: randomBytes(48).toString('base64'), issuer, audience, ttlSeconds };
    }
  } else if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes long`);
  }
  return { algorithm: 'HS256', secret, issuer, audience, ttlSeconds };
}

function parseApiKeys(raw: string | undefined, problems: string[]): string[] {
  const keys = (raw ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  if (keys.some((key) => key.length < 16)) problems.push('API_KEYS: every key must be at least 16 characters long');
  return keys;
}

function parseAdmin(env: Env, problems: string[]): AuthConfig['admin'] {
  const email = env.ADMIN_EMAIL?.trim().toLowerCase();
  const password = env.ADMIN_PASSWORD;
  if (!email && !password) return undefined;
  if (!email || !password) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither');
    return undefined;
  }
  if (!isEmail(email)) problems.push('ADMIN_EMAIL must be an e-mail address');
  if (password.length < 8) problems.push('ADMIN_PASSWORD must be at least 8 characters long');
  else {
    // The admin is created with this password: it must pass the same check as every sign-up.
    const problem = passwordProblem(password, { email, name: 'Administrator' });
    if (problem) problems.push(`ADMIN_PASSWORD ${problem}`);
  }
  return { email, password };
}

/**
 * `http://localhost:8000` is reached as `http://127.0.0.1:8000` and `http://[::1]:8000` too: the same
 * service on the same machine, so pages served under those names may make changes as well.
 */
function loopbackAliasesOf(origin: string): string[] {
  const url = new URL(origin);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return [];
  const port = url.port ? `:${url.port}` : '';
  return ['localhost', '127.0.0.1', '[::1]'].filter((host) => host !== url.hostname).map((host) => `${url.protocol}//${host}${port}`);
}
