import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { createTokenService } from '../../src/auth/tokens';
import { createLogger } from '../../src/logger';
import type { Config } from '../../src/config/config';
import { loadApiDocument } from '../../src/contract/openapi';
import type { RedisConnection } from '../../src/data/redis';
import { describeEachDatabase, openTestDatabase, startTestApp, testConfig, TEST_METRICS_TOKEN, type TestApp } from '../support/harness';
import { sendRaw } from '../support/raw-http';
import { REDIS_TEST_URL, useRedisPair } from '../support/services';
import { assetPath } from '../support/browser-assets';

const STRONG_TAG = /^"[\x21\x23-\x7e]+"$/;
const WEAK_TAG = /^W\/"[A-Za-z0-9_-]{27}"$/;

describeEachDatabase('caching headers', (get) => {
  const surfaces = [
    { name: 'root', base: '/agents', data: (body: { data?: unknown } & Record<string, unknown>) => body },
    { name: '/api/v1', base: '/api/v1/agents', data: (body: { data?: unknown }) => body.data as Record<string, unknown> },
  ];

  describe.each(surfaces)('on the $name surface', ({ base, data }) => {
    it('when an item is read, then a strong ETag, Last-Modified and private no-cache come with it; If-None-Match gives 304', async () => {
      const created = await get().http.post(base).send({ name: 'cached', type: 'type_a' }).expect(201);
      const item = data(created.body);
      const read = await get().http.get(`${base}/${item.id}`).expect(200);
      expect(read.headers.etag).toMatch(STRONG_TAG);
      expect(read.headers.etag).toBe(created.headers.etag);
      expect(read.headers['cache-control']).toBe('private, no-cache');
      expect(read.headers['last-modified']).toBe(new Date(String(item.updated_at)).toUTCString());

      const again = await get().http.get(`${base}/${item.id}`).set('If-None-Match', read.headers.etag!);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(read.headers.etag);
      const weakly = await get().http.get(`${base}/${item.id}`).set('If-None-Match', `W/${read.headers.etag}`);
      expect(weakly.status).toBe(304);

      await get().http.patch(`${base}/${item.id}`).send({ name: 'changed' }).expect(200);
      const stale = await get().http.get(`${base}/${item.id}`).set('If-None-Match', read.headers.etag!);
      expect(stale.status).toBe(200);
      expect(data(stale.body).name).toBe('changed');
      expect(stale.headers.etag).not.toBe(read.headers.etag);
    });

    it('when a collection is read, then a weak ETag that changes with its content, and 304 while it does not', async () => {
      const owner = await get().signUp();
      await owner.http.post(base).send({ name: 'one', type: 'type_a' }).expect(201);
      const list = await owner.http.get(base).expect(200);
      expect(list.headers.etag).toMatch(WEAK_TAG);
      expect(list.headers['cache-control']).toBe('private, no-cache');
      expect(list.headers['last-modified']).toEqual(expect.any(String));
      expect((await owner.http.get(base).set('If-None-Match', list.headers.etag!)).status).toBe(304);
      await owner.http.post(base).send({ name: 'two', type: 'type_a' }).expect(201);
      const changed = await owner.http.get(base).set('If-None-Match', list.headers.etag!);
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(list.headers.etag);
    });

    it('when If-Match names the current version, then PUT, PATCH and DELETE apply; when stale or from another resource, then 412 and nothing changes', async () => {
      const item = data((await get().http.post(base).send({ name: 'guarded', type: 'type_a' }).expect(201)).body);
      const other = await get().http.post(base).send({ name: 'other', type: 'type_a' }).expect(201);
      const v1 = (await get().http.get(`${base}/${item.id}`).expect(200)).headers.etag!;

      const patched = await get().http.patch(`${base}/${item.id}`).set('If-Match', v1).send({ name: 'v2' }).expect(200);
      const v2 = patched.headers.etag!;
      expect(v2).toMatch(STRONG_TAG);
      expect(v2).not.toBe(v1);

      for (const [method, tag] of [
        ['put', v1],
        ['patch', v1],
        ['delete', v1],
        ['patch', other.headers.etag!],
        ['patch', `W/${v2}`],
        ['patch', '"nonsense"'],
      ] as const) {
        const request = get().http[method](`${base}/${item.id}`).set('If-Match', tag);
        const res = method === 'delete' ? await request : await request.send({ name: 'lost update', type: 'type_b' });
        expect(res.status).toBe(412);
        expect(JSON.stringify(res.body)).toMatch(/precondition_failed|PRECONDITION_FAILED/i);
      }
      expect(data((await get().http.get(`${base}/${item.id}`).expect(200)).body).name).toBe('v2');

      await get().http.put(`${base}/${item.id}`).set('If-Match', `"x", ${v2}`).send({ name: 'v3', type: 'type_b' }).expect(200);
      await get().http.patch(`${base}/${item.id}`).set('If-Match', '*').send({ name: 'v4' }).expect(200);
      const current = (await get().http.get(`${base}/${item.id}`).expect(200)).headers.etag!;
      await get().http.delete(`${base}/${item.id}`).set('If-Match', current).expect(204);
      expect((await get().http.get(`${base}/${item.id}`)).status).toBe(404);
    });

    it('when two writers race with the same If-Match, then exactly one wins', async () => {
      const item = data((await get().http.post(base).send({ name: 'race', type: 'type_a' }).expect(201)).body);
      const tag = (await get().http.get(`${base}/${item.id}`).expect(200)).headers.etag!;
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => get().http.patch(`${base}/${item.id}`).set('If-Match', tag).send({ name: `writer ${i}` })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    });
  });

  it('when a task is read and changed, then its ETag and If-Match work the same way', async () => {
    const agent = (await get().http.post('/agents').send({ name: 'task host', type: 'type_a' }).expect(201)).body;
    const task = await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 'cached task' }).expect(201);
    const read = await get().http.get(`/api/v1/agents/${agent.id}/tasks/${task.body.id}`).expect(200);
    expect(read.headers.etag).toBe(task.headers.etag);
    expect((await get().http.get(`/agents/${agent.id}/tasks/${task.body.id}`).set('If-None-Match', read.headers.etag!)).status).toBe(304);
    await get().http.patch(`/agents/${agent.id}/tasks/${task.body.id}`).set('If-Match', read.headers.etag!).send({ status: 'running' }).expect(200);
    expect((await get().http.patch(`/api/v1/agents/${agent.id}/tasks/${task.body.id}`).set('If-Match', read.headers.etag!).send({ status: 'cancelled' })).status).toBe(412);
  });
});

