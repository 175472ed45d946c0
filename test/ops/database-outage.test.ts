import type { Knex } from 'knex';
import knex from 'knex';
import { buildApp } from '../../src/app';
import { databaseOutageOf } from '../../src/data/database-errors';
import { DEFAULT_DATABASE_LIMITS, type DatabaseLimits } from '../../src/data/database';
import { createHttpServer } from '../../src/http/http-server';
import { createMetrics, type Metrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { describeWithPostgres, LogCapture, metricValue, reachableDatabaseKinds, startTestApp, TEST_API_KEY, testConfig, type TestApp } from '../support/harness';
import { sparePort } from '../support/private-services';

const AGENT = { name: 'outage', type: 'type_a' };
const headers = { 'X-API-Key': TEST_API_KEY, 'Content-Type': 'application/json' };

const dependencyFailures = (metrics: Metrics, reason: string) => metricValue(metrics, 'dependency_failures_total', { dependency: 'database', reason });

/** A 503 in the root surface's declared shape, with Retry-After. */
function expectUnavailable(res: Response, body: unknown): void {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(body).toEqual({ error: 'service_unavailable', message: 'The database is unavailable; retry shortly' });
}

async function agentCount(app: TestApp): Promise<number> {
  const [row] = await app.database.db('agents').count({ n: '*' });
  return Number(row?.n);
}

const limits = (overrides: Partial<DatabaseLimits>): DatabaseLimits => ({ ...DEFAULT_DATABASE_LIMITS, ...overrides });

describe.each(reachableDatabaseKinds())('a database that cannot serve [%s]', (kind) => {
  let app: TestApp;
  let base: string;
  beforeAll(async () => {
    app = await startTestApp(kind, { database: { client: 'sqlite', filename: '', limits: limits({ poolMax: 2, acquireTimeoutMs: 300, statementTimeoutMs: 500, busyTimeoutMs: 200 }) } });
    base = await app.listen();
  });
  afterAll(() => app.close());

  it('when every pool connection stays busy past the acquire timeout, then requests answer 503 with Retry-After and a metric, and 201 once a connection is free', async () => {
    const held: unknown[] = [];
    // SQLite has one connection, PostgreSQL two here: hold them all.
    for (let i = 0; i < (kind === 'sqlite' ? 1 : 2); i++) held.push(await app.database.db.client.acquireConnection());
    try {
      const started = performance.now();
      const res = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify(AGENT) });
      expectUnavailable(res, await res.json());
      expect(performance.now() - started).toBeLessThan(3000);
      expect(await dependencyFailures(app.metrics, 'pool_timeout')).toBe(1);
      expect(app.logs.lines.find((line) => line.msg === 'database unavailable')).toMatchObject({ level: 'warn', reason: 'pool_timeout' });
    } finally {
      for (const connection of held) await app.database.db.client.releaseConnection(connection);
    }
    const count = await agentCount(app);
    const again = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify(AGENT) });
    expect(again.status).toBe(201);
    expect(await agentCount(app)).toBe(count + 1);
  });

  it('when a genuine bug fails a query (a table that is not there), then it stays a 500, not a 503', async () => {
    const res = await fetch(`${base}/agents?limit=1`, { headers });
    expect(res.status).toBe(200);
    await app.database.db.schema.renameTable('agents', 'agents_elsewhere');
    try {
      const broken = await fetch(`${base}/agents?limit=1`, { headers });
      expect(broken.status).toBe(500);
      expect(await broken.json()).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
    } finally {
      await app.database.db.schema.renameTable('agents_elsewhere', 'agents');
    }
  });

  if (kind === 'sqlite') {
    it('when another process holds the write lock past busy_timeout, then a write answers 503 (SQLITE_BUSY) and nothing is half-written', async () => {
      const filename = (app.config.database as { filename: string }).filename;
      // A second process's connection, as far as SQLite can tell: a handle of its own on the file.
      const other = knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
      const count = await agentCount(app);
      await other.raw('begin immediate');
      try {
        const res = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify(AGENT) });
        expectUnavailable(res, await res.json());
        expect(await dependencyFailures(app.metrics, 'busy')).toBeGreaterThanOrEqual(1);
      } finally {
        await other.raw('rollback');
        await other.destroy();
      }
      expect(await agentCount(app)).toBe(count);
    });

    it('when the disk is full (SQLITE_FULL), then a write answers 503 and nothing is half-written, and writes work again once there is room', async () => {
      const db = app.database.db;
      const created = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify(AGENT) });
      const agent = (await created.json()) as { id: string };
      const task = { title: 'large', input: { notes: 'x'.repeat(60_000) } };
      const tasksOf = async () => Number((await db('tasks').where({ agent_id: agent.id }).count({ n: '*' }))[0]?.n);
      const [{ page_count: pages }] = (await db.raw('pragma page_count')) as [{ page_count: number }];
      // The file may not grow by a single page: what a full disk does to SQLite.
      await db.raw(`pragma max_page_count = ${pages}`);
      try {
        const res = await fetch(`${base}/agents/${agent.id}/tasks`, { method: 'POST', headers, body: JSON.stringify(task) });
        expectUnavailable(res, await res.json());
        expect(await dependencyFailures(app.metrics, 'disk_full')).toBe(1);
      } finally {
        await db.raw('pragma max_page_count = 1073741823');
      }
      expect(await tasksOf()).toBe(0);
      const again = await fetch(`${base}/agents/${agent.id}/tasks`, { method: 'POST', headers, body: JSON.stringify(task) });
      expect(again.status).toBe(201);
      expect(await tasksOf()).toBe(1);
    });
  } else {
    it('when a statement waits on a lock past statement_timeout, then it answers 503 and the row is unchanged', async () => {
      const created = await fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify(AGENT) });
      const agent = (await created.json()) as { id: string };
      const db = app.database.db;
      await db.transaction(async (trx) => {
        await trx('agents').where({ id: agent.id }).forUpdate();
        const res = await fetch(`${base}/agents/${agent.id}`, { method: 'PATCH', headers, body: JSON.stringify({ name: 'renamed' }) });
        expectUnavailable(res, await res.json());
      });
      expect(await dependencyFailures(app.metrics, 'statement_timeout')).toBe(1);
      expect(await db('agents').where({ id: agent.id }).first()).toMatchObject({ name: 'outage' });
    });
  }
});

