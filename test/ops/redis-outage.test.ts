import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app';
import { connectRedis, type RedisConnection } from '../../src/data/redis';
import { createHttpServer } from '../../src/http/http-server';
import { createMetrics, observeRedis, type Metrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { describeWithRedis, LogCapture, metricValue, openTestDatabase, TEST_API_KEY, testConfig, type TestDatabase } from '../support/harness';
import { startPrivateRedis, waitUntil, type PrivateRedis } from '../support/private-services';
import { redisTestConfig } from '../support/services';

/** The deadline under test: what a dead or frozen Redis may add to a request at most. */
const DEADLINE_MS = 100;

interface Running {
  base: string;
  logs: LogCapture;
  metrics: Metrics;
  redis: RedisConnection;
  close(): Promise<void>;
}

/** The app, served by the service's own HTTP server, counting in `privateRedis` behind the breaker. */
async function serve(database: TestDatabase, privateRedis: PrivateRedis): Promise<Running> {
  const logs = new LogCapture();
  const logger = createLogger({ logLevel: 'info' }, logs);
  const metrics = createMetrics();
  const redis = await connectRedis(redisTestConfig(privateRedis.url, { commandTimeoutMs: DEADLINE_MS, breakerFailures: 3, probeIntervalMs: 100 }), logger, observeRedis(metrics));
  const config = testConfig({ database: database.config });
  const app = buildApp({ config, db: database.db, logger, metrics, redis });
  const server: Server = createHttpServer(app, { logger, metrics, timeouts: config.http }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    logs,
    metrics,
    redis,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await redis.close();
    },
  };
}

/** GET /agents with the service key (its limiter counts it in Redis, after reading the address's count there): its status and how long it took. */
async function timedList(base: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/agents?limit=1`, { headers: { 'X-API-Key': TEST_API_KEY } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

async function readiness(base: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}/health/ready`);
  return { status: res.status, body: await res.json() };
}

const stateChanges = (logs: LogCapture) => logs.lines.filter((line) => /^redis (unavailable|available again)/.test(String(line.msg))).map((line) => String(line.msg).split(':')[0]);

describeWithRedis('a Redis that dies, freezes or starts late (a private redis-server, real HTTP)', () => {
  let database: TestDatabase;
  let privateRedis: PrivateRedis;
  let running: Running | undefined;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    privateRedis = await startPrivateRedis();
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    await privateRedis.stop();
  });

  it('when Redis is killed, then requests pass within the deadline, the circuit opens once, readiness says degraded, failures are counted, and when Redis returns shared counting resumes without a restart', async () => {
    running = await serve(database, privateRedis);
    expect((await timedList(running.base)).status).toBe(200);
    expect(await privateRedis.keys('agent-fleet:rate-limit:service-key:*')).toHaveLength(1);

    await privateRedis.kill();
    const during = [];
    for (let i = 0; i < 30; i++) during.push(await timedList(running.base));
    expect(during.map((r) => r.status)).toEqual(Array(30).fill(200));
    // node-redis's own queue timeout made each of these wait 5 s before.
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(1000);
    expect(stateChanges(running.logs)).toEqual(['redis unavailable']);
    expect(running.redis.available()).toBe(false);
    expect(await readiness(running.base)).toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'up', redis: 'down' } } });
    expect(await metricValue(running.metrics, 'dependency_failures_total', { dependency: 'redis' })).toBeGreaterThanOrEqual(30);
    expect(await metricValue(running.metrics, 'dependency_up', { dependency: 'redis' })).toBe(0);
    // The rate limiters' own per-request store errors are not logged: the breaker's line is the one.
    expect(running.logs.lines.filter((line) => line.level === 50)).toEqual([]);

    await privateRedis.start();
    await waitUntil('the circuit to close', async () => running?.redis.available() === true, 5000);
    expect(stateChanges(running.logs)).toEqual(['redis unavailable', 'redis available again']);
    expect(await readiness(running.base)).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'up', redis: 'up' } } });
    expect(await metricValue(running.metrics, 'dependency_up', { dependency: 'redis' })).toBe(1);
    // The restarted server is empty: a count in it proves the limiter uses Redis again.
    expect((await timedList(running.base)).status).toBe(200);
    expect(await privateRedis.keys('agent-fleet:rate-limit:service-key:*')).toHaveLength(1);
  });

  it('when Redis freezes (SIGSTOP), then no request waits for it longer than the deadline allows, and when it thaws the circuit closes again', async () => {
    running = await serve(database, privateRedis);
    expect((await timedList(running.base)).status).toBe(200);

    privateRedis.freeze();
    const during = [];
    for (let i = 0; i < 20; i++) during.push(await timedList(running.base));
    expect(during.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(1000);
    expect(stateChanges(running.logs)).toEqual(['redis unavailable']);
    expect(await metricValue(running.metrics, 'dependency_failures_total', { dependency: 'redis', reason: 'timeout' })).toBeGreaterThanOrEqual(3);

    privateRedis.thaw();
    await waitUntil('the circuit to close', async () => running?.redis.available() === true, 5000);
    expect(stateChanges(running.logs)).toEqual(['redis unavailable', 'redis available again']);
  });

  it('when Redis is down as the service starts, then it starts at once with the circuit open, and counts in Redis once Redis comes up', async () => {
    await privateRedis.kill();
    const started = performance.now();
    running = await serve(database, privateRedis);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(running.redis.available()).toBe(false);
    expect((await timedList(running.base)).status).toBe(200);

    await privateRedis.start();
    await waitUntil('the circuit to close', async () => running?.redis.available() === true, 5000);
    // rate-limit-redis's first SCRIPT LOAD failed at start: the count must still land.
    expect((await timedList(running.base)).status).toBe(200);
    expect(await privateRedis.keys('agent-fleet:rate-limit:service-key:*')).toHaveLength(1);
  });
});
