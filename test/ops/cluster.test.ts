import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { nextRespawnDelay, RESPAWN_POLICY } from '../../src/process/cluster';
import { ConfigError, loadConfig, workerEnvironment } from '../../src/config/config';
import { loadContract, type Contract } from '../support/fuzzer/contract';
import { describeWithRedis } from '../support/harness';
import { killServers, makeTempDir, serviceEnv, spawnServer, tryConnect, type ServerProcess } from '../support/server-process';
import { REDIS_TEST_URL } from '../support/services';

const API_KEY = 'ops-cluster-key-0123456789abcdef';
const ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };
const KEY_MAX = 10;
const LOGIN_MAX = 3;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own, so that the primary hands the requests to the workers in turn. */
function send(port: number, method: string, target: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, agent: false, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end(options.body);
  });
}

/** The worker whose log line answered the request `id` (X-Request-ID). */
async function workerOf(server: ServerProcess, id: string): Promise<number> {
  const line = await server.waitForLog((entry) => entry.reqId === id && entry.msg === 'request completed');
  return line.worker as number;
}

/** A process that exists and is not a zombie. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

async function waitUntilGone(pids: number[], timeoutMs = 10_000): Promise<number[]> {
  const started = Date.now();
  while (pids.some(isRunning) && Date.now() - started < timeoutMs) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(isRunning);
}


/** The "worker started" lines so far: worker id and pid. */
function startedWorkers(server: ServerProcess): Array<{ worker: number; pid: number }> {
  return server.logs.filter((line) => line.msg === 'worker started').map((line) => ({ worker: line.worker as number, pid: line.pid as number }));
}

/** Starts the service with two workers and waits until both listen; the port they share. */
async function startCluster(env: Record<string, string>): Promise<{ server: ServerProcess; port: number }> {
  const server = spawnServer(serviceEnv(API_KEY, { WEB_CONCURRENCY: '2', ...env }));
  const listening = await Promise.all(
    [1, 2].map((worker) => server.waitForLog((line) => line.worker === worker && typeof line.port === 'number' && String(line.msg).includes('listening'))),
  );
  expect(listening[0]?.port).toBe(listening[1]?.port);
  return { server, port: listening[0]?.port as number };
}

/** A sample of the Prometheus text: the sum over the lines of `name` whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/**
 * More than the service key's limit of GET /api/v1/agents, a few at a time, each on a new
 * connection: exactly KEY_MAX are served, the rest answer 429 as api.yaml declares, and both
 * workers answered some. Each request also reads its address's count (the key's budget is its own).
 */
async function spendServiceKeyBudget(server: ServerProcess, port: number, contract: Contract, tag: string): Promise<void> {
  const total = KEY_MAX + 8;
  const answers: Array<Answer & { id: string }> = [];
  for (let batch = 0; batch < total; batch += 6) {
    const ids = Array.from({ length: Math.min(6, total - batch) }, (_, i) => `${tag}-${batch + i}`);
    answers.push(...(await Promise.all(ids.map(async (id) => ({ id, ...(await send(port, 'GET', '/api/v1/agents', { headers: { 'X-API-Key': API_KEY, 'X-Request-ID': id } })) })))));
  }
  const statuses: Record<number, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  expect(statuses).toEqual({ 200: KEY_MAX, 429: total - KEY_MAX });
  const refused = answers.filter((answer) => answer.status === 429);
  for (const answer of refused) {
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, String(value)]));
    expect(contract.check({ method: 'GET', target: '/api/v1/agents', status: answer.status, headers, body: Buffer.from(answer.body) })).toMatchObject({ ok: true });
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
  }
  const workers = new Set(await Promise.all(answers.map((answer) => workerOf(server, answer.id))));
  expect(workers.size).toBe(2);
  // No request passed uncounted for want of an answer from the store.
  expect(server.logs.filter((line) => String(line.msg).includes('express-rate-limit'))).toEqual([]);
}

