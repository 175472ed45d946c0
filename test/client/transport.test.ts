import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentFleetError, MemoryEtagCache, createAgentFleetClient, type AgentFleetClientOptions, type RetryEvent } from '../../src/client';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
type Step = (res: ServerResponse, seen: Seen) => void;

/** A real HTTP server that answers each request with the next scripted step. */
class ScriptedServer {
  readonly seen: Seen[] = [];
  #steps: Step[] = [];
  readonly #server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      this.seen.push(seen);
      const step = this.#steps.shift() ?? ((response) => json(response, 500, { error: 'internal_error', message: 'no step left' }));
      step(res, seen);
    });
  });
  baseUrl = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }
  script(...steps: Step[]): void {
    this.#steps = steps;
    this.seen.length = 0;
  }
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
const agent = (name = 'a') => ({ id: 'a1', owner_id: null, name, type: 'type_a', status: 'idle', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });
const ok: Step = (res) => json(res, 200, agent());
const refuse = (status: 429 | 503, retryAfter?: string): Step => (res) =>
  json(res, status, { error: status === 429 ? 'rate_limit_exceeded' : 'service_unavailable', message: 'later' }, retryAfter === undefined ? {} : { 'Retry-After': retryAfter });
const hangUp: Step = (res) => res.socket?.destroy();

