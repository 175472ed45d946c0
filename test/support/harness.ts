import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import knex from 'knex';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { createSessionService, type SessionService } from '../../src/auth/sessions';
import { createTokenService, type TokenService } from '../../src/auth/tokens';
import { createStore } from '../../src/data/store';
import type { User } from '../../src/model';
import { signUp } from '../../src/domain/users';
import { loadConfig, type Config } from '../../src/config/config';
import type { DatabaseConfig, DatabaseLimits } from '../../src/data/database';
import { connectDatabase, type Database } from '../../src/data/database';
import { createHttpServer } from '../../src/http/http-server';
import type { ApiDocument } from '../../src/contract/openapi';
import type { ResolveHost } from '../../src/domain/webhook-targets';
import { createMetrics, type Metrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { PG_TEST_URL } from './services';

export type DatabaseKind = 'sqlite' | 'pg';
export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'pg'];

export interface TestDatabase {
  kind: DatabaseKind;
  config: DatabaseConfig;
  db: Database;
  /** Options to connect a second handle to the same data (a second app instance). */
  searchPath?: string;
  close(): Promise<void>;
}

/** knex's warnings (a pool acquisition that timed out, in the outage tests) are not the suites' output. */
const KNEX_LOGGER = createLogger({ logLevel: 'silent' });

/** A database of its own for one test file: a temporary SQLite file, or a fresh PostgreSQL schema. */
export async function openTestDatabase(kind: DatabaseKind, limits?: DatabaseLimits): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const filename = path.join(os.tmpdir(), `agent-fleet-test-${suffix}.sqlite`);
    const config: DatabaseConfig = { client: 'sqlite', filename, limits };
    const db = await connectDatabase(config, { logger: KNEX_LOGGER });
    return {
      kind,
      config,
      db,
      close: async () => {
        await db.destroy();
        for (const extra of ['', '-wal', '-shm']) rmSync(filename + extra, { force: true });
      },
    };
  }
  const schema = `test_${suffix}`;
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  await admin.raw('create schema ??', [schema]);
  const config: DatabaseConfig = { client: 'pg', connectionString: PG_TEST_URL, limits };
  const db = await connectDatabase(config, { searchPath: schema, logger: KNEX_LOGGER });
  return {
    kind,
    config,
    db,
    searchPath: schema,
    close: async () => {
      await db.destroy();
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    },
  };
}

export const TEST_API_KEY = 'test-api-key-0123456789abcdef';
export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-at-least-32-bytes-long';
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789abcdef0123456789';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      API_KEYS: TEST_API_KEY,
      JWT_SECRET: TEST_JWT_SECRET,
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      PUBLIC_URL: 'http://localhost:8000',
      // Suites make hundreds of requests from one address; the rate-limit suite sets its own limits.
      RATE_LIMIT_API_MAX: '1000000',
      RATE_LIMIT_USER_MAX: '1000000',
      RATE_LIMIT_LOGIN_MAX: '1000000',
      RATE_LIMIT_ROOT_MAX: '1000000',
      RATE_LIMIT_SERVICE_KEY_MAX: '1000000',
      RATE_LIMIT_AGENT_KEY_MAX: '1000000',
    }),
    ...overrides,
  };
}

/** The sum of a metric's samples whose labels include `labels` (0 when there are none). */
export async function metricValue(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const values = (metric?.values ?? []) as Array<{ labels: Record<string, string | number>; value: number }>;
  return values.filter((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted)).reduce((sum, value) => sum + value.value, 0);
}

/** Log lines the app wrote, parsed. */
export class LogCapture extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      this.raw.push(line);
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  }
  text(): string {
    return this.raw.join('\n');
  }
}

export interface SignedInUser {
  user: User;
  password: string;
  token: string;
  /** The session the token belongs to. */
  sessionId: string;
  /** A client that sends this user's bearer token on every request. */
  http: supertest.Agent;
}

export interface TestApp {
  app: Express;
  config: Config;
  /** Signed in as a plain user of its own (bearer token on every request). */
  http: supertest.Agent;
  /** No credential at all. */
  anonymous: supertest.Agent;
  user: SignedInUser;
  tokens: TokenService;
  /** Begins sessions in the app's database, as sign-in does. */
  sessions: SessionService;
  database: TestDatabase;
  logs: LogCapture;
  metrics: Metrics;
  /** GET /metrics with the metrics token: the Prometheus text (fails unless 200). */
  scrapeMetrics(): Promise<string>;
  /** Serves the app on 127.0.0.1 (a free port) through the service's own HTTP server, for real clients; closed with the app. */
  listen(): Promise<string>;
  /** Creates a user (role `user` unless told) and signs it in. */
  signUp(options?: { role?: 'user' | 'admin'; email?: string; password?: string }): Promise<SignedInUser>;
  close(): Promise<void>;
}

