import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentFleetError, createAgentFleetClient, unwrap, type EventsOptions, type FleetEvent, type ReconnectEvent } from '../../src/client';
import { createStore } from '../../src/data/store';
import { pruneEvents } from '../../src/domain/events';
import { TEST_API_KEY, reachableDatabaseKinds, startTestApp, testConfig, type DatabaseKind, type TestApp } from '../support/harness';

type Connection = { url: URL; headers: IncomingMessage['headers']; openedAt: number; closedAt?: number };
/** How the server answers one connection: it may write, end, or destroy the socket. */
type Step = (res: ServerResponse, connection: Connection, server: EventServer) => void;

const eventOf = (id: number, type: FleetEvent['type'] = 'task.created'): FleetEvent => ({
  id: String(id),
  type,
  occurred_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
  agent_id: 'agent-1',
  workspace_id: 'workspace-1',
  actor: null,
  task_id: `task-${id}`,
  data: { status: 'queued', n: id },
});
const frame = (event: FleetEvent): string => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** A real SSE server that answers each connection to /api/v1/events with the next scripted step. */
class EventServer {
  readonly connections: Connection[] = [];
  log: FleetEvent[] = [];
  #steps: Step[] = [];
  readonly #server: Server = createServer((req, res) => {
    const connection: Connection = { url: new URL(req.url ?? '/', 'http://localhost'), headers: req.headers, openedAt: Date.now() };
    this.connections.push(connection);
    res.on('close', () => (connection.closedAt = Date.now()));
    const step = this.#steps.shift() ?? ((response) => json(response, 500, { error: { code: 'INTERNAL_ERROR', message: 'no step left' } }));
    step(res, connection, this);
  });
  baseUrl = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }
  script(log: FleetEvent[], ...steps: Step[]): void {
    this.log = log;
    this.#steps = steps;
    this.connections.length = 0;
  }
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
  /** The logged events after the connection's Last-Event-ID (or `after`), as the service resumes. */
  eventsFor(connection: Connection): FleetEvent[] {
    const after = connection.headers['last-event-id'] ?? connection.url.searchParams.get('after');
    const index = after === undefined || after === null ? -1 : this.log.findIndex((event) => event.id === after);
    return this.log.slice(index + 1);
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
function openStream(res: ServerResponse, retryMs?: number): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  res.write(retryMs === undefined ? ': open\n\n' : `retry: ${retryMs}\n\n`);
}
/** Sends `count` events (default all) the connection has not seen, then `then`: keeps it open, ends it (a shutdown) or drops it. */
const stream =
  (options: { retryMs?: number; count?: number; then?: 'open' | 'end' | 'drop'; before?: FleetEvent[] } = {}): Step =>
  (res, connection, server) => {
    openStream(res, options.retryMs);
    for (const event of [...(options.before ?? []), ...server.eventsFor(connection).slice(0, options.count)]) res.write(frame(event));
    if (options.then === 'end') res.end();
    else if (options.then === 'drop') setTimeout(() => res.socket?.destroy(), 20);
  };
const refuse =
  (status: number, code: string, headers: Record<string, string> = {}): Step =>
  (res) =>
    json(res, status, { error: { code, message: code.toLowerCase() } }, headers);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The id of an agent's first event (`agent.created`), read as a JSON page. */
async function firstEventId(client: ReturnType<typeof createAgentFleetClient>, agentId: string): Promise<string> {
  const page = await unwrap(client.GET('/api/v1/events', { params: { query: { agent_id: agentId } } }));
  // The operation also declares the stream (text/event-stream): a page is what JSON answers.
  if (typeof page === 'string') throw new Error('a stream where a page was asked for');
  return page.data[0]?.id ?? '';
}