describe('the client runtime against a scripted HTTP server', () => {
  const server = new ScriptedServer();
  const retries: RetryEvent[] = [];
  const clientWith = (options: Partial<AgentFleetClientOptions> = {}) =>
    createAgentFleetClient({ baseUrl: server.baseUrl, retry: { baseDelayMs: 10, onRetry: (event) => retries.push(event) }, ...options });
  const readAgent = (client: ReturnType<typeof clientWith>, init: { signal?: AbortSignal } = {}) =>
    client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'a1' } }, ...init });

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    retries.length = 0;
  });

  describe('retries', () => {
    it('when a GET meets 429 with Retry-After as an HTTP date, then it waits until that date and succeeds', async () => {
      server.script(refuse(429, new Date(Date.now() + 1500).toUTCString()), ok);
      const started = Date.now();
      const result = await readAgent(clientWith());
      expect(result.response.status).toBe(200);
      expect(result.data).toEqual(agent());
      expect(retries).toEqual([expect.objectContaining({ method: 'GET', attempt: 1, cause: { status: 429 } })]);
      expect(retries[0]?.delayMs).toBeGreaterThan(0);
      expect(retries[0]?.delayMs).toBeLessThanOrEqual(1500);
      expect(Date.now() - started).toBeGreaterThanOrEqual((retries[0]?.delayMs ?? 0) - 5);
    });

    it('when a GET keeps meeting 503, then it gives up after the configured retries and answers the last 503', async () => {
      server.script(refuse(503, '0'), refuse(503, '0'), refuse(503, '0'), refuse(503, '0'));
      const result = await readAgent(clientWith({ retry: { retries: 2, onRetry: (event) => retries.push(event) } }));
      expect(result.response.status).toBe(503);
      expect(result.error).toEqual({ error: 'service_unavailable', message: 'later' });
      expect(server.seen).toHaveLength(3);
      expect(retries.map((event) => event.attempt)).toEqual([1, 2]);
    });

    it('when Retry-After is longer than maxDelayMs, then the 429 is answered at once', async () => {
      server.script(refuse(429, '3600'), ok);
      const started = Date.now();
      const result = await readAgent(clientWith({ retry: { maxDelayMs: 5000 } }));
      expect(result.response.status).toBe(429);
      expect(result.response.headers.get('Retry-After')).toBe('3600');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(server.seen).toHaveLength(1);
    });

    it('when a POST meets 503, then it is sent again with the same body and the same fresh Idempotency-Key, and a second POST has another key', async () => {
      const create = (client: ReturnType<typeof clientWith>) => client.POST('/agents', { body: { name: 'n', type: 'type_a' } });
      server.script(refuse(503, '0'), (res) => json(res, 201, agent('n')), (res) => json(res, 201, agent('m')));
      const client = clientWith();
      expect((await create(client)).response.status).toBe(201);
      expect((await create(client)).response.status).toBe(201);
      const keys = server.seen.map((seen) => seen.headers['idempotency-key']);
      expect(server.seen.map((seen) => seen.body)).toEqual(Array(3).fill(JSON.stringify({ name: 'n', type: 'type_a' })));
      expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(keys[2]).not.toBe(keys[0]);
    });

    it('when POST is not among the retried methods, or retries are off, then a POST is sent once and without a key', async () => {
      const create = (client: ReturnType<typeof clientWith>) => client.POST('/agents', { body: { name: 'n', type: 'type_a' } });
      server.script(refuse(503, '0'), ok);
      expect((await create(clientWith({ retry: { methods: ['GET'] } }))).response.status).toBe(503);
      server.script(refuse(503, '0'), ok);
      expect((await create(clientWith({ retry: false }))).response.status).toBe(503);
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]?.headers['idempotency-key']).toBeUndefined();
    });

    it('when the caller sends its own Idempotency-Key, then that key is sent on every attempt', async () => {
      server.script(hangUp, (res) => json(res, 201, agent('n')));
      const created = await clientWith().POST('/agents', { body: { name: 'n', type: 'type_a' }, headers: { 'Idempotency-Key': 'my-key-1' } });
      expect(created.response.status).toBe(201);
      expect(server.seen.map((seen) => seen.headers['idempotency-key'])).toEqual(['my-key-1', 'my-key-1']);
    });

    it('when a POST meets 409 IDEMPOTENCY_KEY_IN_USE, then it waits out the Retry-After and is answered the replay; another 409 is answered as is', async () => {
      const inUse: Step = (res) => json(res, 409, { error: { code: 'IDEMPOTENCY_KEY_IN_USE', message: 'A request with this key is in progress' } }, { 'Retry-After': '1' });
      const replayed: Step = (res) => json(res, 201, { data: agent('n'), meta: {} }, { 'Idempotent-Replayed': 'true' });
      server.script(inUse, replayed);
      const started = Date.now();
      const created = await clientWith().POST('/api/v1/agents', { body: { name: 'n', type: 'type_a' } });
      expect(created.response.status).toBe(201);
      expect(created.response.headers.get('Idempotent-Replayed')).toBe('true');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(retries).toEqual([expect.objectContaining({ method: 'POST', attempt: 1, delayMs: 1000, cause: { status: 409 } })]);
      expect(new Set(server.seen.map((seen) => seen.headers['idempotency-key'])).size).toBe(1);

      server.script((res) => json(res, 409, { error: { code: 'CONFLICT', message: 'no' } }, { 'Retry-After': '0' }), replayed);
      expect((await clientWith().POST('/api/v1/agents', { body: { name: 'n', type: 'type_a' } })).response.status).toBe(409);
      expect(server.seen).toHaveLength(1);
    });

    it('when /token (a form POST) meets 503 or a dropped connection, then it is not retried and carries no key', async () => {
      server.script(refuse(503, '0'), ok);
      expect((await clientWith().requestToken({ grant_type: 'password', username: 'ada@example.com', password: 'p' })).response.status).toBe(503);
      server.script(hangUp, ok);
      const form = { body: { grant_type: 'password' as const, username: 'ada@example.com', password: 'p' }, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, bodySerializer: (fields: Record<string, string>) => new URLSearchParams(fields).toString() };
      await expect(clientWith().POST('/token', form)).rejects.toMatchObject({ name: 'TypeError' });
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]?.headers['idempotency-key']).toBeUndefined();
    });

    it('when a PUT is retried, then every attempt carries the same body and headers', async () => {
      server.script(refuse(503), ok);
      const result = await clientWith().PUT('/agents/{agent_id}', { params: { path: { agent_id: 'a1' }, header: { 'If-Match': '"v1"' } }, body: { name: 'b', type: 'type_b' } });
      expect(result.response.status).toBe(200);
      expect(server.seen.map((seen) => [seen.method, seen.body, seen.headers['if-match'], seen.headers['content-type']])).toEqual([
        ['PUT', '{"name":"b","type":"type_b"}', '"v1"', 'application/json'],
        ['PUT', '{"name":"b","type":"type_b"}', '"v1"', 'application/json'],
      ]);
      expect(retries[0]?.delayMs).toBeLessThanOrEqual(10);
    });

    it('when the connection drops, then a GET is retried, and so is a POST, with the same Idempotency-Key, answered once', async () => {
      server.script(hangUp, ok);
      expect((await readAgent(clientWith())).response.status).toBe(200);
      expect(retries).toEqual([expect.objectContaining({ cause: { error: expect.objectContaining({ name: 'TypeError' }) } })]);

      server.script(hangUp, (res) => json(res, 201, agent('n')));
      const created = await clientWith().POST('/agents', { body: { name: 'n', type: 'type_a' } });
      expect([created.response.status, created.data?.name]).toEqual([201, 'n']);
      expect(server.seen.map((seen) => [seen.method, seen.url, seen.body])).toEqual(Array(2).fill(['POST', '/agents', JSON.stringify({ name: 'n', type: 'type_a' })]));
      const [first, second] = server.seen.map((seen) => seen.headers['idempotency-key']);
      expect(first).toEqual(expect.any(String));
      expect(second).toBe(first);
    });

    it('when retry is false, then a 429 is answered as is', async () => {
      server.script(refuse(429, '0'), ok);
      expect((await readAgent(clientWith({ retry: false }))).response.status).toBe(429);
      expect(server.seen).toHaveLength(1);
    });
  });

  describe('timeouts and cancellation', () => {
    const slow: Step = (res) => setTimeout(() => ok(res, { method: '', url: '', headers: {}, body: '' }), 400);

    it('when an attempt gets no headers within timeoutMs, then it is retried, and the last one rejects with a TimeoutError', async () => {
      server.script(slow, ok);
      expect((await readAgent(clientWith({ timeoutMs: 100 }))).response.status).toBe(200);
      expect(retries).toEqual([expect.objectContaining({ cause: { error: expect.objectContaining({ name: 'TimeoutError' }) } })]);

      server.script(slow);
      await expect(readAgent(clientWith({ timeoutMs: 100, retry: false }))).rejects.toMatchObject({ name: 'TimeoutError' });
    });

    it('when the caller aborts while the client waits out a Retry-After, then it rejects at once with AbortError', async () => {
      server.script(refuse(429, '5'), ok);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      await expect(readAgent(clientWith(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(server.seen).toHaveLength(1);
    });

    it('when the caller aborts before the answer, then the request is cancelled and not retried', async () => {
      server.script(slow, ok);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await expect(readAgent(clientWith(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(retries).toEqual([]);
    });
  });

  describe('authentication', () => {
    it('when a token function is given, then each request carries its token, and after a 401 it is asked to refresh once and the request is resent', async () => {
      const asked: boolean[] = [];
      const client = clientWith({ auth: { bearer: ({ forceRefresh }) => (asked.push(forceRefresh), forceRefresh ? 'fresh' : 'stale') } });
      server.script((res) => json(res, 401, { error: 'unauthorized', message: 'Could not validate credentials' }), ok);
      expect((await readAgent(client)).response.status).toBe(200);
      expect(asked).toEqual([false, true]);
      expect(server.seen.map((seen) => seen.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);

      server.script((res) => json(res, 401, { error: 'unauthorized', message: 'no' }), (res) => json(res, 401, { error: 'unauthorized', message: 'no' }), ok);
      expect((await readAgent(client)).response.status).toBe(401);
      expect(server.seen).toHaveLength(2);
    });

    it('when a fixed token or API key is given, then a 401 is answered as is', async () => {
      server.script((res) => json(res, 401, { error: 'unauthorized', message: 'no' }), ok);
      expect((await readAgent(clientWith({ auth: { apiKey: 'k' } }))).response.status).toBe(401);
      expect(server.seen.map((seen) => [seen.headers['x-api-key'], seen.headers.authorization])).toEqual([['k', undefined]]);
    });

    it('when the caller sets Authorization itself, then auth does not replace it', async () => {
      server.script(ok);
      await clientWith({ auth: { apiKey: 'k' } }).GET('/agents/{agent_id}', { params: { path: { agent_id: 'a1' } }, headers: { Authorization: 'Bearer mine' } });
      expect(server.seen[0]?.headers).toMatchObject({ authorization: 'Bearer mine' });
      expect(server.seen[0]?.headers['x-api-key']).toBeUndefined();
    });

    it('when signing in with a password, then one grant serves concurrent requests, and the refresh token renews it before it expires', async () => {
      const token = (access: string, refresh: string, expiresIn: number): Step => (res) =>
        json(res, 200, { access_token: access, token_type: 'bearer', expires_in: expiresIn, refresh_token: refresh }, { 'Cache-Control': 'no-store' });
      const client = clientWith({ auth: { username: 'ada@example.com', password: 'pass phrase' } });
      server.script(token('t1', 'r1', 1), ok, ok, token('t2', 'r2', 3600), ok);
      await Promise.all([readAgent(client), readAgent(client)]);
      const grant = new URLSearchParams(server.seen[0]?.body);
      expect([server.seen[0]?.url, server.seen[0]?.headers['content-type'], grant.get('grant_type'), grant.get('username'), grant.get('password')]).toEqual([
        '/token',
        'application/x-www-form-urlencoded',
        'password',
        'ada@example.com',
        'pass phrase',
      ]);
      expect(server.seen.slice(1).map((seen) => seen.headers.authorization)).toEqual(['Bearer t1', 'Bearer t1']);

      await new Promise((resolve) => setTimeout(resolve, 600));
      await readAgent(client);
      expect(Object.fromEntries(new URLSearchParams(server.seen[3]?.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'r1' });
      expect(server.seen[4]?.headers.authorization).toBe('Bearer t2');
    });

    it('when the password is wrong, then the request rejects with the typed RFC 6749 error', async () => {
      server.script((res) => json(res, 400, { error: 'invalid_grant', error_description: 'Invalid username or password' }));
      const failure = await readAgent(clientWith({ auth: { username: 'ada@example.com', password: 'wrong' } })).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AgentFleetError);
      expect(failure).toMatchObject({ status: 400, body: { error: 'invalid_grant' }, message: '400 invalid_grant: Invalid username or password' });
    });

    it('when signing in with an agent key, then one client_credentials grant serves concurrent requests and another is asked for before it expires and after a 401', async () => {
      const token = (access: string, expiresIn: number): Step => (res) =>
        json(res, 200, { access_token: access, token_type: 'bearer', expires_in: expiresIn }, { 'Cache-Control': 'no-store' });
      const unauthorized: Step = (res) => json(res, 401, { error: 'unauthorized', message: 'Token expired' });
      const client = clientWith({ auth: { clientId: 'key-1', clientSecret: 'afk_secret' } });
      server.script(token('t1', 1), ok, ok, token('t2', 3600), ok, unauthorized, token('t3', 3600), ok);
      await Promise.all([readAgent(client), readAgent(client)]);
      expect([server.seen[0]?.url, server.seen[0]?.headers['content-type']]).toEqual(['/token', 'application/x-www-form-urlencoded']);
      expect(Object.fromEntries(new URLSearchParams(server.seen[0]?.body))).toEqual({ grant_type: 'client_credentials', client_id: 'key-1', client_secret: 'afk_secret' });
      expect(server.seen.slice(1, 3).map((seen) => seen.headers.authorization)).toEqual(['Bearer t1', 'Bearer t1']);

      // Half of a 1 s lifetime later the token is renewed before use: a new grant, not a refresh token.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await readAgent(client)).response.status).toBe(200);
      expect(Object.fromEntries(new URLSearchParams(server.seen[3]?.body))).toEqual({ grant_type: 'client_credentials', client_id: 'key-1', client_secret: 'afk_secret' });
      expect(server.seen[4]?.headers.authorization).toBe('Bearer t2');

      expect((await readAgent(client)).response.status).toBe(200);
      expect(server.seen.slice(5).map((seen) => [seen.url, seen.headers.authorization])).toEqual([
        ['/agents/a1', 'Bearer t2'],
        ['/token', undefined],
        ['/agents/a1', 'Bearer t3'],
      ]);
    });

    it('when the agent key is refused at /token, then the request rejects with the typed 401 invalid_client', async () => {
      server.script((res) => json(res, 401, { error: 'invalid_client', error_description: 'Unknown, revoked or expired agent key' }, { 'WWW-Authenticate': 'Basic realm="agent-fleet"' }));
      const failure = await readAgent(clientWith({ auth: { clientId: 'key-1', clientSecret: 'revoked' } })).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AgentFleetError);
      expect(failure).toMatchObject({ status: 401, body: { error: 'invalid_client' }, message: '401 invalid_client: Unknown, revoked or expired agent key' });
      expect(server.seen).toHaveLength(1);
    });
  });

  describe('the ETag cache', () => {
    const tagged = (etag: string, name = 'a', extra: Record<string, string> = {}): Step => (res) =>
      json(res, 200, agent(name), { ETag: etag, 'Cache-Control': 'private, no-cache', ...extra });
    const notModified = (etag: string): Step => (res) => res.writeHead(304, { ETag: etag, 'X-Request-ID': 'second' }).end();

    it('when a GET is repeated, then it is sent with If-None-Match and a 304 returns the kept data with the fresh headers', async () => {
      const cache = new MemoryEtagCache();
      const client = clientWith({ cache, auth: { apiKey: 'k' } });
      server.script(tagged('"v1"', 'a', { 'X-Request-ID': 'first' }), notModified('"v1"'));
      const first = await readAgent(client);
      const second = await readAgent(client);
      expect(server.seen.map((seen) => seen.headers['if-none-match'])).toEqual([undefined, '"v1"']);
      expect(second.response.status).toBe(200);
      expect(second.data).toEqual(first.data);
      expect(second.response.headers.get('X-Request-ID')).toBe('second');
      expect(second.response.headers.get('ETag')).toBe('"v1"');
      expect(cache.size).toBe(1);
    });

    it('when another credential asks for the same URL, then it does not get the first one\'s answer', async () => {
      const cache = new MemoryEtagCache();
      server.script(tagged('"v1"', 'ada'), tagged('"v9"', 'bob'));
      await readAgent(clientWith({ cache, auth: { apiKey: 'ada' } }));
      const other = await readAgent(clientWith({ cache, auth: { apiKey: 'bob' } }));
      expect(server.seen.map((seen) => seen.headers['if-none-match'])).toEqual([undefined, undefined]);
      expect(other.data?.name).toBe('bob');
      expect(cache.size).toBe(2);
    });

    it('when the representation changed, then the new one is returned and kept; a 404 forgets it; no-store is never kept', async () => {
      const cache = new MemoryEtagCache();
      const client = clientWith({ cache });
      server.script(tagged('"v1"', 'a'), tagged('"v2"', 'b'), notModified('"v2"'), (res) => json(res, 404, { error: 'not_found', message: 'Agent not found' }));
      await readAgent(client);
      expect((await readAgent(client)).data?.name).toBe('b');
      expect((await readAgent(client)).data?.name).toBe('b');
      expect((await readAgent(client)).response.status).toBe(404);
      expect(server.seen.map((seen) => seen.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v2"', '"v2"']);
      expect(cache.size).toBe(0);

      server.script(tagged('"v3"', 'c', { 'Cache-Control': 'no-store' }), tagged('"v3"', 'c'));
      await readAgent(client);
      await readAgent(client);
      expect(server.seen.map((seen) => seen.headers['if-none-match'])).toEqual([undefined, undefined]);
    });

    it('when the caller sends its own If-None-Match, then the cache stays out of the way and the 304 is answered', async () => {
      const client = clientWith({ cache: true });
      server.script(tagged('"v1"'), notModified('"v1"'));
      await readAgent(client);
      const own = await client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'a1' } }, headers: { 'If-None-Match': '"v1"' } });
      expect(own.response.status).toBe(304);
    });

    it('when the cache holds more than maxEntries, then the least recently used answer goes first', () => {
      const cache = new MemoryEtagCache({ maxEntries: 2 });
      const entry = { etag: '"x"', status: 200, statusText: 'OK', headers: [], body: '{}' };
      cache.set('a', entry);
      cache.set('b', entry);
      cache.get('a');
      cache.set('c', entry);
      expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
    });
  });

  describe('pagination', () => {
    it('when a root collection pages by skip, then the walk goes on past a short page and ends at the first empty one', async () => {
      server.script((res) => json(res, 200, [agent('1'), agent('2')]), (res) => json(res, 200, [agent('3')]), (res) => json(res, 200, []));
      const names: string[] = [];
      for await (const item of clientWith().paginate('/agents', { params: { query: { limit: 2 } } })) names.push(item.name);
      expect(names).toEqual(['1', '2', '3']);
      expect(server.seen.map((seen) => seen.url)).toEqual(['/agents?limit=2', '/agents?limit=2&skip=2', '/agents?limit=2&skip=3']);
    });

    it('when a page collection pages by number, then it stops at the total', async () => {
      const page = (n: number, names: string[]): Step => (res) => json(res, 200, { data: names.map((name) => ({ ...agent(name), email: `${name}@x`, age: null, role: 'user' })), meta: { total: 3, page: n, limit: 2 } });
      server.script(page(1, ['a', 'b']), page(2, ['c']));
      const names: string[] = [];
      for await (const user of clientWith().paginate('/api/v1/users', { params: { query: { limit: 2 } } })) names.push(user.name);
      expect(names).toEqual(['a', 'b', 'c']);
      expect(server.seen.map((seen) => seen.url)).toEqual(['/api/v1/users?limit=2', '/api/v1/users?limit=2&page=2']);
    });

    it('when a page fails, then the iteration throws an AgentFleetError with the typed body', async () => {
      server.script((res) => json(res, 200, { data: [agent('1')], meta: { nextCursor: 'c1', hasMore: true } }), (res) => json(res, 400, { error: { code: 'VALIDATION_ERROR', message: 'bad cursor' } }));
      const names: string[] = [];
      const failure = await (async () => {
        for await (const item of clientWith().paginate('/api/v1/agents')) names.push(item.name);
      })().catch((error: unknown) => error);
      expect(names).toEqual(['1']);
      expect(failure).toMatchObject({ name: 'AgentFleetError', status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
      expect(server.seen[1]?.url).toBe('/api/v1/agents?cursor=c1');
    });
  });
});
