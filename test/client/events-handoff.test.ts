import { randomBytes } from 'node:crypto';
import path from 'node:path';
import knex from 'knex';
import { createAgentFleetClient, unwrap, type ReconnectEvent } from '../../src/client';
import { TEST_API_KEY, describeWithPostgres } from '../support/harness';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';

/** The id of an agent's first event (`agent.created`), read as a JSON page. */
async function firstEventId(client: ReturnType<typeof createAgentFleetClient>, agentId: string): Promise<string> {
  const page = await unwrap(client.GET('/api/v1/events', { params: { query: { agent_id: agentId } } }));
  // The operation also declares the stream (text/event-stream): a page is what JSON answers.
  if (typeof page === 'string') throw new Error('a stream where a page was asked for');
  return page.data[0]?.id ?? '';
}

/** Two service processes on one database; SIGTERM to the one a client streams from sends it to the other. */
function shutdownHandOff(processes: ReturnType<typeof useServerProcesses>, databaseUrl: () => Promise<string>): void {
  it('when the instance streaming to the client shuts down, then the client reconnects to another with Last-Event-ID and misses nothing, repeats nothing', async () => {
    const env = serviceEnv(TEST_API_KEY, { DATABASE_URL: await databaseUrl(), EVENTS_POLL_MS: '100' });
    const first = processes.spawn(env);
    const firstPort = await listeningPort(first);
    const second = processes.spawn(env);
    const secondPort = await listeningPort(second);

    // The client reaches the first instance until it is told to go, then the second (a load balancer).
    let port = firstPort;
    const sent: { port: string; lastEventId: string | null; after: string | null }[] = [];
    const client = createAgentFleetClient({
      baseUrl: `http://127.0.0.1:${firstPort}`,
      auth: { apiKey: TEST_API_KEY },
      fetch: (request) => {
        const url = new URL(request.url);
        url.port = String(port);
        if (url.pathname === '/api/v1/events') sent.push({ port: url.port, lastEventId: request.headers.get('Last-Event-ID'), after: url.searchParams.get('after') });
        return fetch(new Request(url, request));
      },
    });
    const writer = createAgentFleetClient({ baseUrl: `http://127.0.0.1:${secondPort}`, auth: { apiKey: TEST_API_KEY } });
    const agent = (await unwrap(writer.POST('/api/v1/agents', { body: { name: 'handed over', type: 'type_a' } }))).data;
    const created = await firstEventId(writer, agent.id);
    const createTask = (title: string) => unwrap(writer.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: agent.id } }, body: { title } }));
    const reconnects: ReconnectEvent[] = [];
    const iterator = client.events({ agentId: agent.id, types: ['task.created'], after: created, onReconnect: (event) => reconnects.push(event) })[Symbol.asyncIterator]();

    await createTask('one');
    const one = (await iterator.next()).value;
    expect(one?.data).toMatchObject({ title: 'one' });

    port = secondPort;
    first.child.kill('SIGTERM');
    await createTask('two');
    await createTask('three');
    const titles = [(await iterator.next()).value, (await iterator.next()).value].map((event) => event?.data['title']);
    expect(titles).toEqual(['two', 'three']);
    expect((await first.exited).code).toBe(0);

    expect(sent).toEqual([
      { port: String(firstPort), lastEventId: null, after: created },
      { port: String(secondPort), lastEventId: one?.id, after: null },
    ]);
    expect(reconnects).toEqual([expect.objectContaining({ attempt: 1, lastEventId: one?.id, cause: { closed: true } })]);
    // Nothing more than the three, and nothing twice.
    await createTask('four');
    expect((await iterator.next()).value?.data['title']).toBe('four');
    await iterator.return?.(undefined);
  }, 60_000);
}

describe('client.events() across real service processes [sqlite]', () => {
  const processes = useServerProcesses();
  shutdownHandOff(processes, async () => `sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`);
});

describeWithPostgres('client.events() across real service processes [pg]', () => {
  const schema = `test_client_events_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  beforeAll(async () => {
    await admin.raw('create schema ??', [schema]);
  });
  afterAll(async () => {
    await admin.raw('drop schema ?? cascade', [schema]);
    await admin.destroy();
  });
  shutdownHandOff(useServerProcesses(), async () => {
    const url = new URL(PG_TEST_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  });
});