describe('client.events() against an SSE server of its own', () => {
  const server = new EventServer();
  const reconnects: ReconnectEvent[] = [];
  const clientWith = (auth: Parameters<typeof createAgentFleetClient>[0]['auth'] = { apiKey: 'key-1' }) => createAgentFleetClient({ baseUrl: server.baseUrl, auth });
  const eventsOf = (options: EventsOptions = {}, client = clientWith()) =>
    client.events({ reconnectDelayMs: 20, onReconnect: (event) => reconnects.push(event), ...options });
  /** Takes `count` events, then breaks out of the loop. */
  const take = async (iterator: AsyncIterable<FleetEvent>, count: number): Promise<FleetEvent[]> => {
    const taken: FleetEvent[] = [];
    if (count === 0) return taken;
    for await (const event of iterator) {
      taken.push(event);
      if (taken.length >= count) break;
    }
    return taken;
  };
  const until = async (condition: () => boolean, timeoutMs = 5000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`Not met in time: ${JSON.stringify(server.connections)}`);
      await delay(10);
    }
  };

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    reconnects.length = 0;
  });

  it('when events arrive, then they are yielded in order, typed, from one connection that asked for the stream with the filters and the credential', async () => {
    const log = [1, 2, 3, 4].map((id) => eventOf(id, id % 2 === 0 ? 'task.succeeded' : 'task.created'));
    server.script(log, stream());
    const events = await take(eventsOf({ agentId: 'agent-1', types: ['task.created', 'task.succeeded'], after: '0' }), 4);
    expect(events).toEqual(log);
    expect(events.map((event) => [event.id, event.type, event.task_id])).toEqual([
      ['1', 'task.created', 'task-1'],
      ['2', 'task.succeeded', 'task-2'],
      ['3', 'task.created', 'task-3'],
      ['4', 'task.succeeded', 'task-4'],
    ]);
    expect(server.connections).toHaveLength(1);
    const [connection] = server.connections;
    expect(connection?.url.pathname).toBe('/api/v1/events');
    expect(connection?.url.search).toBe('?agent_id=agent-1&types=task.created,task.succeeded&after=0');
    expect(connection?.headers).toMatchObject({ accept: 'text/event-stream', 'x-api-key': 'key-1' });
    expect(connection?.headers['last-event-id']).toBeUndefined();
  });

  it('when the connection drops, then the client reconnects with Last-Event-ID of the last event it yielded and yields none twice, even one the server repeats', async () => {
    const log = [1, 2, 3, 4, 5].map((id) => eventOf(id));
    server.script(log, stream({ count: 2, then: 'drop' }), stream({ before: [eventOf(2)] }));
    const events = await take(eventsOf(), 5);
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(server.connections.map((connection) => connection.headers['last-event-id'])).toEqual([undefined, '2']);
    expect(reconnects).toEqual([expect.objectContaining({ attempt: 1, lastEventId: '2', cause: { error: expect.anything() } })]);
  });

  it('when the server ends the stream (a shutdown), then the client waits the retry: it was sent, not its own delay, and resumes where it was', async () => {
    const log = [1, 2, 3].map((id) => eventOf(id));
    server.script(log, stream({ retryMs: 300, count: 1, then: 'end' }), stream({ retryMs: 300 }));
    const events = await take(eventsOf({ reconnectDelayMs: 5000 }), 3);
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3']);
    const [first, second] = server.connections;
    const gap = (second?.openedAt ?? 0) - (first?.closedAt ?? 0);
    expect(gap).toBeGreaterThanOrEqual(290);
    expect(gap).toBeLessThan(1000);
    expect(reconnects).toEqual([expect.objectContaining({ attempt: 1, lastEventId: '1', cause: { closed: true } })]);
    expect(reconnects[0]?.delayMs).toBeGreaterThanOrEqual(300);
    expect(reconnects[0]?.delayMs).toBeLessThanOrEqual(375);
    expect(second?.headers['last-event-id']).toBe('1');
  });

  it('when the service answers 503, 429 with Retry-After, or drops the connection before answering, then the client backs off, waits out the Retry-After and gets its events', async () => {
    server.script(
      [eventOf(1)],
      refuse(503, 'SERVICE_UNAVAILABLE'),
      (res) => res.socket?.destroy(),
      refuse(429, 'RATE_LIMITED', { 'Retry-After': '1' }),
      stream(),
    );
    const started = Date.now();
    expect((await take(eventsOf(), 1)).map((event) => event.id)).toEqual(['1']);
    expect(reconnects.map((event) => [event.attempt, event.cause])).toEqual([
      [1, { status: 503 }],
      [2, { error: expect.anything() }],
      [3, { status: 429 }],
    ]);
    // Doubling from 20 ms, with up to a quarter more of jitter; the Retry-After wins over the back-off.
    expect(reconnects[0]?.delayMs).toBeGreaterThanOrEqual(20);
    expect(reconnects[1]?.delayMs).toBeGreaterThanOrEqual(40);
    expect(reconnects[1]?.delayMs).toBeLessThanOrEqual(50);
    expect(reconnects[2]?.delayMs).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('when connections open, are refused and drop, then onOpen is called once per opened stream, before its events, and never for a refusal', async () => {
    const log = [1, 2, 3, 4].map((id) => eventOf(id));
    server.script(log, refuse(503, 'SERVICE_UNAVAILABLE'), stream({ count: 2, then: 'drop' }), refuse(429, 'RATE_LIMITED'), (res) => res.socket?.destroy(), stream());
    const timeline: string[] = [];
    const iterator = eventsOf({ onOpen: () => timeline.push(`open after ${server.connections.length} connections`) });
    for await (const event of iterator) {
      timeline.push(`event ${event.id}`);
      if (event.id === '4') break;
    }
    expect(server.connections).toHaveLength(5);
    expect(timeline).toEqual(['open after 2 connections', 'event 1', 'event 2', 'open after 5 connections', 'event 3', 'event 4']);
    expect(reconnects.map((event) => event.cause)).toEqual([{ status: 503 }, { error: expect.anything() }, { status: 429 }, { error: expect.anything() }]);
  });

  it('when the stream is refused for good or answers something else than a stream, then onOpen is never called', async () => {
    const opened: number[] = [];
    server.script([], refuse(404, 'NOT_FOUND'));
    await expect(take(eventsOf({ onOpen: () => opened.push(server.connections.length) }), 1)).rejects.toMatchObject({ name: 'AgentFleetError', status: 404 });
    server.script([], (res) => json(res, 200, { data: [], meta: {} }));
    await expect(take(eventsOf({ onOpen: () => opened.push(server.connections.length) }), 1)).rejects.toMatchObject({ name: 'AgentFleetError', status: 200 });
    expect(opened).toEqual([]);
  });

  it('when onOpen throws, then the events still flow', async () => {
    let calls = 0;
    server.script([eventOf(1), eventOf(2)], stream());
    const failingListener = (): void => {
      calls += 1;
      throw new Error('a listener that fails');
    };
    const events = await take(eventsOf({ onOpen: failingListener }), 2);
    expect(events.map((event) => event.id)).toEqual(['1', '2']);
    expect(calls).toBe(1);
  });

  it('when the connection goes silent past the idle timeout, then it is replaced', async () => {
    server.script([eventOf(1)], (res) => openStream(res), stream());
    expect((await take(eventsOf({ idleTimeoutMs: 300 }), 1)).map((event) => event.id)).toEqual(['1']);
    expect(server.connections).toHaveLength(2);
    expect(server.connections[0]?.closedAt).toBeDefined();
  });

  it('when the caller aborts its signal while waiting for events, then the iteration ends without an error and the connection is closed', async () => {
    server.script([eventOf(1)], stream());
    const controller = new AbortController();
    const seen: string[] = [];
    setTimeout(() => controller.abort(), 200);
    for await (const event of eventsOf({ signal: controller.signal })) seen.push(event.id);
    expect(seen).toEqual(['1']);
    await until(() => server.connections[0]?.closedAt !== undefined);
    expect(server.connections).toHaveLength(1);
  });

  it('when the caller aborts during the wait to reconnect, then the iteration ends at once', async () => {
    server.script([], refuse(503, 'SERVICE_UNAVAILABLE', { 'Retry-After': '10' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    expect(await take(eventsOf({ signal: controller.signal }), 1)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.connections).toHaveLength(1);
  });

  it('when the caller breaks out of the loop, then the connection is closed and no other opened', async () => {
    server.script([1, 2, 3].map((id) => eventOf(id)), stream());
    expect((await take(eventsOf(), 2)).map((event) => event.id)).toEqual(['1', '2']);
    const left = Date.now();
    await until(() => server.connections[0]?.closedAt !== undefined);
    expect((server.connections[0]?.closedAt ?? Infinity) - left).toBeLessThan(100);
    await delay(100);
    expect(server.connections).toHaveLength(1);
  });

  it('when the resumption point is past the retention (410), or the stream is forbidden (403) or unknown (404), then the iteration ends with a typed AgentFleetError', async () => {
    for (const [status, code] of [
      [410, 'GONE'],
      [403, 'FORBIDDEN'],
      [404, 'NOT_FOUND'],
    ] as const) {
      server.script([], refuse(status, code));
      const failure = await take(eventsOf({ after: '1' }), 1).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AgentFleetError);
      expect(failure).toMatchObject({ status, body: { error: { code } }, message: `${status} ${code}: ${code.toLowerCase()}` });
      expect(server.connections).toHaveLength(1);
    }
  });

  it('when a reconnect meets 410 after events, then the events come first and the error after', async () => {
    server.script([eventOf(1)], stream({ then: 'end' }), refuse(410, 'GONE'));
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of eventsOf()) seen.push(event.id);
    })().catch((error: unknown) => error);
    expect(seen).toEqual(['1']);
    expect(failure).toMatchObject({ name: 'AgentFleetError', status: 410 });
    expect(server.connections[1]?.headers['last-event-id']).toBe('1');
  });

  it('when a token is refused, then it is refreshed once and the stream opened with the new one; refused again, the iteration ends with the 401', async () => {
    const asked: boolean[] = [];
    const client = clientWith({ bearer: ({ forceRefresh }) => (asked.push(forceRefresh), forceRefresh ? 'fresh' : 'stale') });
    const unauthorized = refuse(401, 'UNAUTHORIZED');
    server.script([eventOf(1)], unauthorized, stream());
    expect((await take(eventsOf({}, client), 1)).map((event) => event.id)).toEqual(['1']);
    expect(server.connections.map((connection) => connection.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);

    server.script([eventOf(1)], unauthorized, unauthorized, stream());
    await expect(take(eventsOf({}, client), 1)).rejects.toMatchObject({ name: 'AgentFleetError', status: 401 });
    expect(server.connections).toHaveLength(2);
    expect(reconnects).toEqual([]);
  });

  it('when the server sends many events to a slow reader, then the client reads no further ahead than it yields', async () => {
    // 40 MB of events: more than the socket's buffers on both sides hold.
    const padding = 'x'.repeat(2000);
    const log = Array.from({ length: 20_000 }, (_, index) => ({ ...eventOf(index + 1), data: { padding } }));
    let written = 0;
    server.script(log, (res, connection, self) => {
      openStream(res);
      const pending = self.eventsFor(connection);
      const pump = (): void => {
        while (pending.length > 0) {
          written += 1;
          if (!res.write(frame(pending.shift() as FleetEvent))) return void res.once('drain', pump);
        }
      };
      pump();
    });
    const iterator = eventsOf()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ id: '1' });
    await delay(300);
    // The socket's buffers hold some; the rest waits on the server until the reader asks.
    expect(written).toBeLessThan(log.length / 2);
    await iterator.return?.(undefined);
    await until(() => server.connections[0]?.closedAt !== undefined);
  });
});

