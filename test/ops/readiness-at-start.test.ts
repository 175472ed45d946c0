import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { connectRedis } from '../../src/data/redis';
import { describeWithRedis } from '../support/harness';
import { killServers, listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';
import { REDIS_TEST_URL, redisTestConfig, SILENT } from '../support/services';

const API_KEY = 'ops-readiness-key-0123456789abcdef';

interface Readiness {
  status: number;
  body: { status: string; checks: Record<string, string> };
}

async function readiness(port: number): Promise<Readiness> {
  const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
  return { status: res.status, body: (await res.json()) as Readiness['body'] };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on: one the system hands out, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis that accepts connections and never answers a byte: its handshake never completes. */
async function silentRedis(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The real entry point, started with Redis configured: what a load balancer's readiness probe
 * sees from the moment the port opens. SQLite in memory: the database is never what is waited for.
 */
describe('readiness while the service starts (the real server process)', () => {
  const processes = useServerProcesses();

  describeWithRedis('with a healthy Redis', () => {
    it('when the process stalls right after sending commands (as building the app does after its limiters load their scripts), then they are answered, not timed out, and the circuit stays closed', async () => {
      const redis = await connectRedis(redisTestConfig(REDIS_TEST_URL, { commandTimeoutMs: 10, breakerFailures: 3 }), SILENT);
      try {
        // In a turn of its own, as a start resumes after an awaited connection: the next turn
        // runs the expired timers before node-redis writes the commands.
        const commands = await new Promise<Array<Promise<unknown>>>((resolve) =>
          setImmediate(() => {
            const sent = [redis.sendCommand(['PING']), redis.sendCommand(['PING']), redis.sendCommand(['PING'])];
            const stalledUntil = performance.now() + 100;
            while (performance.now() < stalledUntil) {
              // A synchronous task: nothing else runs, the commands are not even written yet.
            }
            resolve(sent);
          }),
        );
        expect(await Promise.allSettled(commands)).toEqual(Array(3).fill({ status: 'fulfilled', value: 'PONG' }));
        expect(redis.available()).toBe(true);
      } finally {
        await redis.close();
      }
    });

    it('when the port opens, then readiness is ready from the very first answer (never degraded), and the first requests are counted in Redis', async () => {
      const prefix = `readiness-${randomBytes(4).toString('hex')}:`;
      const server = processes.spawn(
        serviceEnv(API_KEY, {
          DATABASE_URL: 'sqlite::memory:',
          REDIS_URL: REDIS_TEST_URL,
          RATE_LIMIT_PREFIX: prefix,
          // A tight deadline, and a circuit that would stay open through every answer below once
          // opened: a start that opened it shows as degraded.
          REDIS_COMMAND_TIMEOUT_MS: '50',
          REDIS_BREAKER_PROBE_MS: '10000',
        }),
      );
      const port = await listeningPort(server);
      const answers: Readiness[] = [];
      for (let i = 0; i < 10; i++) {
        answers.push(await readiness(port));
        await pause(20);
      }
      expect(answers[0]).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'up', redis: 'up' } } });
      expect(answers.filter((answer) => answer.body.status !== 'ready')).toEqual([]);

      const listed = await fetch(`http://127.0.0.1:${port}/agents?limit=1`, { headers: { 'X-API-Key': API_KEY } });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('ratelimit')).toMatch(/^"service-key"; r=\d+; t=\d+$/);
      const redis = createClient({ url: REDIS_TEST_URL });
      await redis.connect();
      try {
        expect(await redis.keys(`${prefix}service-key:*`)).toHaveLength(1);
      } finally {
        await redis.close();
      }
    });
  });

  it('when Redis refuses connections (a closed port), then the service starts at once and reports degraded with Redis down', async () => {
    // A connect deadline of 10 s (10 commands' worth): far beyond what the start itself takes.
    const env = { DATABASE_URL: 'sqlite::memory:', REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, REDIS_COMMAND_TIMEOUT_MS: '1000', LOG_LEVEL: 'debug' };
    const server = processes.spawn(serviceEnv(API_KEY, env));
    const port = await listeningPort(server);
    expect(await readiness(port)).toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'up', redis: 'down' } } });
    // The refusal settles the first connection: the service does not wait out the deadline.
    const refused = server.logs.find((line) => line.msg === 'redis connection problem');
    const listening = server.logs.find((line) => String(line.msg).includes('listening'));
    expect(refused).toBeDefined();
    expect(Date.parse(String(listening?.time)) - Date.parse(String(refused?.time))).toBeLessThan(5000);
  });

  it('when Redis accepts the connection and never answers, then the service listens at the connect deadline and reports degraded with Redis down from its first answer', async () => {
    const silent = await silentRedis();
    // Connect deadline: 10 commands' worth (2 s).
    const server = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: 'sqlite::memory:', REDIS_URL: silent.url, REDIS_COMMAND_TIMEOUT_MS: '200', REDIS_BREAKER_PROBE_MS: '100' }));
    try {
      const port = await listeningPort(server);
      expect(await readiness(port)).toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'up', redis: 'down' } } });
      // The service serves (what a request needs from Redis passes, as when it is down).
      expect((await fetch(`http://127.0.0.1:${port}/agents?limit=1`, { headers: { 'X-API-Key': API_KEY } })).status).toBe(200);
    } finally {
      // Before the silent Redis closes: the service would go on reconnecting to it.
      await killServers(server);
      await silent.close();
    }
  });
});