describe('WEB_CONCURRENCY in the configuration', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('when it is unset, then one process serves by itself; when it is a whole number of workers, then that many', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    expect(loadConfig({ WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
  });

  it.each(['0', '-2', 'two', '1.5', '257', '40000'])('when WEB_CONCURRENCY=%s, then loading is refused with the range', (value) => {
    expect(problemsOf({ WEB_CONCURRENCY: value })).toEqual([`WEB_CONCURRENCY must be an integer from 1 to 256 (got "${value}")`]);
  });

  it('when several workers would each open their own in-memory SQLite database, then loading is refused', () => {
    expect(problemsOf({ WEB_CONCURRENCY: '2', DATABASE_URL: 'sqlite::memory:' })).toEqual([
      'WEB_CONCURRENCY above 1 needs a database the workers share: with DATABASE_URL=sqlite::memory: each worker would have a database of its own',
    ]);
  });

  it('when it exceeds the cores, or /metrics would only be served per worker, then the start says so', () => {
    const cores = availableParallelism();
    const secret = { JWT_SECRET: 'a-configured-secret-of-at-least-32-bytes' };
    expect(loadConfig({ ...secret, WEB_CONCURRENCY: String(cores + 1) }).warnings).toEqual([
      `WEB_CONCURRENCY=${cores + 1} is more than the ${cores} cores available: the extra workers add memory and context switches, not throughput`,
    ]);
    expect(loadConfig({ ...secret, WEB_CONCURRENCY: '2', METRICS_TOKEN: 'm'.repeat(32) }).warnings).toEqual([
      "WEB_CONCURRENCY=2 with METRICS_TOKEN only: /metrics on the API listener answers with the samples of whichever worker took the connection; set METRICS_PORT for the sum of every worker's",
    ]);
    expect(loadConfig({ ...secret, WEB_CONCURRENCY: '2', METRICS_TOKEN: 'm'.repeat(32), METRICS_PORT: '9464' }).warnings).toEqual([]);
  });

  it('when the primary made up a JWT secret and a token key (none configured), then its workers are given the same ones; configured ones are left to the environment', () => {
    const env = { WEB_CONCURRENCY: '2' };
    const config = loadConfig(env);
    const shared = workerEnvironment(config, env);
    expect(Object.keys(shared).sort()).toEqual(['JWT_SECRET', 'TOKEN_ENCRYPTION_KEY']);
    const worker = loadConfig({ ...env, ...shared });
    expect(worker.auth.jwt).toEqual(config.auth.jwt);
    expect(worker.tokenEncryptionKey.equals(config.tokenEncryptionKey)).toBe(true);
    expect(worker.warnings).toEqual([]);
    const configured = { ...env, JWT_SECRET: 'a-configured-secret-of-at-least-32-bytes', TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    expect(workerEnvironment(loadConfig(configured), configured)).toEqual({});
  });

  it('when a worker keeps dying young, then it is replaced after 1 s, 2 s, 4 s... up to 30 s; one that ran 30 s is replaced at once', () => {
    const delays: number[] = [];
    let delay = 0;
    for (let exit = 0; exit < 7; exit++) delays.push((delay = nextRespawnDelay(delay, 500)));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(nextRespawnDelay(30_000, RESPAWN_POLICY.stableMs)).toBe(0);
    expect(nextRespawnDelay(0, 100)).toBe(1000);
  });
});

describe('WEB_CONCURRENCY=2: two worker processes on SQLite, counters kept by the primary (no Redis)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: ServerProcess | undefined;
  let port: number;
  let metricsPort: number;
  /** Both workers' young generations once they listen: whatever tsx's loader grew them to before the heap flags were set. */
  let newSpaceAtStart: number;
  let contract: Contract;
  /** The admin's access token, taken before the password guesses below spend this client's sign-in budget. */
  let adminToken: string;

  beforeAll(async () => {
    temp = makeTempDir();
    contract = await loadContract();
    ({ server, port } = await startCluster({
      DATABASE_URL: `sqlite:${path.join(temp.dir, 'fleet.sqlite')}`,
      RATE_LIMIT_SERVICE_KEY_MAX: String(KEY_MAX),
      RATE_LIMIT_LOGIN_MAX: String(LOGIN_MAX),
      // The per-client budget is the one under test: the account's own back-off stays out of the way.
      LOGIN_ACCOUNT_FREE_FAILURES: '100',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      METRICS_PORT: '0',
    }));
    metricsPort = (await server.waitForLog((line) => typeof line.metricsPort === 'number')).metricsPort as number;
    newSpaceAtStart = sample(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), 'nodejs_heap_space_size_total_bytes', { space: 'new' });
    const grant = new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password }).toString();
    adminToken = (JSON.parse((await send(port, 'POST', '/token', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: grant })).body) as { access_token: string }).access_token;
  }, 60_000);

  afterAll(async () => {
    const pids = server ? startedWorkers(server).map((worker) => worker.pid) : [];
    await killServers(server);
    await waitUntilGone(pids);
    temp.remove();
  });

  it('when started, then the primary migrates and creates the admin once, and forks two workers of its own that listen on one port', () => {
    const running = server as ServerProcess;
    const workers = startedWorkers(running);
    expect(workers).toHaveLength(2);
    expect(new Set(workers.map((worker) => worker.pid)).size).toBe(2);
    for (const { pid } of workers) expect(parentOf(pid)).toBe(running.child.pid);
    const admin = running.logs.filter((line) => line.msg === 'created the first admin' || line.msg === 'admin account exists: left unchanged');
    expect(admin).toEqual([expect.objectContaining({ msg: 'created the first admin' })]);
    expect(admin[0]).not.toHaveProperty('worker');
    expect(running.logs.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
  });

  // Needs write transactions that begin IMMEDIATE (src/data): a deferred one that read the quota
  // fails with SQLITE_BUSY_SNAPSHOT when the other worker wrote between its read and its write.
  it('when one user creates agents concurrently through both workers, then every write succeeds: SQLite writers wait on the busy timeout', async () => {
    const grant = new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password }).toString();
    const token = JSON.parse((await send(port, 'POST', '/token', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: grant })).body) as { access_token: string };
    // A user's agent: the transaction reads the user's quota before it inserts.
    const ids = Array.from({ length: 24 }, (_, i) => `write-${i}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        send(port, 'POST', '/agents', {
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token.access_token}`, 'X-Request-ID': id },
          body: JSON.stringify({ name: `concurrent ${i}`, type: 'type_a' }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status === 201 ? 201 : `${answer.status} ${answer.body}`)).toEqual(Array(ids.length).fill(201));
    const workers = new Set(await Promise.all(ids.map((id) => workerOf(server as ServerProcess, id))));
    expect(workers.size).toBe(2);
    const listed = await send(port, 'GET', '/agents?limit=100', { headers: { Authorization: `Bearer ${token.access_token}` } });
    expect(JSON.parse(listed.body) as unknown[]).toHaveLength(ids.length);
  });

  it('when more requests than RATE_LIMIT_SERVICE_KEY_MAX arrive over new connections, then both workers serve and exactly the limit succeeds: the rest are 429 with the declared body', async () => {
    await spendServiceKeyBudget(server as ServerProcess, port, contract, 'primary-counted');
  });

  it('when the metrics listener is scraped, then it serves the sum of both workers\' samples', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'http_requests_total', { route: '/api/v1/agents', status: '200' })).toBe(KEY_MAX);
    expect(sample(text, 'http_requests_total', { route: '/api/v1/agents', status: '429' })).toBe(8);
    expect(sample(text, 'rate_limit_hits_total', { limiter: 'service-key' })).toBe(8);
    // Each worker's V8 young generation keeps the semi-spaces it had when src/process/heap-limits.ts
    // ran (started without a cap, as here): it did not grow under the requests above.
    expect(newSpaceAtStart).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_space_size_total_bytes', { space: 'new' })).toBeLessThanOrEqual(newSpaceAtStart);
  });

  it('when one client guesses passwords through both workers, then only RATE_LIMIT_LOGIN_MAX guesses are checked in all: the rest are 429', async () => {
    const answers: Array<{ status: number; id: string }> = [];
    for (let guess = 0; guess < LOGIN_MAX + 5; guess++) {
      const id = `guess-${guess}`;
      const body = new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password: `wrong guess ${guess}` }).toString();
      const answer = await send(port, 'POST', '/token', { headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-ID': id }, body });
      answers.push({ status: answer.status, id });
    }
    expect(answers.map((answer) => answer.status)).toEqual([...Array(LOGIN_MAX).fill(400), ...Array(5).fill(429)]);
    const workers = new Set(await Promise.all(answers.map((answer) => workerOf(server as ServerProcess, answer.id))));
    expect(workers.size).toBe(2);
  });

  it('when a worker is killed, then the primary logs it and starts another, and the counters it had used live on in the primary', async () => {
    const running = server as ServerProcess;
    const [victim] = startedWorkers(running);
    process.kill(victim?.pid as number, 'SIGKILL');
    const exit = await running.waitForLog((line) => line.msg === 'worker exited unexpectedly: replacing it' && line.pid === victim?.pid);
    expect(exit).toMatchObject({ level: 'error', worker: victim?.worker, signal: 'SIGKILL', respawnInMs: expect.any(Number) });
    const replacement = await running.waitForLog((line) => line.msg === 'worker started' && line.worker === 3);
    await running.waitForLog((line) => line.worker === 3 && String(line.msg).includes('listening'));
    expect(isRunning(replacement.pid as number)).toBe(true);
    expect(isRunning(victim?.pid as number)).toBe(false);
    // Both workers' answers: the budget spent before the replacement is still spent.
    const after = await Promise.all([0, 1, 2, 3].map(() => send(port, 'GET', '/api/v1/agents', { headers: { 'X-API-Key': API_KEY } })));
    expect(after.map((answer) => answer.status)).toEqual([429, 429, 429, 429]);
  }, 60_000);

  it('when SIGTERM arrives with requests in flight on both workers, then each completes, new connections are refused, every process exits and the primary exits 0', async () => {
    const running = server as ServerProcess;
    const workers = startedWorkers(running).filter(({ pid }) => isRunning(pid));
    expect(workers).toHaveLength(2);
    // A person's credential: the service key's budget was spent above.
    // Requests whose bodies are half sent: each worker's 100 Continue shows it holds one.
    const inFlight = Array.from({ length: 4 }, (_, i) => {
      const body = JSON.stringify({ name: `drained ${i}`, type: 'type_b' });
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/agents',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Authorization: `Bearer ${adminToken}`, Expect: '100-continue' },
      });
      const answer = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
        req.once('response', (res) => res.resume().once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection })));
        req.once('error', reject);
      });
      return { req, body, answer, continued: new Promise<void>((resolve) => req.once('continue', resolve)) };
    });
    for (const request of inFlight) {
      await request.continued;
      request.req.write(request.body.slice(0, 10));
    }

    running.child.kill('SIGTERM');
    const draining = await Promise.all(workers.map(({ worker }) => running.waitForLog((line) => line.worker === worker && line.msg === 'draining in-flight requests')));
    // Round robin: each worker holds some of the four.
    expect(draining.map((line) => line.inFlight as number).every((count) => count >= 1)).toBe(true);
    expect(draining.reduce((sum, line) => sum + (line.inFlight as number), 0)).toBe(4);
    let refused: 'refused' | 'accepted' = 'accepted';
    for (let attempt = 0; attempt < 40 && refused === 'accepted'; attempt++) {
      refused = await tryConnect(port);
      if (refused === 'accepted') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused).toBe('refused');

    for (const request of inFlight) request.req.end(request.body.slice(10));
    expect(await Promise.all(inFlight.map((request) => request.answer))).toEqual(Array(4).fill({ status: 201, connection: 'close' }));
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(startedWorkers(running).map(({ pid }) => pid))).toEqual([]);
    expect(running.logs.filter((line) => line.msg === 'stopped').map((line) => line.worker)).toEqual(expect.arrayContaining([...workers.map(({ worker }) => worker), undefined]));
    expect(running.logs.at(-1)).toMatchObject({ msg: 'stopped', clean: true });
    expect(running.stderr()).toBe('');
  }, 30_000);
});

