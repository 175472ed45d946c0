import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { isEmail } from './domain/email';
import { passwordProblem } from './domain/password-policy';
import type { Quotas } from './domain/quotas';
import { parseOAuthProviders, parseTokenEncryptionKey, type OAuthProviderConfig } from './oauth-config';

export type { OAuthProviderConfig } from './oauth-config';

export type DatabaseConfig =
  | { client: 'sqlite'; filename: string }
  | { client: 'pg'; connectionString: string };

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  database: DatabaseConfig;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  maxBodyBytes: number;
  /** The most a list answer may weigh: cursor and skip pages of large items stop short of it. */
  maxResponseBytes: number;
  /** Per-user and per-agent limits (0: none). */
  quotas: Quotas;
  validateResponses: boolean;
  shutdownTimeoutMs: number;
  /** Origins whose pages may call the API from a browser (CORS_ORIGINS; PUBLIC_URL's by default). */
  corsOrigins: string[];
  /** Express's `trust proxy`: which X-Forwarded-For hops to believe when keying clients by IP. */
  trustProxy: boolean | number | string[];
  rateLimits: RateLimits;
  /** Shared rate-limit counters (REDIS_URL); in process memory without it. */
  redisUrl?: string;
  /** The service's external base URL (scheme, host, port): the origin browsers see. */
  publicUrl: string;
  auth: AuthConfig;
  /** Third-party sign-in (OAUTH_PROVIDERS); redirect URIs are built from publicUrl. */
  oauth: { providers: OAuthProviderConfig[] };
  /** AES-256-GCM key (TOKEN_ENCRYPTION_KEY) for stored provider tokens and the sign-in check cookie. */
  tokenEncryptionKey: Buffer;
  /** Things worth saying once the logger exists (ephemeral secrets and the like). */
  warnings: string[];
}

/** What the routes need of the configuration to bound answers and writes. */
export type ServiceLimits = Pick<Config, 'maxResponseBytes' | 'quotas'>;

export interface RateLimit {
  windowMs: number;
  max: number;
}

export interface RateLimits {
  /** Everything under /api: the specification's 100 per 15 minutes. */
  api: RateLimit;
  /** Failed sign-ins at /api/auth/login: 5 an hour. */
  login: RateLimit;
  /** The root surface (the spec sets none): generous. */
  root: RateLimit;
  /** Prefix of the counters' keys in Redis (several services may share one). */
  keyPrefix: string;
}

export const JWT_ALGORITHMS = ['HS256', 'RS256', 'ES256', 'EdDSA'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

export interface AuthConfig {
  jwt:
    | { algorithm: 'HS256'; secret: string; issuer: string; audience: string; ttlSeconds: number }
    | { algorithm: Exclude<JwtAlgorithm, 'HS256'>; privateKey: string; publicKey: string; issuer: string; audience: string; ttlSeconds: number };
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
    host: parseHost(env.HOST, problems),
    port,
    database: parseDatabaseUrl(env.DATABASE_URL, cwd, problems),
    logLevel: pick('LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    maxBodyBytes: integer('MAX_BODY_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxResponseBytes: integer('MAX_RESPONSE_BYTES', 4 * MIB, MIN_RESPONSE_BYTES, 1024 * MIB),
    quotas: {
      agentsPerUser: integer('QUOTA_AGENTS_PER_USER', 1000, 0, 10_000_000),
      tasksPerAgent: integer('QUOTA_TASKS_PER_AGENT', 10_000, 0, 100_000_000),
      storedBytesPerUser: integer('QUOTA_STORED_BYTES_PER_USER', 100 * MIB, 0, 1024 * 1024 * MIB),
    },
    validateResponses: boolean('VALIDATE_RESPONSES', true),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    corsOrigins: parseOrigins('CORS_ORIGINS', env.CORS_ORIGINS, publicUrl, problems),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    rateLimits: {
      api: { windowMs: integer('RATE_LIMIT_API_WINDOW_MS', 15 * 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_API_MAX', 100, 1, 1_000_000) },
      login: { windowMs: integer('RATE_LIMIT_LOGIN_WINDOW_MS', 60 * 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_LOGIN_MAX', 5, 1, 1_000_000) },
      root: { windowMs: integer('RATE_LIMIT_ROOT_WINDOW_MS', 60_000, 1000, 86_400_000), max: integer('RATE_LIMIT_ROOT_MAX', 1000, 1, 1_000_000) },
      keyPrefix: env.RATE_LIMIT_PREFIX || 'agent-fleet:rate-limit:',
    },
    redisUrl: parseRedisUrl(env.REDIS_URL, problems),
    publicUrl,
    auth: {
      jwt: parseJwt(env, nodeEnv, problems, warnings, integer('ACCESS_TOKEN_TTL', 1800, 60, 86_400)),
      apiKeys: parseApiKeys(env.API_KEYS, problems),
      admin: parseAdmin(env, problems),
      trustedOrigins: [
        publicUrl,
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
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
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

/** `true`/`false`, a hop count, or a comma-separated list of proxy addresses or subnets. */
function parseTrustProxy(raw: string | undefined, problems: string[]): boolean | number | string[] {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.every((entry) => /^[0-9a-f.:]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(entry))) return entries;
  problems.push(`TRUST_PROXY must be true, false, a hop count or a list of proxy addresses (got "${raw}")`);
  return false;
}

function parseRedisUrl(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^rediss?:\/\/[^\s]+$/.test(raw)) return raw;
  problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  return undefined;
}

/** An address or a DNS name to listen on; refused here, it would otherwise fail only after migrations ran. */
function parseHost(raw: string | undefined, problems: string[]): string {
  if (raw === undefined || raw === '') return '0.0.0.0';
  const label = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
  if (isIP(raw) !== 0 || new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`).test(raw)) return raw;
  problems.push(`HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost (got "${raw}")`);
  return '0.0.0.0';
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