describeWithPostgres('a PostgreSQL server that refuses connections', () => {
  let db: Knex;
  afterEach(() => db?.destroy());

  it('when nothing listens where the database should be, then requests answer 503 fast, readiness is 503 unavailable, and the metric says connection', async () => {
    const port = await sparePort();
    db = knex({ client: 'pg', connection: { connectionString: `postgres://postgres@127.0.0.1:${port}/test`, connectionTimeoutMillis: 1000 }, acquireConnectionTimeout: 1000, pool: { min: 0, max: 2 }, log: { warn: () => undefined } });
    const logs = new LogCapture();
    const metrics = createMetrics();
    const config = testConfig();
    const server = createHttpServer(buildApp({ config, db, logger: createLogger({ logLevel: 'info' }, logs), metrics }), { logger: createLogger({ logLevel: 'silent' }), metrics, timeouts: config.http });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const res = await fetch(`${base}/agents`, { headers });
      expectUnavailable(res, await res.json());
      expect(await dependencyFailures(metrics, 'connection')).toBe(1);
      const api = await fetch(`${base}/api/v1/agents`, { headers: { 'X-API-Key': TEST_API_KEY } });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
      expect(await api.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', checks: { database: 'down' } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('which driver errors are outages', () => {
  const knexTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' });
  it.each([
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'connection'],
    [Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 'shutdown'],
    [Object.assign(new Error('the database system is starting up'), { code: '57P03' }), 'shutdown'],
    [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), 'statement_timeout'],
    [Object.assign(new Error('sorry, too many clients already'), { code: '53300' }), 'resources'],
    [Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }), 'disk_full'],
    [Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), 'disk_full'],
    [Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'busy'],
    [knexTimeout, 'pool_timeout'],
    [new Error('select * from "agents" - Query read timeout'), 'statement_timeout'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    [new Error('insert into "tasks" ("id") values ($1) - Connection terminated unexpectedly'), 'connection'],
    [new Error('timeout expired'), 'connection'],
  ])('when the driver says %s, then it is an outage of kind %s (503)', (error, kind) => {
    expect(databaseOutageOf(error)).toBe(kind);
  });

  it.each([
    Object.assign(new Error('relation "agents" does not exist'), { code: '42P01' }),
    Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }),
    Object.assign(new Error('no such table: agents'), { code: 'SQLITE_ERROR' }),
    new Error('select 1 - something else - timeout expired later'),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
  ])('when the failure is %s, then it is no outage (a bug stays a 500)', (error) => {
    expect(databaseOutageOf(error)).toBeUndefined();
  });
});