describe('WEB_CONCURRENCY=2 when no worker can start', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: ServerProcess | undefined;
  let taken: net.Server;

  beforeAll(async () => {
    temp = makeTempDir();
    taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
  });
  afterAll(async () => {
    await killServers(server);
    await new Promise((resolve) => taken.close(resolve));
    temp.remove();
  });

  it('when the port is taken, then the primary does not respawn them forever: it stops and exits 1', async () => {
    const { port } = taken.address() as net.AddressInfo;
    server = spawnServer(serviceEnv(API_KEY, { WEB_CONCURRENCY: '2', PORT: String(port), DATABASE_URL: `sqlite:${path.join(temp.dir, 'fleet.sqlite')}` }));
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.logs.filter((line) => line.msg === 'worker started')).toHaveLength(2);
    expect(server.logs).toContainEqual(expect.objectContaining({ level: 'error', msg: 'a worker failed before any was listening: stopping (see its error above)', code: 1 }));
    expect(server.stderr()).toContain('EADDRINUSE');
    expect(await waitUntilGone(startedWorkers(server).map(({ pid }) => pid))).toEqual([]);
  }, 60_000);
});

describeWithRedis('WEB_CONCURRENCY=2 with REDIS_URL: the workers count in the shared Redis', () => {
  const prefix = `agent-fleet-test:cluster:${randomBytes(6).toString('hex')}:`;
  let temp: ReturnType<typeof makeTempDir>;
  let server: ServerProcess | undefined;
  let port: number;
  let contract: Contract;

  beforeAll(async () => {
    temp = makeTempDir();
    contract = await loadContract();
    ({ server, port } = await startCluster({
      DATABASE_URL: `sqlite:${path.join(temp.dir, 'fleet.sqlite')}`,
      REDIS_URL: REDIS_TEST_URL,
      // The suites share two cores: a loaded machine must not make Redis look slow (requests would pass uncounted).
      REDIS_COMMAND_TIMEOUT_MS: '2000',
      RATE_LIMIT_PREFIX: prefix,
      RATE_LIMIT_SERVICE_KEY_MAX: String(KEY_MAX),
      METRICS_PORT: '0',
    }));
  }, 60_000);

  afterAll(async () => {
    const pids = server ? startedWorkers(server).map((worker) => worker.pid) : [];
    await killServers(server);
    await waitUntilGone(pids);
    temp.remove();
    const redis = createClient({ url: REDIS_TEST_URL });
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(keys);
    await redis.close();
  });

  it('when more requests than RATE_LIMIT_SERVICE_KEY_MAX arrive over new connections, then both workers serve and exactly the limit succeeds, counted under the prefix in Redis', async () => {
    await spendServiceKeyBudget(server as ServerProcess, port, contract, 'redis-counted');
    const redis = createClient({ url: REDIS_TEST_URL });
    await redis.connect();
    try {
      expect(await redis.keys(`${prefix}service-key:*`)).toHaveLength(1);
    } finally {
      await redis.close();
    }
    const metricsPort = (await (server as ServerProcess).waitForLog((line) => typeof line.metricsPort === 'number')).metricsPort as number;
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    // Up in both workers: the minimum, not the sum.
    expect(sample(text, 'dependency_up', { dependency: 'redis' })).toBe(1);
  });

  it('when the primary is killed outright, then its workers do not outlive it', async () => {
    const running = server as ServerProcess;
    const pids = startedWorkers(running).map(({ pid }) => pid);
    running.child.kill('SIGKILL');
    await running.exited;
    expect(await waitUntilGone(pids)).toEqual([]);
  });
});
