import { gzipSync } from 'node:zlib';
import { createAgentFleetClient } from '../../src/client';
import { loadConfig } from '../../src/config/config';
import { createAgent } from '../../src/domain/agents';
import { isEmail } from '../../src/domain/email';
import { createStore } from '../../src/data/store';
import { AppError } from '../../src/errors';
import { describeEachDatabase, TEST_API_KEY, type TestApp } from '../support/harness';
import { sendRaw } from '../support/raw-http';

/**
 * The contract under hostile input, each case driven by a real client over real HTTP (fetch, the
 * generated client, raw sockets for what they cannot send). Every answer is JSON in the shape of
 * its surface, with a status api.yaml declares.
 */
describeEachDatabase('the contract under any input', (get: () => TestApp) => {
  let base: string;
  let bearer: Record<string, string>;
  const json = (body: string, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json', ...headers },
    body,
  });
  const newAgent = async (name = 'edge'): Promise<{ id: string }> => {
    const res = await fetch(`${base}/agents`, json(JSON.stringify({ name, type: 'type_a' })));
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };

  beforeAll(async () => {
    base = await get().listen();
    bearer = { authorization: `Bearer ${get().user.token}` };
  });

  describe('stored text survives exactly', () => {
    it.each([
      ['a lone high surrogate', '"\\ud800x"'],
      ['a lone low surrogate', '"x\\udc00"'],
      ['a NUL character', '"a\\u0000b"'],
    ])('when an agent name holds %s, then the root surface answers 422 naming it and nothing is stored', async (_what, literal) => {
      const before = ((await (await fetch(`${base}/agents?limit=1000`, { headers: bearer })).json()) as unknown[]).length;
      const res = await fetch(`${base}/agents`, json(`{"name":${literal},"type":"type_a"}`));
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ error: 'validation_error', details: { fields: [{ field: 'name', in: 'body' }] } });
      expect(((await (await fetch(`${base}/agents?limit=1000`, { headers: bearer })).json()) as unknown[]).length).toBe(before);
    });

    it('when the same names go to /api/v1, then 400 VALIDATION_ERROR names them, with the request id', async () => {
      const res = await fetch(`${base}/api/v1/agents`, json('{"name":"\\udfff","type":"type_a"}', { 'x-request-id': 'edge-1' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', requestId: 'edge-1', details: [{ field: 'name', message: expect.stringMatching(/surrogate/) }] },
      });
    });

    it('when a task input hides NUL or a lone surrogate in a nested string or key, then 422 names the path', async () => {
      const agent = await newAgent();
      const value = await fetch(`${base}/agents/${agent.id}/tasks`, json('{"title":"t","input":{"deep":{"list":["ok","x\\u0000"]}}}'));
      expect(value.status).toBe(422);
      expect(((await value.json()) as { details: { fields: Array<{ field: string }> } }).details.fields[0]?.field).toBe('input.deep.list.1');
      const key = await fetch(`${base}/agents/${agent.id}/tasks`, json('{"title":"t","input":{"\\ud83d":1}}'));
      expect(key.status).toBe(422);
    });

    it('when text is multi-byte (emoji, surrogate pairs, combining marks), then it is stored and returned unchanged on both surfaces', async () => {
      const name = `${'😀'.repeat(98)}é̃`;
      const created = await fetch(`${base}/agents`, json(JSON.stringify({ name, type: 'type_a' })));
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect(((await (await fetch(`${base}/agents/${id}`, { headers: bearer })).json()) as { name: string }).name).toBe(name);
      const v1 = (await (await fetch(`${base}/api/v1/agents?filter[name][eq]=${encodeURIComponent(name)}`, { headers: bearer })).json()) as { data: Array<{ name: string }> };
      expect(v1.data.map((agent) => agent.name)).toEqual([name]);
      expect((await fetch(`${base}/agents`, json(JSON.stringify({ name: '😀'.repeat(101), type: 'type_a' })))).status).toBe(422);
    });

    it('when NUL arrives in the query or the path, then 400 names the parameter', async () => {
      const query = await fetch(`${base}/api/v1/agents?filter[name][eq]=%00`, { headers: bearer });
      expect(query.status).toBe(400);
      expect(((await query.json()) as { error: { details: Array<{ field: string }> } }).error.details[0]?.field).toMatch(/^filter/);
      const path = await fetch(`${base}/api/v1/users/%00/posts`, { headers: bearer });
      expect(path.status).toBe(400);
      expect(((await path.json()) as { error: { details: Array<{ field: string }> } }).error.details[0]?.field).toBe('user_id');
    });
  });

  describe('bodies that cannot be read are a client error', () => {
    it('when the body claims gzip but is plain JSON, then 400 in each surface shape', async () => {
      const root = await fetch(`${base}/agents`, json('{"name":"x","type":"type_a"}', { 'content-encoding': 'gzip' }));
      expect(root.status).toBe(400);
      expect(await root.json()).toMatchObject({ error: 'validation_error', message: expect.stringMatching(/Content-Encoding/) });
      const api = await fetch(`${base}/api/v1/agents`, json('{"name":"x","type":"type_a"}', { 'content-encoding': 'deflate' }));
      expect(api.status).toBe(400);
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
      const brotli = await fetch(`${base}/agents`, json('{"name":"x","type":"type_a"}', { 'content-encoding': 'br' }));
      expect(brotli.status).toBe(400);
    });

    it('when the media type is not one the operation declares, then 415 before anything reads it; parameters of a declared one are fine', async () => {
      for (const type of ['text/plain', 'application/merge-patch+json', 'application/json-seq', 'multipart/form-data; boundary=x']) {
        const res = await fetch(`${base}/agents`, json('{"name":"x","type":"type_a"}', { 'content-type': type }));
        expect(res.status).toBe(415);
        expect(await res.json()).toMatchObject({ error: 'unsupported_media_type', message: 'Request body must be application/json' });
      }
      const withParameters = await fetch(`${base}/agents`, json('{"name":"p","type":"type_a"}', { 'content-type': 'Application/JSON; charset=utf-8; profile=x' }));
      expect(withParameters.status).toBe(201);
    });

    it('when the encoding is unsupported, then 415; when it is real gzip, then the body is read', async () => {
      const unknown = await fetch(`${base}/agents`, json('{"name":"x","type":"type_a"}', { 'content-encoding': 'compress' }));
      expect(unknown.status).toBe(415);
      expect(await unknown.json()).toMatchObject({ error: 'unsupported_media_type' });
      const zipped = await fetch(`${base}/agents`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ name: 'zipped', type: 'type_a' })),
      });
      expect(zipped.status).toBe(201);
      expect(await zipped.json()).toMatchObject({ name: 'zipped' });
    });

    it('when JSON nests 65 levels in a task input, or 200,000 levels anywhere, then it is refused as a schema violation, never a 500', async () => {
      const agent = await newAgent();
      const nested = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`;
      const input = await fetch(`${base}/agents/${agent.id}/tasks`, json(`{"title":"deep","input":${nested}}`));
      expect(input.status).toBe(422);
      expect(((await input.json()) as { details: { fields: Array<{ message: string }> } }).details.fields[0]?.message).toMatch(/64 levels/);
      const shallowEnough = `${'{"a":'.repeat(60)}1${'}'.repeat(60)}`;
      expect((await fetch(`${base}/agents/${agent.id}/tasks`, json(`{"title":"ok","input":${shallowEnough}}`))).status).toBe(201);
      const hostile = await fetch(`${base}/api/v1/agents/${agent.id}/tasks`, json(`${'['.repeat(200_000)}${']'.repeat(200_000)}`));
      expect(hostile.status).toBe(400);
    });

    it('when a GET or DELETE carries malformed JSON, then the body is ignored as the operation declares none', async () => {
      const agent = await newAgent();
      const read = await sendRaw(
        base,
        `GET /agents/${agent.id} HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer.authorization}\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"broken`,
      );
      expect(read.status).toBe(200);
      const removed = await sendRaw(
        base,
        `DELETE /agents/${agent.id} HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer.authorization}\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{{{`,
      );
      expect(removed.status).toBe(204);
    });
  });

  describe('the query parser yields only what the contract declares', () => {
    it.each([
      ['fields[21]=1', 'fields'],
      ['fields[0]=name', 'fields'],
      ['sort[a]=b', 'sort'],
      ['__proto__[x]=1', '__proto__'],
      ['__proto__=1', '__proto__'],
      ['constructor[prototype][x]=1', 'constructor'],
      ['hasOwnProperty=1', 'hasOwnProperty'],
      ['filter=1', 'filter'],
      ['filter[name]=x', 'filter'],
      ['filter[name][eq][x]=1', 'filter'],
      ['filter[constructor][eq]=1', 'filter'],
      ['limit=1&limit=2', 'limit'],
      ['limit=1e309', 'limit'],
      ['limit=Infinity', 'limit'],
      ['filter[created_at][gte]=2026-01-01T23:59:60Z', 'filter[created_at][gte]'],
      ['filter[created_at][lt]=0000-01-01T00:00:00Z', 'filter[created_at][lt]'],
    ])('when /api/v1/agents gets ?%s, then 400 VALIDATION_ERROR names %s', async (query, field) => {
      const res = await fetch(`${base}/api/v1/agents?${query}`, { headers: bearer });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; details: Array<{ field: string }> } };
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.map((detail) => detail.field)).toContain(field);
    });

    it('when the root surface gets a nested key, then 422 names it', async () => {
      const res = await fetch(`${base}/agents?skip[x]=1`, { headers: bearer });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ details: { fields: [{ field: 'skip', in: 'query' }] } });
    });
  });

  describe('routes are case-sensitive and exact', () => {
    it.each([
      ['/API/V1/USERS', 'root'],
      ['/api/V1/users', 'api'],
      ['/api/v1/agents/', 'api'],
      ['/Token', 'root'],
      ['/token/', 'root'],
      ['/agents/', 'root'],
      ['//agents', 'root'],
      ['/AGENTS', 'root'],
      ['/docs/', 'root'],
      ['/docs/index.html', 'root'],
    ])('when %s is requested, then the JSON 404 of the %s surface answers, never HTML', async (path, surface) => {
      const res = await fetch(`${base}${path}`, { headers: bearer });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const body = await res.json();
      if (surface === 'api') expect(body).toEqual({ error: { code: 'NOT_FOUND', message: 'Not Found', requestId: expect.any(String) } });
      else expect(body).toEqual({ error: 'not_found', message: 'Not Found', detail: 'Not Found' });
    });

    it('when a path exists but not with the method, then 405 with Allow, in the surface shape (RFC 6749 at /token)', async () => {
      const token = await fetch(`${base}/token`);
      expect(token.status).toBe(405);
      expect(token.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await token.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      const agents = await fetch(`${base}/agents`, { method: 'PUT', headers: bearer });
      expect(agents.status).toBe(405);
      expect(agents.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      const options = await fetch(`${base}/agents/x`, { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, PUT, DELETE, PATCH, HEAD, OPTIONS');
      for (const origin of ['null', 'https://evil.example']) {
        const foreign = await fetch(`${base}/agents`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
        expect(foreign.status).toBe(204);
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
        expect(await foreign.text()).toBe('');
      }
      expect((await fetch(`${base}/login`, { method: 'OPTIONS' })).status).toBe(204);
    });
  });

  describe('every status is declared, in its declared shape', () => {
    it('when /token meets a bad api-version, a JSON body or an oversized body, then RFC 6749 errors answer, no-store', async () => {
      const version = await fetch(`${base}/token`, { method: 'POST', headers: { 'api-version': '9', 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password' });
      expect(version.status).toBe(400);
      expect(await version.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
      const media = await fetch(`${base}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(media.status).toBe(415);
      expect(media.headers.get('cache-control')).toBe('no-store');
      expect(await media.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('when an operation that declares api-version gets an unknown one, then it is that surface\'s schema violation; pages ignore it', async () => {
      expect((await fetch(`${base}/health`, { headers: { 'api-version': '2.0' } })).status).toBe(422);
      expect((await fetch(`${base}/api/v1/me`, { headers: { ...bearer, 'api-version': '2.0' } })).status).toBe(400);
      expect((await fetch(`${base}/login`, { headers: { 'api-version': '2.0' } })).status).toBe(200);
      expect((await fetch(`${base}/openapi.json`, { headers: { 'api-version': '2.0' } })).status).toBe(200);
    });
  });

  describe('conditional requests work for every HTTP client', () => {
    it('when fetch revalidates with If-None-Match (it adds Cache-Control: no-cache), then 304 with the ETag and no body', async () => {
      const agent = await newAgent();
      const first = await fetch(`${base}/agents/${agent.id}`, { headers: bearer });
      const etag = first.headers.get('etag') as string;
      const again = await fetch(`${base}/agents/${agent.id}`, { headers: { ...bearer, 'if-none-match': etag, 'cache-control': 'no-cache' } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(await again.text()).toBe('');
      const star = await fetch(`${base}/agents/${agent.id}`, { headers: { ...bearer, 'if-none-match': '*' } });
      expect(star.status).toBe(304);
      const weak = await fetch(`${base}/agents/${agent.id}`, { headers: { ...bearer, 'if-none-match': `"other", W/${etag}` } });
      expect(weak.status).toBe(304);
      const since = await fetch(`${base}/agents/${agent.id}`, { headers: { ...bearer, 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() } });
      expect(since.status).toBe(304);
      const stale = await fetch(`${base}/agents/${agent.id}`, { headers: { ...bearer, 'if-match': '"stale"' } });
      expect(stale.status).toBe(412);
      expect(await stale.json()).toMatchObject({ error: 'precondition_failed' });
    });

    it('when a response without validators is asked If-None-Match: *, then it answers in full (no undeclared 304)', async () => {
      for (const path of ['/health', '/health/ready', '/openapi.json', '/docs', '/protected']) {
        const res = await fetch(`${base}${path}`, { headers: { ...bearer, 'if-none-match': '*' } });
        expect(res.status).toBe(200);
      }
    });

    it('when the generated client sends If-None-Match, then it gets its 304 on both surfaces', async () => {
      const client = createAgentFleetClient({ baseUrl: base, headers: bearer });
      const created = await client.POST('/api/v1/agents', { body: { name: 'typed-etag', type: 'type_b' } });
      const id = created.data!.data.id!;
      const read = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: id } } });
      const etag = read.response.headers.get('etag') as string;
      const revalidated = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: id } }, headers: { 'If-None-Match': etag } });
      expect(revalidated.response.status).toBe(304);
      const list = await client.GET('/agents', { params: { query: { limit: 5 } } });
      const listAgain = await client.GET('/agents', { params: { query: { limit: 5 } }, headers: { 'If-None-Match': list.response.headers.get('etag') as string } });
      expect(listAgain.response.status).toBe(304);
    });
  });

  describe('HEAD works wherever GET does', () => {
    it.each(['/agents', '/api/v1/agents', '/health', '/openapi.json', '/docs', '/login', '/api/v1/me'])(
      'when HEAD %s is sent, then the status and headers are GET\'s and there is no body',
      async (path) => {
        const get = await fetch(`${base}${path}`, { headers: bearer });
        const head = await fetch(`${base}${path}`, { method: 'HEAD', headers: bearer });
        expect(head.status).toBe(get.status);
        expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
        expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
        expect(await head.text()).toBe('');
      },
    );

    it('when HEAD names a missing agent, then 404 without a body', async () => {
      const head = await fetch(`${base}/agents/0190a8f0-0000-7000-8000-000000000000`, { method: 'HEAD', headers: bearer });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe('');
    });
  });

  describe('errors below Express keep the shape', () => {
    it.each([
      ['a header value with a control byte', 'GET /agents HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 400],
      ['Content-Length with Transfer-Encoding', 'POST /agents HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
      ['headers over the limit', `GET /agents HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['a request line that is not HTTP', 'GET /a b HTTP/1.1\r\n\r\n', 400],
      ['a header name with a space', 'GET /agents HTTP/1.1\r\nX Y: z\r\n\r\n', 400],
    ])('when %s arrives, then a JSON error with X-Request-ID answers and is counted', async (_what, request, status) => {
      const before = await rejectedCount(get(), status);
      const res = await sendRaw(base, request);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      expect(await rejectedCount(get(), status)).toBe(before + 1);
    });

    it('when a method Node does not know arrives, then it is answered like any method the path lacks: 405 with Allow, or 404', async () => {
      const known = await sendRaw(base, 'FROB /agents HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(known.status).toBe(405);
      expect(known.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
      expect(JSON.parse(known.body)).toMatchObject({ error: 'method_not_allowed' });
      const lower = await sendRaw(base, 'get /api/v1/agents HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(lower.status).toBe(405);
      expect(JSON.parse(lower.body)).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
      const unknown = await sendRaw(base, 'FROB /nowhere HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(unknown.status).toBe(404);
    });

    it('when the target is under /api, then the parser error uses the /api envelope', async () => {
      const res = await sendRaw(base, `GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String), requestId: res.headers['x-request-id'] } });
    });

    it('when Expect is not 100-continue, then 417 in JSON', async () => {
      const res = await sendRaw(base, 'POST /agents HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      expect(res.status).toBe(417);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'expectation_failed' });
    });

    it('when the request target is in absolute form, then it is routed like its path', async () => {
      const { hostname, port } = new URL(base);
      const res = await sendRaw(base, `GET http://${hostname}:${port}/health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
      const missing = await sendRaw(base, `GET http://${hostname}:${port}/nowhere HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
      expect(missing.status).toBe(404);
      // Dot segments stay what they are: `..` here is an agent id, as it is in origin form.
      const dots = await sendRaw(base, `GET http://${hostname}:${port}/agents/%2e%2e HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${bearer.authorization}\r\nConnection: close\r\n\r\n`);
      expect(dots.status).toBe(404);
      expect(JSON.parse(dots.body)).toMatchObject({ detail: 'Agent not found' });
    });
  });

  describe('one e-mail rule', () => {
    it.each(['a@b', 'ü@example.com', 'a b@example.com', 'a@-example.com'])('when %s is offered, then the service and the contract both refuse it', async (email) => {
      expect(isEmail(email)).toBe(false);
      const res = await fetch(`${base}/api/v1/users`, json(JSON.stringify({ name: 'E', email, password: 'long enough password' })));
      expect(res.status).toBe(400);
      expect(() => loadConfig({ NODE_ENV: 'test', ADMIN_EMAIL: email, ADMIN_PASSWORD: 'long enough password' })).toThrow(/ADMIN_EMAIL/);
    });

    it('when a plain address is offered, then both accept it', async () => {
      expect(isEmail('ada.lovelace+fleet@example.co.uk')).toBe(true);
      const res = await fetch(`${base}/api/v1/users`, json(JSON.stringify({ name: 'E', email: `ok-${Date.now()}@example.co.uk`, password: 'long enough password' })));
      expect(res.status).toBe(201);
    });
  });

  describe('races end cleanly', () => {
    it('when the caller is deleted while its request runs, then the write answers 401, not a foreign-key 500', async () => {
      const doomed = await get().signUp();
      const store = createStore(get().database.db);
      await store.users.remove(doomed.user.id);
      await expect(createAgent(store, { kind: 'user', user: doomed.user }, { name: 'orphan', type: 'type_a' }, get().config.quotas)).rejects.toMatchObject(
        new AppError('unauthorized', 'Could not validate credentials'),
      );
    });

    it('when requests race the deletion of their user over HTTP, then each answers 201, 401 or 404 and none 5xx', async () => {
      const doomed = await get().signUp();
      const headers = { authorization: `Bearer ${doomed.token}`, 'content-type': 'application/json' };
      const writes = Array.from({ length: 30 }, (_, i) =>
        fetch(`${base}/agents`, { method: 'POST', headers, body: JSON.stringify({ name: `race ${i}`, type: 'type_a' }) }).then((res) => res.status),
      );
      const deletion = fetch(`${base}/api/v1/users/${doomed.user.id}`, { method: 'DELETE', headers: { 'x-api-key': TEST_API_KEY } }).then((res) => res.status);
      const statuses = await Promise.all([...writes, deletion]);
      for (const status of statuses) expect([201, 204, 401, 403, 404]).toContain(status);
    });
  });

  describe('cursor limit is capped, as the specification says', () => {
    it('when limit is above 100, then a page of 100 answers; below 1 or not an integer, 400', async () => {
      const owner = await get().signUp();
      const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
      for (let i = 0; i < 101; i++) {
        await fetch(`${base}/api/v1/agents`, { method: 'POST', headers, body: JSON.stringify({ name: `many ${i}`, type: 'type_c' }) });
      }
      const page = (await (await fetch(`${base}/api/v1/agents?limit=500`, { headers })).json()) as { data: unknown[]; meta: { hasMore: boolean } };
      expect(page.data).toHaveLength(100);
      expect(page.meta.hasMore).toBe(true);
      for (const bad of ['0', '-5', '2.5', 'ten']) expect((await fetch(`${base}/api/v1/agents?limit=${bad}`, { headers })).status).toBe(400);
    });
  });
});

async function rejectedCount(app: TestApp, status: number): Promise<number> {
  const metric = await app.metrics.rejectedRequests.get();
  return metric.values.filter((value) => value.labels.status === String(status)).reduce((sum, value) => sum + value.value, 0);
}

describeEachDatabase('ids that cannot name a row', (get) => {
  it.each(['..', 'not-a-uuid', '00000000-0000-0000-0000-00000000000g'])('when an admin deletes, reads or changes user %s, then 404, never a database error', async (id) => {
    const admin = await get().signUp({ role: 'admin' });
    const target = `/api/v1/users/${encodeURIComponent(id)}`;
    for (const res of [await admin.http.delete(target), await admin.http.get(target), await admin.http.patch(target).send({ name: 'x' })]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});
