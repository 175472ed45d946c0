import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { startPrivatePostgres, waitUntil, type PrivatePostgres } from '../support/private-services';
import { killServers, listeningPort, serviceEnv, spawnServer, type ServerProcess } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';

const API_KEY = 'faults-pg-key-0123456789abcdef';
const METRICS_TOKEN = 'faults-pg-metrics-token-0123456789abcdef';

const envFor = (databaseUrl: string, extra: Record<string, string> = {}) => serviceEnv(API_KEY, { DATABASE_URL: databaseUrl, METRICS_TOKEN, ...extra });

/** The first "listening" line, or the exit that came instead. */
async function startOutcome(server: ServerProcess): Promise<'listening' | string> {
  return Promise.race([
    listeningPort(server).then(() => 'listening' as const),
    server.exited.then((exit) => `exited ${JSON.stringify(exit)}: ${server.stderr().trim().split('\n').at(-1) ?? ''}`),
  ]).catch((error: unknown) => String(error));
}

describe('several instances starting at the same instant on one fresh PostgreSQL database', () => {
  const ROUNDS = 5;
  const INSTANCES = 3;
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  afterAll(() => admin.destroy());

  it(`when ${INSTANCES} service processes start together on a new database (${ROUNDS} rounds), then every one comes up`, async () => {
    const failed: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const name = `fleet_race_${randomBytes(4).toString('hex')}`;
      await admin.raw('create database ??', [name]);
      const url = new URL(PG_TEST_URL);
      url.pathname = `/${name}`;
      const servers = Array.from({ length: INSTANCES }, () => spawnServer(envFor(url.toString())));
      try {
        const outcomes = await Promise.all(servers.map(startOutcome));
        failed.push(...outcomes.filter((outcome) => outcome !== 'listening'));
      } finally {
        await killServers(...servers);
        await admin.raw('drop database ?? with (force)', [name]);
      }
    }
    console.log(`concurrent starts: ${ROUNDS * INSTANCES - failed.length} of ${ROUNDS * INSTANCES} came up`);
    expect(failed).toEqual([]);
  });
});

describe('a real service process whose PostgreSQL stops, freezes and comes back (a private cluster)', () => {
  let cluster: PrivatePostgres;
  let server: ServerProcess;
  let base: string;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    server = spawnServer(envFor(cluster.url, { DATABASE_ACQUIRE_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' }));
    base = `http://127.0.0.1:${await listeningPort(server)}`;
  });
  afterAll(async () => {
    await killServers(server);
    cluster.destroy();
  });

  const list = async () => {
    const started = performance.now();
    const res = await fetch(`${base}/agents?limit=1`, { headers: { 'X-API-Key': API_KEY } });
    const body = (await res.json()) as unknown;
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: performance.now() - started };
  };
  const create = async () => (await fetch(`${base}/agents`, { method: 'POST', headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'kept', type: 'type_a' }) })).status;
  const readiness = async () => (await fetch(`${base}/health/ready`)).status;
  const unavailable = { error: 'service_unavailable', message: 'The database is unavailable; retry shortly' };

  it('when the cluster is stopped, then requests answer 503 with Retry-After at once, readiness is 503, and after it starts again the same process serves without a restart', async () => {
    expect(await create()).toBe(201);
    cluster.stop();
    const during = await Promise.all(Array.from({ length: 10 }, list));
    for (const answer of during) expect(answer).toMatchObject({ status: 503, retryAfter: '5', body: unavailable });
    expect(await readiness()).toBe(503);
    cluster.start();
    const recoveredInMs = await waitUntil('a 200 again', async () => (await list()).status === 200, 20_000);
    expect(await readiness()).toBe(200);
    expect(await create()).toBe(201);
    const metrics = await (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/dependency_failures_total\{dependency="database",reason="(connection|shutdown)"\} [1-9]/);
    console.log(`PostgreSQL stopped: 10 requests answered 503 in at most ${Math.round(Math.max(...during.map((a) => a.ms)))} ms; served again ${recoveredInMs} ms after the restart`);
  });

  it('when the cluster freezes (SIGSTOP), then requests answer 503 within the acquire and statement timeouts instead of hanging, and serve again once it thaws', async () => {
    expect((await list()).status).toBe(200);
    cluster.freeze();
    let during: Array<Awaited<ReturnType<typeof list>>>;
    try {
      during = await Promise.all(Array.from({ length: 5 }, list));
    } finally {
      cluster.thaw();
    }
    for (const answer of during) expect(answer).toMatchObject({ status: 503, retryAfter: '5', body: unavailable });
    // 1 s to acquire, 1 s for the statement and the client's second of grace: never the 60 s of knex's default.
    expect(Math.max(...during.map((answer) => answer.ms))).toBeLessThan(6000);
    const recoveredInMs = await waitUntil('a 200 again', async () => (await list()).status === 200, 20_000);
    console.log(`PostgreSQL frozen: 5 concurrent requests answered 503 in at most ${Math.round(Math.max(...during.map((a) => a.ms)))} ms; served again ${recoveredInMs} ms after the thaw`);
  });
});