type Limits = { api?: number; login?: number; root?: number; keyPrefix?: string; trustProxy?: Config['trustProxy'] };

/** An app with its own rate limits, on its own database unless given one (and a Redis when given). */
async function limitedApp(limits: Limits, redis?: RedisConnection, database?: Awaited<ReturnType<typeof openTestDatabase>>) {
  const db = database ?? (await openTestDatabase('sqlite'));
  const base = testConfig({ database: db.config });
  const rateLimits = {
    ...base.rateLimits,
    api: { ...base.rateLimits.api, max: limits.api ?? base.rateLimits.api.max },
    login: { ...base.rateLimits.login, max: limits.login ?? base.rateLimits.login.max },
    root: { ...base.rateLimits.root, max: limits.root ?? base.rateLimits.root.max },
    keyPrefix: limits.keyPrefix ?? base.rateLimits.keyPrefix,
  };
  const config = { ...base, rateLimits, trustProxy: limits.trustProxy ?? base.trustProxy };
  const app = buildApp({ config, db: db.db, logger: createLogger({ logLevel: 'silent' }), tokens: createTokenService(config.auth.jwt), redis });
  return { http: supertest(app), db };
}

describe('rate limits', () => {
  it('when /api gets more than its limit, then 429 RATE_LIMIT_EXCEEDED with Retry-After and RateLimit headers, counted in /metrics', async () => {
    const { http, db } = await limitedApp({ api: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const ok = await http.post('/api/v1/users').send({ name: `u${i}`, email: `limited-${i}-${randomBytes(3).toString('hex')}@example.test`, password: 'long enough pw' });
        expect(ok.status).toBe(201);
        expect(ok.headers['ratelimit-policy']).toMatch(/^"api"; q=3; w=900(;|$)/);
        expect(ok.headers.ratelimit).toMatch(new RegExp(`^"api"; r=${2 - i}; t=\\d+$`));
      }
      const refused = await http.get('/api/v1/me').set('X-Request-ID', 'limited-1');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/Too many requests/), requestId: 'limited-1' } });
      // The root surface has a limit of its own.
      expect((await http.get('/health')).status).toBe(200);
      const metrics = await http.get('/metrics').set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`).expect(200);
      expect(metrics.text).toMatch(/rate_limit_hits_total\{limiter="api"\} 1/);
    } finally {
      await db.close();
    }
  });

  it('when sign-ins fail 5 times, then the 6th attempt is 429, and successful sign-ins are not counted', async () => {
    const { http, db } = await limitedApp({ login: 5 });
    try {
      const email = `login-limit-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'limited', email, password: 'correct horse' }).expect(201);
      for (let i = 0; i < 10; i++) await http.post('/api/auth/login').send({ email, password: 'correct horse' }).expect(200);
      for (let i = 0; i < 5; i++) expect((await http.post('/api/auth/login').send({ email, password: 'wrong password' })).status).toBe(401);
      const refused = await http.post('/api/auth/login').send({ email, password: 'correct horse' });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(refused.headers['retry-after']).toEqual(expect.any(String));
    } finally {
      await db.close();
    }
  });

  it('when passwords are guessed at /token and /api/auth/login, then both share the 5-failure budget', async () => {
    const { http, db } = await limitedApp({ login: 5 });
    try {
      const email = `token-limit-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'limited', email, password: 'correct horse' }).expect(201);
      for (let i = 0; i < 3; i++) {
        expect((await http.post('/token').type('form').send({ grant_type: 'password', username: email, password: 'guess' })).status).toBe(400);
      }
      for (let i = 0; i < 2; i++) expect((await http.post('/api/auth/login').send({ email, password: 'guess' })).status).toBe(401);
      const refused = await http.post('/token').type('form').send({ grant_type: 'password', username: email, password: 'correct horse' });
      expect(refused.status).toBe(429);
      // The token endpoint speaks RFC 6749 for every error, this one included.
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(refused.headers['cache-control']).toBe('no-store');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it('when the root surface exceeds its limit, then 429 rate_limit_exceeded in the root error body, and health probes are never limited', async () => {
    const { http, db } = await limitedApp({ root: 2 });
    try {
      await http.get('/agents').expect(401);
      await http.get('/agents').expect(401);
      const refused = await http.get('/agents');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'rate_limit_exceeded', message: expect.any(String) });
      for (let i = 0; i < 5; i++) await http.get('/health').expect(200);
    } finally {
      await db.close();
    }
  });

  it('when TRUST_PROXY is off, then X-Forwarded-For is ignored; when on, then each forwarded client has its own count', async () => {
    const direct = await limitedApp({ root: 1 });
    const proxied = await limitedApp({ root: 1, trustProxy: 1 });
    try {
      await direct.http.get('/agents').set('X-Forwarded-For', '203.0.113.1').expect(401);
      expect((await direct.http.get('/agents').set('X-Forwarded-For', '203.0.113.2')).status).toBe(429);
      await proxied.http.get('/agents').set('X-Forwarded-For', '203.0.113.1').expect(401);
      await proxied.http.get('/agents').set('X-Forwarded-For', '203.0.113.2').expect(401);
      expect((await proxied.http.get('/agents').set('X-Forwarded-For', '203.0.113.1')).status).toBe(429);
    } finally {
      await direct.db.close();
      await proxied.db.close();
    }
  });

  const describeRedis = process.env.TEST_REDIS_AVAILABLE === '0' ? describe.skip : describe;
  describeRedis('with Redis', () => {
    const instances = useRedisPair();

    it('when two app instances share one Redis, then they share one count', async () => {
      const prefix = `test-${randomBytes(6).toString('hex')}:`;
      const database = await openTestDatabase('sqlite');
      try {
        const one = await limitedApp({ api: 4, keyPrefix: prefix }, instances.a, database);
        const two = await limitedApp({ api: 4, keyPrefix: prefix }, instances.b, database);
        expect((await one.http.get('/api/v1/me')).status).toBe(401);
        expect((await two.http.get('/api/v1/me')).status).toBe(401);
        expect((await one.http.get('/api/v1/me')).status).toBe(401);
        const last = await two.http.get('/api/v1/me');
        expect(last.status).toBe(401);
        expect(last.headers.ratelimit).toMatch(/^"api"; r=0;/);
        expect((await one.http.get('/api/v1/me')).status).toBe(429);
        expect((await two.http.get('/api/v1/me')).status).toBe(429);
        const inspect = createClient({ url: REDIS_TEST_URL });
        await inspect.connect();
        try {
          const keys = await inspect.keys(`${prefix}*`);
          expect(keys.length).toBeGreaterThan(0);
          await inspect.del(keys);
        } finally {
          await inspect.close();
        }
      } finally {
        await database.close();
      }
    });

    it('when Redis is configured, then /health/ready checks it', async () => {
      const { http, db } = await limitedApp({}, instances.a);
      try {
        const ready = await http.get('/health/ready').expect(200);
        expect(ready.body).toEqual({ status: 'ready', checks: { database: 'up', redis: 'up' } });
      } finally {
        await db.close();
      }
    });
  });
});

describe('CORS, versions, deprecation and security headers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { corsOrigins: ['https://console.example.com'] });
  });
  afterAll(async () => {
    await app.close();
  });

  it('when an allowed origin sends a preflight, then it is answered and cached for a day', async () => {
    const res = await app.anonymous
      .options('/api/v1/agents')
      .set('Origin', 'https://console.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'Authorization, Content-Type, If-Match, api-version');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type,Authorization,X-Request-ID/);
    expect(res.headers['access-control-allow-headers']).toMatch(/If-Match/);
  });

  it('when a disallowed origin sends a preflight or a request, then no CORS header, and never a 5xx', async () => {
    const preflight = await app.anonymous
      .options('/api/v1/agents')
      .set('Origin', 'https://evil.example.net')
      .set('Access-Control-Request-Method', 'DELETE');
    expect(preflight.status).toBeLessThan(500);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const simple = await app.http.get('/agents').set('Origin', 'https://evil.example.net');
    expect(simple.status).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const allowed = await app.http.get('/agents').set('Origin', 'https://console.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
    expect(allowed.headers['access-control-expose-headers']).toMatch(/ETag/);
    const noOrigin = await app.http.get('/agents');
    expect(noOrigin.status).toBe(200);
  });

  it('when a request sends no Origin, then it gets Vary: Origin and no Access-Control header', async () => {
    const res = await app.http.get('/agents');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Origin');
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    const allowed = await app.http.get('/agents').set('Origin', 'https://console.example.com');
    expect(allowed.headers).toMatchObject({ vary: 'Origin', 'access-control-allow-credentials': 'true', 'access-control-expose-headers': expect.stringMatching(/ETag/) });
  });

  it('when no api-version is sent, then 1.0 is echoed; when 1.0 is sent, then it is echoed; anything else is a schema violation of the operation (400 /api, 422 root)', async () => {
    expect((await app.http.get('/agents')).headers['api-version']).toBe('1.0');
    expect((await app.http.get('/api/v1/agents').set('api-version', '1.0')).headers['api-version']).toBe('1.0');
    const apiBad = await app.http.get('/api/v1/agents').set('api-version', '2.0');
    expect(apiBad.status).toBe(400);
    expect(apiBad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'api-version', message: expect.any(String) }] });
    const rootBad = await app.http.get('/agents').set('api-version', 'banana');
    expect(rootBad.status).toBe(422);
    expect(rootBad.body).toMatchObject({ error: 'validation_error', details: { fields: [{ field: 'api-version', in: 'header' }] } });
  });

  it('when an operation is marked deprecated with x-sunset in api.yaml, then it answers Deprecation and Sunset with no route code', async () => {
    const document = loadApiDocument();
    const health = (document.paths as Record<string, Record<string, Record<string, unknown>>>)['/health']!.get!;
    health.deprecated = true;
    health['x-sunset'] = '2027-06-30T00:00:00Z';
    const database = await openTestDatabase('sqlite');
    try {
      const config = testConfig({ database: database.config });
      const deprecatedApp = buildApp({ config, db: database.db, logger: createLogger({ logLevel: 'silent' }), apiDocument: document });
      const res = await supertest(deprecatedApp).get('/health').expect(200);
      expect(res.headers.deprecation).toBe('true');
      expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      const other = await supertest(deprecatedApp).get('/health/ready').expect(200);
      expect(other.headers.deprecation).toBeUndefined();
    } finally {
      await database.close();
    }
    // The shipped contract has no deprecated operation yet.
    expect((await app.http.get('/health')).headers.deprecation).toBeUndefined();
  });

  it('when anything but a page is answered (JSON, problem+json, 404, 405, 304, OPTIONS, a body the parser refuses), then it carries nosniff, a CSP that loads nothing and frames nothing, and X-Frame-Options DENY', async () => {
    const created = await app.http.post('/agents').send({ name: 'headers', type: 'type_a' }).expect(201);
    const answers = [
      await app.http.get('/agents'),
      created,
      await app.http.get(`/agents/${created.body.id}`).set('If-None-Match', created.headers.etag!),
      await app.anonymous.get('/api/v1/me'),
      await app.anonymous.get('/nowhere'),
      await app.anonymous.get('/api/v1/nowhere'),
      await app.anonymous.delete('/health'),
      await app.anonymous.options('/agents'),
      await app.anonymous.options('/api/v1/agents').set('Origin', 'https://console.example.com').set('Access-Control-Request-Method', 'GET'),
      await app.http.post('/api/v1/agents').set('Content-Type', 'application/json').send('{"name":'),
      await app.anonymous.get('/openapi.json'),
      await app.anonymous.get(assetPath('pages.css')),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 201, 304, 401, 404, 404, 405, 204, 204, 400, 200, 200]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Not in production: HSTS is sent there only (below).
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('when a page is answered, then it carries helmet\'s whole set, its CSP forbidding framing too', async () => {
    for (const res of [await app.anonymous.get('/login'), await app.anonymous.get('/docs'), await app.anonymous.get('/redoc'), await app.anonymous.get('/client')]) {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('when Node\'s HTTP parser refuses a request or its Expect, then the answer carries the same headers as any other JSON', async () => {
    const baseUrl = await app.listen();
    const refused = await sendRaw(baseUrl, 'GET /agents HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    const expectation = await sendRaw(baseUrl, 'GET /agents HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
    expect([refused.status, expectation.status]).toEqual([400, 417]);
    for (const res of [refused, expectation]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('when the service runs in production, then JSON answers carry HSTS too', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const production = buildApp({ config: testConfig({ database: database.config, env: 'production' }), db: database.db, logger: createLogger({ logLevel: 'silent' }) });
      for (const res of [await supertest(production).get('/health'), await supertest(production).get('/nowhere')]) {
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      }
    } finally {
      await database.close();
    }
  });
});
