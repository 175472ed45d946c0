import http from 'node:http';
import type { AddressInfo } from 'node:net';
const SESSION_COOKIE = 'agent_fleet_session';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request logs', () => {
  let app: TestApp;
  let counter = 0;
  const nextRequestId = () => `ops-log-${++counter}`;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await app.close();
  });

  const requestLines = (reqId: string) => app.logs.lines.filter((line) => line.reqId === reqId && line.msg === 'request completed');

  it('when an agent is read by id, then exactly one JSON line names request id, method, route template, status and duration', async () => {
    const agent = (await app.http.post('/agents').send({ name: 'logged', type: 'type_a' }).expect(201)).body as { id: string };
    const reqId = nextRequestId();
    const res = await app.http.get(`/agents/${agent.id}`).set('X-Request-ID', reqId);
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe(reqId);

    const lines = requestLines(reqId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual(
      expect.objectContaining({
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        reqId,
        method: 'GET',
        route: '/agents/{agent_id}',
        path: `/agents/${agent.id}`,
        status: 200,
        durationMs: expect.any(Number),
      }),
    );
    expect(lines[0]?.durationMs as number).toBeGreaterThanOrEqual(0);
    expect(lines[0]?.route).not.toContain(agent.id);
    // Every log line is one JSON object on one line.
    for (const raw of app.logs.raw) expect(() => JSON.parse(raw)).not.toThrow();
  });

  it.each([
    ['POST', '/agents', 201, '/agents'],
    ['GET', '/agents/00000000-0000-7000-8000-000000000000', 404, '/agents/{agent_id}'],
    ['GET', '/agents?limit=1001', 422, '/agents'],
    ['GET', '/no/such/path', 404, 'unmatched'],
  ])('when %s %s answers %i, then its one line has route %s and that status', async (method, url, status, route) => {
    const reqId = nextRequestId();
    const req = method === 'POST' ? app.http.post(url).send({ name: 'x', type: 'type_c' }) : app.http.get(url);
    const res = await req.set('X-Request-ID', reqId);
    expect(res.status).toBe(status);
    expect(res.headers['x-request-id']).toBe(reqId);
    expect(requestLines(reqId)).toEqual([expect.objectContaining({ reqId, method, route, status })]);
  });

  it('when no X-Request-ID is sent, then one is generated, echoed and logged', async () => {
    const before = app.logs.lines.length;
    const res = await app.anonymous.get('/health');
    expect(res.status).toBe(200);
    const generated = res.headers['x-request-id'] as string;
    expect(generated).toMatch(UUID);
    expect(app.logs.lines.slice(before)).toEqual([expect.objectContaining({ reqId: generated, route: '/health', status: 200 })]);
  });

  it.each([
    ['exactly 128 safe characters', 'a'.repeat(128)],
    ['letters, digits and . _ : -', 'trace-01.span_02:A'],
  ])('when X-Request-ID is %s, then it is accepted, echoed and logged as it is', async (_label, offered) => {
    const res = await app.anonymous.get('/health').set('X-Request-ID', offered);
    expect(res.headers['x-request-id']).toBe(offered);
    expect(requestLines(offered)).toHaveLength(1);
  });

  it.each([
    ['is 129 characters long', 'a'.repeat(129)],
    ['has a space', 'two words'],
    ['has markup', '<script>alert(1)</script>'],
    ['has a slash', '../../etc/passwd'],
    ['has a quote and braces', '"},{"level":"fatal'],
    ['is a 10 KB value', 'x'.repeat(10_000)],
  ])('when X-Request-ID %s, then it is replaced by a generated id, which is echoed and logged', async (_label, offered) => {
    const before = app.logs.lines.length;
    const res = await app.http.get('/agents?limit=1').set('X-Request-ID', offered);
    expect(res.status).toBe(200);
    const replaced = res.headers['x-request-id'] as string;
    expect(replaced).toMatch(UUID);
    const lines = app.logs.lines.slice(before);
    expect(lines).toEqual([expect.objectContaining({ reqId: replaced, route: '/agents', status: 200 })]);
    expect(requestLines(offered)).toHaveLength(0);
  });

  it('when an error body is answered, then the echoed request id is the logged one', async () => {
    const reqId = nextRequestId();
    const res = await app.anonymous.get('/agents').set('X-Request-ID', reqId);
    expect(res.status).toBe(401);
    expect(res.headers['x-request-id']).toBe(reqId);
    expect(requestLines(reqId)).toEqual([expect.objectContaining({ status: 401, route: '/agents' })]);
  });

  it('when requests carry Authorization, Cookie and X-API-Key and a response sets a cookie, then those values never reach the log', async () => {
    const signedIn = await app.signUp();
    const loginId = nextRequestId();
    const login = await app.anonymous
      .post('/api/auth/login')
      .set('X-Request-ID', loginId)
      .send({ email: signedIn.user.email, password: signedIn.password });
    expect(login.status).toBe(200);
    const setCookie = (login.headers['set-cookie'] as unknown as string[]).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    expect(setCookie).toBeDefined();
    const sessionValue = (setCookie ?? '').split(';')[0]?.split('=')[1] ?? '';
    expect(sessionValue.length).toBeGreaterThan(20);

    const bearerId = nextRequestId();
    await app.anonymous.get('/agents').set('X-Request-ID', bearerId).set('Authorization', `Bearer ${signedIn.token}`).expect(200);
    const cookieId = nextRequestId();
    await app.anonymous.get('/agents').set('X-Request-ID', cookieId).set('Cookie', `${SESSION_COOKIE}=${sessionValue}; theme=dark`).expect(200);
    const keyId = nextRequestId();
    await app.anonymous.get('/agents').set('X-Request-ID', keyId).set('X-API-Key', TEST_API_KEY).expect(200);
    const wrongKeyId = nextRequestId();
    const wrongKey = 'not-the-key-but-still-a-secret-42';
    await app.anonymous.get('/agents').set('X-Request-ID', wrongKeyId).set('X-API-Key', wrongKey).expect(403);

    const header = (reqId: string, side: 'req' | 'res', name: string) =>
      ((requestLines(reqId)[0]?.[side] as { headers?: Record<string, unknown> } | undefined)?.headers ?? {})[name];
    expect(header(loginId, 'res', 'set-cookie')).toBe('[redacted]');
    expect(header(bearerId, 'req', 'authorization')).toBe('[redacted]');
    expect(header(cookieId, 'req', 'cookie')).toBe('[redacted]');
    expect(header(keyId, 'req', 'x-api-key')).toBe('[redacted]');
    expect(header(wrongKeyId, 'req', 'x-api-key')).toBe('[redacted]');
    // Other headers are still there: redaction is by name, not wholesale.
    expect(header(keyId, 'req', 'x-request-id')).toBe(keyId);

    const text = app.logs.text();
    for (const secret of [signedIn.token, sessionValue, TEST_API_KEY, wrongKey, signedIn.password]) {
      expect(text).not.toContain(secret);
    }
  });

  it('when the client hangs up before its request body is complete, then the request still gets its one line, status 499 at warn level', async () => {
    const server = app.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const reqId = nextRequestId();
    try {
      const { port } = server.address() as AddressInfo;
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/agents',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '100', 'X-API-Key': TEST_API_KEY, 'X-Request-ID': reqId, Expect: '100-continue' },
      });
      req.on('error', () => undefined);
      await new Promise<void>((resolve) => req.once('continue', resolve));
      req.write('{"name":');
      req.destroy();
      await waitFor(() => requestLines(reqId).length > 0);
      expect(requestLines(reqId)).toEqual([expect.objectContaining({ level: 'warn', method: 'POST', status: 499, aborted: true })]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** Polls until `condition` holds (the server sees a hang-up asynchronously); gives up after 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
}