let userCounter = 0;

/**
 * `overrides.database.limits`, when given, bound the test database's waits (its client and file are
 * the test's own). `options.apiDocument` replaces api.yaml (a planted document, for tests of the tests);
 * `options.deliveriesDue` is what the app tells when a delivery is sent again (a test's webhook engine).
 */
export async function startTestApp(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  options: { apiDocument?: ApiDocument; resolveHost?: ResolveHost; deliveriesDue?: () => void } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(kind, overrides.database?.limits);
  const config = testConfig({ logLevel: 'info', ...overrides, database: database.config });
  const logs = new LogCapture();
  const tokens = createTokenService(config.auth.jwt);
  const logger = createLogger(config, logs);
  const metrics = createMetrics();
  const app = buildApp({ config, db: database.db, logger, tokens, metrics, apiDocument: options.apiDocument, resolveHost: options.resolveHost, deliveriesDue: options.deliveriesDue });
  let server: Server | undefined;
  let baseUrl: Promise<string> | undefined;
  const listen = () => {
    baseUrl ??= new Promise<string>((resolve, reject) => {
      server = createHttpServer(app, { logger, metrics, timeouts: config.http });
      server.once('error', reject).listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server?.address() as AddressInfo).port}`));
    });
    return baseUrl;
  };
  const store = createStore(database.db);
  const sessions = createSessionService(store, tokens, { accessSeconds: config.auth.jwt.ttlSeconds, refreshSeconds: config.auth.refreshTtlSeconds });
  const signUpUser: TestApp['signUp'] = async (options = {}) => {
    userCounter += 1;
    const password = options.password ?? `password-${userCounter}-${randomBytes(4).toString('hex')}`;
    const email = options.email ?? `user-${userCounter}-${randomBytes(4).toString('hex')}@example.test`;
    const user = await signUp(store, { name: `User ${userCounter}`, email, password }, options.role ?? 'user');
    const { access_token: token, session } = await sessions.begin(user, 'password');
    return { user, password, token, sessionId: session.id, http: supertest.agent(app).set('Authorization', `Bearer ${token}`) };
  };
  const user = await signUpUser();
  return {
    app,
    config,
    http: user.http,
    anonymous: supertest.agent(app),
    user,
    tokens,
    sessions,
    database,
    logs,
    metrics,
    scrapeMetrics: async () => (await supertest(app).get('/metrics').set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`).expect(200)).text,
    listen,
    signUp: signUpUser,
    close: async () => {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server?.close(resolve));
      }
      await database.close();
    },
  };
}

const pgAvailable = () => process.env.TEST_PG_AVAILABLE !== '0';

/** The databases this run can reach (PostgreSQL is missing only outside CI: global-setup fails the run there). */
export const reachableDatabaseKinds = (): DatabaseKind[] => DATABASE_KINDS.filter((kind) => kind !== 'pg' || pgAvailable());

/** `describe`, or `describe.skip` when the shared PostgreSQL is not reachable. */
export const describeWithPostgres = (title: string, suite: () => void) => (pgAvailable() ? describe : describe.skip)(title, suite);

/** `describe`, or `describe.skip` when Redis is not reachable. */
export const describeWithRedis = (title: string, suite: () => void) => (process.env.TEST_REDIS_AVAILABLE === '0' ? describe.skip : describe)(title, suite);

/**
 * Runs the same suite against SQLite and PostgreSQL. `get()` gives the running app inside tests.
 * PostgreSQL suites are skipped (reason printed by the global setup) only outside CI.
 */
export function describeEachDatabase(
  title: string,
  suite: (get: () => TestApp, kind: DatabaseKind) => void,
  overrides: Partial<Config> = {},
): void {
  for (const kind of DATABASE_KINDS) {
    const describeFn = kind === 'pg' && !pgAvailable() ? describe.skip : describe;
    describeFn(`${title} [${kind}]`, () => {
      let current: TestApp | undefined;
      beforeAll(async () => {
        current = await startTestApp(kind, overrides);
      });
      afterAll(async () => {
        await current?.close();
      });
      suite(() => {
        if (!current) throw new Error('test app not started');
        return current;
      }, kind);
    });
  }
}
