import path from 'node:path';
import { startPrivateRedis, waitUntil, type PrivateRedis } from '../support/private-services';
import { killServers, listeningPort, makeTempDir, serviceEnv, spawnServer, type ServerProcess } from '../support/server-process';

const API_KEY = 'faults-redis-key-0123456789abcdef';
const METRICS_TOKEN = 'faults-redis-metrics-token-0123456789abcdef';
const DEADLINE_MS = 100;
const SAMPLES = 200;

interface Latency {
  p50: number;
  p99: number;
  max: number;
}

function summarise(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? 0) };
}

describe('a real service process whose Redis dies, freezes and comes back', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let redis: PrivateRedis;
  let server: ServerProcess;
  let base: string;

  beforeAll(async () => {
    temp = makeTempDir();
    redis = await startPrivateRedis();
    server = spawnServer(
      serviceEnv(API_KEY, {
        DATABASE_URL: `sqlite:${path.join(temp.dir, 'fleet.sqlite')}`,
        METRICS_TOKEN,
        REDIS_URL: redis.url,
        REDIS_COMMAND_TIMEOUT_MS: String(DEADLINE_MS),
        RATE_LIMIT_API_MAX: '1000000',
        RATE_LIMIT_USER_MAX: '1000000',
      }),
    );
    base = `http://127.0.0.1:${await listeningPort(server)}`;
  });
  afterAll(async () => {
    await killServers(server);
    await redis.stop();
    temp.remove();
  });

  /** SAMPLES sequential GET /agents with the service key (counted in Redis by its limiter): every status, and the latency. */
  async function measure(): Promise<{ statuses: Set<number>; latency: Latency }> {
    const statuses = new Set<number>();
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/agents?limit=1`, { headers: { 'X-API-Key': API_KEY } });
      await res.arrayBuffer();
      samples.push(performance.now() - started);
      statuses.add(res.status);
    }
    return { statuses, latency: summarise(samples) };
  }
  const stateLines = () => server.logs.filter((line) => /^redis (unavailable|available again)/.test(String(line.msg))).map((line) => String(line.msg).split(':')[0]);
  /** Log lines reach standard output within the logger's flush interval (250 ms), not at once. */
  const stateLinesOnceWritten = async (count: number) => {
    await waitUntil(`${count} Redis state lines in the log`, async () => stateLines().length >= count);
    return stateLines();
  };
  const readiness = async () => (await (await fetch(`${base}/health/ready`)).json()) as { status: string };
  const metrics = async () => (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();

  it('when Redis is killed and then frozen, then requests pass with at most the deadline added, one log line marks each change of state, and counting resumes each time Redis answers again', async () => {
    const healthy = await measure();
    expect([...healthy.statuses]).toEqual([200]);

    await redis.kill();
    const killed = await measure();
    expect([...killed.statuses]).toEqual([200]);
    expect(await readiness()).toMatchObject({ status: 'degraded' });
    expect(await stateLinesOnceWritten(1)).toEqual(['redis unavailable']);

    await redis.start();
    await waitUntil('readiness to say ready', async () => (await readiness()).status === 'ready');
    expect(await stateLinesOnceWritten(2)).toEqual(['redis unavailable', 'redis available again']);
    const keysBack = await redis.keys('agent-fleet:rate-limit:service-key:*');
    await measure();
    expect((await redis.keys('agent-fleet:rate-limit:service-key:*')).length).toBeGreaterThanOrEqual(Math.max(1, keysBack.length));

    redis.freeze();
    const frozen = await measure();
    expect([...frozen.statuses]).toEqual([200]);
    expect(await readiness()).toMatchObject({ status: 'degraded' });
    redis.thaw();
    await waitUntil('readiness to say ready', async () => (await readiness()).status === 'ready');
    expect(await stateLinesOnceWritten(4)).toEqual(['redis unavailable', 'redis available again', 'redis unavailable', 'redis available again']);

    const text = await metrics();
    expect(text).toMatch(/dependency_failures_total\{dependency="redis",reason="circuit_open"\} [1-9]/);
    expect(text).toMatch(/dependency_failures_total\{dependency="redis",reason="timeout"\} [1-9]/);
    expect(text).toMatch(/dependency_up\{dependency="redis"\} 1/);

    console.log(
      `latency over ${SAMPLES} requests each (ms): healthy ${JSON.stringify(healthy.latency)}, Redis killed ${JSON.stringify(killed.latency)}, Redis frozen ${JSON.stringify(frozen.latency)}; deadline ${DEADLINE_MS} ms`,
    );
    // Before the breaker, each of these waited 5 s (killed) or as long as Redis stayed frozen.
    expect(killed.latency.max).toBeLessThan(1000);
    expect(frozen.latency.max).toBeLessThan(1000);
  });

  it('when fifty correct sign-ins from one client arrive at once, then all fifty succeed, and a wrong one afterwards is still counted', async () => {
    const email = `load-${Date.now()}@example.test`;
    const password = 'fault suite passphrase 4821';
    const created = await fetch(`${base}/api/v1/users`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Load', email, password }) });
    expect(created.status).toBe(201);
    const grant = (secret: string) =>
      fetch(`${base}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'password', username: email, password: secret }) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => grant(password)));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(200));
    expect((await grant('wrong password')).status).toBe(400);
    expect((await redis.keys('agent-fleet:rate-limit:sign-in:*')).length).toBeGreaterThan(0);
  });
});
