import path from 'node:path';
import knex from 'knex';
import { randomBytes } from 'node:crypto';
import { openEventStream } from '../support/event-stream-client';
import { describeWithPostgres, describeWithRedis } from '../support/harness';
import { listeningPort, serviceEnv, useServerProcesses, type ServerProcess } from '../support/server-process';
import { PG_TEST_URL, REDIS_TEST_URL } from '../support/services';

const API_KEY = 'event-fanout-key-0123456789abcdef';
const AS_SERVICE = { 'X-API-Key': API_KEY };

/** Two instances on one database: an agent created on the first reaches a stream open on the second within a second. */
async function assertFanOut(servers: ServerProcess[]): Promise<void> {
  const [first, second] = await Promise.all(servers.map(listeningPort));
  const reader = await openEventStream(`http://127.0.0.1:${second}/api/v1/events?types=agent.created`, AS_SERVICE);
  try {
    // The stream is registered once its first line arrives; give the second instance's listener a moment to connect.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${first}/api/v1/agents`, {
      method: 'POST',
      headers: { ...AS_SERVICE, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'far away', type: 'type_a' }),
    });
    expect(res.status).toBe(201);
    const agent = ((await res.json()) as { data: { id: string } }).data;
    const [message] = await reader.waitFor(1, 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(JSON.parse(message?.data ?? '{}')).toMatchObject({ type: 'agent.created', agent_id: agent.id });
  } finally {
    reader.close();
  }
}

describe('events reach the streams of every instance', () => {
  const processes = useServerProcesses();

  it('when two instances share one SQLite file, then an event committed on one reaches a stream on the other within a second (the poll)', async () => {
    const env = serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}` });
    const first = processes.spawn(env);
    await listeningPort(first);
    await assertFanOut([first, processes.spawn(env)]);
  });

  it('when an instance gets SIGTERM, then its open streams end and it exits', async () => {
    const server = processes.spawn(serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(processes.tempDir(), 'drain.sqlite')}` }));
    const port = await listeningPort(server);
    const reader = await openEventStream(`http://127.0.0.1:${port}/api/v1/events`, AS_SERVICE);
    server.child.kill('SIGTERM');
    const ended = await Promise.race([reader.ended.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still open'), 3000))]);
    expect(ended).toBe('ended');
    expect((await server.exited).code).toBe(0);
  });

  describeWithRedis('with REDIS_URL', () => {
    it('when two instances share SQLite and Redis and poll rarely, then Redis pub/sub carries the event within a second', async () => {
      const env = serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(processes.tempDir(), 'redis.sqlite')}`, REDIS_URL: REDIS_TEST_URL, EVENTS_POLL_MS: '60000' });
      const first = processes.spawn(env);
      await listeningPort(first);
      await assertFanOut([first, processes.spawn(env)]);
    });
  });

  describeWithPostgres('on PostgreSQL', () => {
    const schema = `test_fanout_${randomBytes(4).toString('hex')}`;
    const admin = knex({ client: 'pg', connection: PG_TEST_URL });
    beforeAll(async () => {
      await admin.raw('create schema ??', [schema]);
    });
    afterAll(async () => {
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    });

    it('when two instances share one PostgreSQL schema and poll rarely, then LISTEN/NOTIFY carries the event within a second', async () => {
      const url = new URL(PG_TEST_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = serviceEnv(API_KEY, { DATABASE_URL: url.toString(), EVENTS_POLL_MS: '60000' });
      const first = processes.spawn(env);
      await listeningPort(first);
      await assertFanOut([first, processes.spawn(env)]);
    });
  });
});