describe.each(reachableDatabaseKinds())('client.events() against the real service (%s)', (kind: DatabaseKind) => {
  let service: TestApp;
  let baseUrl = '';
  beforeAll(async () => {
    // One stream per principal: a stream the client left is seen closed by the next one it may open.
    service = await startTestApp(kind, { events: { ...testConfig().events, heartbeatMs: 200, pollMs: 100, streamsPerPrincipal: 1 } });
    baseUrl = await service.listen();
  }, 60_000);
  afterAll(() => service?.close());

  const fleet = () => createAgentFleetClient({ baseUrl, auth: { apiKey: TEST_API_KEY } });
  /** A new agent, and the id of its first event (`agent.created`), to start the stream after. */
  const newAgent = async (client = fleet()) => {
    const agent = (await unwrap(client.POST('/api/v1/agents', { body: { name: 'watched', type: 'type_a' } }))).data;
    return { agent, created: await firstEventId(client, agent.id) };
  };
  const createTask = async (agentId: string, title: string, client = fleet()) =>
    (await unwrap(client.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: agentId } }, body: { title } }))).data;

  it('when tasks are created and worked, then the agent\'s events come in order, history then live, filtered by type, and a break frees the stream within 200 ms', async () => {
    const client = fleet();
    const { agent, created } = await newAgent(client);
    const before = await createTask(agent.id, 'before');
    const iterator = client.events({ agentId: agent.id, types: ['task.created', 'task.succeeded'], after: created })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ type: 'task.created', agent_id: agent.id, task_id: before.id, data: { title: 'before' } });

    const live = await createTask(agent.id, 'live');
    const claimed = await unwrap(client.POST('/api/v1/agents/{agent_id}/leases', { params: { path: { agent_id: agent.id } }, body: {} }));
    if (claimed === undefined) throw new Error('no task to lease');
    const lease = claimed.data;
    await unwrap(client.PATCH('/api/v1/agents/{agent_id}/leases/{lease_id}', { params: { path: { agent_id: agent.id, lease_id: lease.id } }, body: { status: 'succeeded', result: { ok: true } } }));
    const second = await iterator.next();
    const third = await iterator.next();
    expect([second.value, third.value].map((event) => [event?.type, event?.task_id])).toEqual([
      ['task.created', live.id],
      ['task.succeeded', lease.task_id],
    ]);
    expect(third.value?.data).toMatchObject({ status: 'succeeded', previous_status: 'running', result: { ok: true } });
    const ids = [first.value?.id, second.value?.id, third.value?.id].map((id) => BigInt(id ?? '0'));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);

    await iterator.return?.(undefined);
    // The service allows this key one stream: the next opens only once the service saw the first closed.
    await delay(200);
    const reconnects: ReconnectEvent[] = [];
    const again = fleet().events({ agentId: agent.id, after: created, onReconnect: (event) => reconnects.push(event) })[Symbol.asyncIterator]();
    expect((await again.next()).value).toMatchObject({ type: 'task.created', task_id: before.id });
    await again.return?.(undefined);
    expect(reconnects).toEqual([]);
  });

  it('when the point to resume from was pruned, then the iteration ends with the typed 410 EVENTS_EXPIRED', async () => {
    const { agent, created } = await newAgent();
    await service.database.db('events').where('id', '<=', Number(created)).update({ occurred_at: new Date(Date.now() - 500 * 3_600_000).toISOString() });
    await pruneEvents(createStore(service.database.db), 168);
    const failure = await (async () => {
      for await (const event of fleet().events({ agentId: agent.id, after: '0' })) void event;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentFleetError);
    expect(failure).toMatchObject({ status: 410, body: { error: { code: 'EVENTS_EXPIRED' } } });
  });

  it('when the agent is not the key\'s, then the iteration ends with the typed 404', async () => {
    const { agent } = await newAgent();
    const other = (await unwrap(fleet().POST('/api/v1/agents', { body: { name: 'other', type: 'type_b' } }))).data;
    const key = (await unwrap(fleet().POST('/api/v1/agents/{agent_id}/keys', { params: { path: { agent_id: agent.id } }, body: { name: 'reader', scopes: ['tasks:read'] } }))).data;
    const asAgent = createAgentFleetClient({ baseUrl, auth: { clientId: key.id, clientSecret: key.secret } });
    await expect(asAgent.events({ agentId: other.id })[Symbol.asyncIterator]().next()).rejects.toMatchObject({ name: 'AgentFleetError', status: 404 });
  });
});
