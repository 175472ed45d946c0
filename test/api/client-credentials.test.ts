import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { describeEachDatabase, TEST_JWT_SECRET, testConfig, type SignedInUser, type TestApp } from '../support/harness';

const secretKey = new TextEncoder().encode(TEST_JWT_SECRET);
const INVALID_CLIENT = { error: 'invalid_client', error_description: expect.any(String) };
const INVALID_CREDENTIALS = { error: 'unauthorized', message: 'Could not validate credentials', detail: 'Could not validate credentials' };

type Key = { id: string; secret: string; agent_id: string };

const formGrant = (app: TestApp, fields: Record<string, string>) => app.anonymous.post('/token').type('form').send({ grant_type: 'client_credentials', ...fields });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function setUp(app: TestApp): Promise<{ owner: SignedInUser; agentId: string; key: (body?: Record<string, unknown>) => Promise<Key> }> {
  const owner = await app.signUp();
  const agentId = (await owner.http.post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data.id as string;
  const key = async (body: Record<string, unknown> = {}) => (await owner.http.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'grant', ...body }).expect(201)).body.data as Key;
  return { owner, agentId, key };
}

async function expectInvalidClient(res: { status: number; headers: Record<string, string>; body: unknown }): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Basic realm="agent-fleet"');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toEqual(INVALID_CLIENT);
}

describeEachDatabase('client_credentials grant of agent keys', (get) => {
  let owner: SignedInUser;
  let agentId: string;
  let newKey: (body?: Record<string, unknown>) => Promise<Key>;
  beforeAll(async () => {
    ({ owner, agentId, key: newKey } = await setUp(get()));
  });
  const bearer = (token: string) => ({
    get: (path: string) => get().anonymous.get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string) => get().anonymous.post(path).set('Authorization', `Bearer ${token}`),
  });

  it('when a key’s id and secret come as form fields, then 200 answers a bearer token of at most 15 minutes, no refresh token, Cache-Control: no-store', async () => {
    const key = await newKey();
    const res = await formGrant(get(), { client_id: key.id, client_secret: key.secret });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 900 });
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ sub: key.id, client_id: key.id, agent_id: agentId, scope: 'tasks:read tasks:write tasks:work' });
    expect(claims.sid).toBeUndefined();
    expect((claims.exp as number) - (claims.iat as number)).toBe(900);
    expect(decodeProtectedHeader(res.body.access_token).typ).toBe('at+jwt');
    expect((await bearer(res.body.access_token).get(`/api/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('when they come as HTTP Basic credentials (each form-urlencoded), then the grant works the same', async () => {
    const key = await newKey();
    const res = await get().anonymous.post('/token').set('Authorization', basic(key.id, key.secret)).type('form').send({ grant_type: 'client_credentials' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 900 });
    expect((await bearer(res.body.access_token).get(`/agents/${agentId}`)).status).toBe(200);
  });

  it('when the token is used, then it acts as its key would: within its scopes, on its agent only, nowhere else', async () => {
    const key = await newKey({ scopes: ['tasks:read'] });
    const token = (await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200)).body.access_token as string;
    expect(decodeJwt(token).scope).toBe('tasks:read');
    const as = bearer(token);
    await as.get(`/api/v1/agents/${agentId}/tasks`).expect(200);
    const create = await as.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'no' });
    expect(create.status).toBe(403);
    expect(create.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'This agent key lacks the scope tasks:write' });
    const sibling = (await owner.http.post('/api/v1/agents').send({ name: 'sibling', type: 'type_a' }).expect(201)).body.data.id;
    const other = await as.get(`/api/v1/agents/${sibling}`);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
    for (const path of ['/api/v1/me', '/api/v1/users', '/agents', `/api/v1/agents/${agentId}/keys`, '/protected']) {
      const res = await as.get(path);
      expect([path, res.status]).toEqual([path, 403]);
    }
    const protectedRes = await as.get('/protected');
    expect(protectedRes.body).toEqual({
      error: 'forbidden',
      message: 'An agent key acts as its agent only: this operation is not open to it',
      detail: 'An agent key acts as its agent only: this operation is not open to it',
    });
    const logoutAll = await get().anonymous.post('/api/auth/logout-all').set('Authorization', `Bearer ${token}`);
    expect(logoutAll.status).toBe(403);
  });

  it('when the key is revoked, then its tokens are refused from the next request on (401), and no new token is granted', async () => {
    const key = await newKey();
    const token = (await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200)).body.access_token as string;
    await bearer(token).get(`/agents/${agentId}`).expect(200);
    await owner.http.delete(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(204);
    const root = await bearer(token).get(`/agents/${agentId}`);
    expect(root.status).toBe(401);
    expect(root.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="The access token is not valid/);
    expect(root.body).toEqual(INVALID_CREDENTIALS);
    const v1 = await bearer(token).get(`/api/v1/agents/${agentId}`);
    expect(v1.status).toBe(401);
    expect(v1.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Could not validate credentials' });
    await expectInvalidClient(await formGrant(get(), { client_id: key.id, client_secret: key.secret }));
  });

  it('when the key expires, then its tokens stop working and no new token is granted', async () => {
    const key = await newKey({ expires_in_days: 1 });
    const token = (await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200)).body.access_token as string;
    await get().database.db('agent_keys').where({ id: key.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = await bearer(token).get(`/agents/${agentId}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_CREDENTIALS);
    await expectInvalidClient(await formGrant(get(), { client_id: key.id, client_secret: key.secret }));
  });

  it('when the key expires sooner than 15 minutes, then the token lives no longer than the key', async () => {
    const key = await newKey({ expires_in_days: 1 });
    await get().database.db('agent_keys').where({ id: key.id }).update({ expires_at: new Date(Date.now() + 120_000).toISOString() });
    const res = await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200);
    expect(res.body.expires_in).toBeGreaterThan(100);
    expect(res.body.expires_in).toBeLessThanOrEqual(120);
    const claims = decodeJwt(res.body.access_token);
    expect((claims.exp as number) * 1000).toBeLessThanOrEqual(Date.now() + 121_000);
  });

  it.each([
    ['a wrong secret', (key: Key) => ({ client_id: key.id, client_secret: `${key.secret.slice(0, -2)}xx` })],
    ['another key’s secret', (key: Key, other: Key) => ({ client_id: key.id, client_secret: other.secret })],
    ['an unknown key id', (key: Key) => ({ client_id: '0190a8f0-0000-7000-8000-000000000000', client_secret: key.secret })],
    ['a key id that is no UUID', (key: Key) => ({ client_id: 'not-a-key', client_secret: key.secret })],
    ['no client_secret', (key: Key) => ({ client_id: key.id })],
    ['no credentials at all', () => ({})],
  ])('when the grant brings %s, then 401 invalid_client with WWW-Authenticate: Basic', async (_what, fieldsOf) => {
    const key = await newKey();
    const other = await newKey();
    await expectInvalidClient(await formGrant(get(), fieldsOf(key, other) as Record<string, string>));
  });

  it('when HTTP Basic carries a wrong secret or is not Basic at all, then 401 invalid_client', async () => {
    const key = await newKey();
    await expectInvalidClient(await get().anonymous.post('/token').set('Authorization', basic(key.id, 'afk_wrong')).type('form').send({ grant_type: 'client_credentials' }));
    await expectInvalidClient(await get().anonymous.post('/token').set('Authorization', 'Basic !!!').type('form').send({ grant_type: 'client_credentials' }));
    await expectInvalidClient(await get().anonymous.post('/token').set('Authorization', `Bearer ${owner.token}`).type('form').send({ grant_type: 'client_credentials' }));
  });

  it('when the credentials come both as HTTP Basic and as form fields, then 400 invalid_request', async () => {
    const key = await newKey();
    const res = await get().anonymous.post('/token').set('Authorization', basic(key.id, key.secret)).type('form').send({ grant_type: 'client_credentials', client_id: key.id, client_secret: key.secret });
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
  });

  it('when a user token and an agent token are swapped in their claims, then neither is read as the other', async () => {
    const key = await newKey();
    const agentToken = (await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200)).body.access_token as string;
    expect(await get().sessions.resolve(agentToken)).toBeUndefined();
    expect(await get().tokens.verifyAgent(owner.token)).toBeUndefined();
    const base = { iss: 'agent-fleet-api', aud: 'agent-fleet-api' };
    const forged = [
      // Agent claims in a user token's clothing (no `at+jwt` type).
      await new SignJWT({ ...base, sub: key.id, client_id: key.id, agent_id: agentId, scope: 'tasks:read' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('10m').sign(secretKey),
      // A user's session claims under the agent type.
      await new SignJWT({ ...base, sub: owner.user.id, sid: owner.sessionId }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuedAt().setExpirationTime('10m').sign(secretKey),
      // Both at once.
      await new SignJWT({ ...base, sub: key.id, sid: owner.sessionId, client_id: key.id, agent_id: agentId, scope: 'tasks:read' }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuedAt().setExpirationTime('10m').sign(secretKey),
      // A scope the key never had.
      await new SignJWT({ ...base, sub: key.id, client_id: key.id, agent_id: agentId, scope: 'admin' }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuedAt().setExpirationTime('10m').sign(secretKey),
    ];
    for (const token of forged) {
      for (const path of [`/agents/${agentId}`, '/api/v1/me']) {
        const res = await bearer(token).get(path);
        expect([path, res.status]).toEqual([path, 401]);
      }
    }
  });

  it('when the key’s agent is named differently in a validly signed token than in the key, then the token is refused', async () => {
    const key = await newKey();
    const sibling = (await owner.http.post('/api/v1/agents').send({ name: 'elsewhere', type: 'type_a' }).expect(201)).body.data.id as string;
    const token = await new SignJWT({ iss: 'agent-fleet-api', aud: 'agent-fleet-api', sub: key.id, client_id: key.id, agent_id: sibling, scope: 'tasks:read' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(secretKey);
    expect((await bearer(token).get(`/agents/${sibling}`)).status).toBe(401);
  });

  it('when grants succeed and fail, then neither secrets nor tokens reach the logs', async () => {
    const key = await newKey();
    const granted = await formGrant(get(), { client_id: key.id, client_secret: key.secret }).expect(200);
    await get().anonymous.post('/token').set('Authorization', basic(key.id, key.secret)).type('form').send({ grant_type: 'client_credentials' }).expect(200);
    await formGrant(get(), { client_id: key.id, client_secret: `${key.secret}x` }).expect(401);
    await get().anonymous.get(`/agents/${agentId}`).set('X-API-Key', key.secret).expect(200);
    await get().anonymous.get(`/agents/${agentId}`).set('Authorization', `Bearer ${granted.body.access_token}`).expect(200);
    const logs = get().logs.text();
    expect(logs).toContain('/token');
    expect(logs).not.toContain(key.secret.slice(key.secret.length - 20));
    expect(logs).not.toContain(granted.body.access_token.split('.')[2]);
  });

  it('when another grant type is asked for, then 400 unsupported_grant_type names the three supported; a missing one is invalid_request', async () => {
    const res = await get().anonymous.post('/token').type('form').send({ grant_type: 'authorization_code', code: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Request validation failed (grant_type: must be equal to one of the allowed values: password, refresh_token, client_credentials)',
    });
    const missing = await get().anonymous.post('/token').type('form').send({ username: 'someone' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'invalid_request', error_description: "Request validation failed (grant_type: must have required property 'grant_type')" });
  });
});

describeEachDatabase(
  'client_credentials grant under a short access-token lifetime',
  (get) => {
    it('when ACCESS_TOKEN_TTL is under 15 minutes, then agent tokens live no longer than it', async () => {
      const { key } = await setUp(get());
      const made = await key();
      const res = await formGrant(get(), { client_id: made.id, client_secret: made.secret });
      expect(res.status).toBe(200);
      expect(res.body.expires_in).toBe(300);
    });
  },
  { auth: { ...testConfig().auth, jwt: { ...testConfig().auth.jwt, ttlSeconds: 300 } } },
);

describeEachDatabase(
  'client_credentials grant, refused again and again',
  (get) => {
    it('when workers keep presenting revoked and wrong keys from one address, then only those key ids back off: another key, the owner\'s password and the login page still work there', async () => {
      const { owner, key } = await setUp(get());
      const keys = await Promise.all([key(), key(), key(), key()]);
      const [revoked, mistyped, , healthy] = keys as [Key, Key, Key, Key];
      await owner.http.delete(`/api/v1/agents/${revoked.agent_id}/keys/${revoked.id}`).expect(204);
      const refusals = [];
      for (let i = 0; i < 12; i++) refusals.push((await formGrant(get(), { client_id: revoked.id, client_secret: revoked.secret })).status);
      for (let i = 0; i < 12; i++) refusals.push((await formGrant(get(), { client_id: mistyped.id, client_secret: `${mistyped.secret}x` })).status);
      // Each key id fails freely a few times, then backs off on its own (429 with Retry-After), whatever the login limit.
      expect(refusals.slice(0, 3)).toEqual([401, 401, 401]);
      expect(refusals.slice(12, 15)).toEqual([401, 401, 401]);
      const backedOff = await formGrant(get(), { client_id: revoked.id, client_secret: revoked.secret });
      expect(backedOff.status).toBe(429);
      expect(Number(backedOff.headers['retry-after'])).toBeGreaterThan(0);
      expect(backedOff.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('Too many failed sign-ins') });
      // The address's own budget (3 failures here) is untouched: a healthy key and the owner's password get in.
      expect((await formGrant(get(), { client_id: healthy.id, client_secret: healthy.secret })).status).toBe(200);
      await get().anonymous.post('/api/auth/login').send({ email: owner.user.email, password: owner.password }).expect(200);
      await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: owner.user.email, password: owner.password }).expect(200);
    });

    it('when one address fails passwords as often as the login limit allows, then its next password attempt is 429, while an agent key\'s grant from there is not refused for it', async () => {
      const { owner, key } = await setUp(get());
      const healthy = await key();
      for (let i = 0; i < 3; i++) await get().anonymous.post('/api/auth/login').send({ email: `nobody-${i}@example.test`, password: 'wrong password' }).expect(401);
      const refused = await get().anonymous.post('/api/auth/login').send({ email: owner.user.email, password: owner.password });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await formGrant(get(), { client_id: healthy.id, client_secret: healthy.secret })).status).toBe(200);
    });
  },
  {
    rateLimits: { ...testConfig().rateLimits, login: { windowMs: 60_000, max: 3 } },
    auth: { ...testConfig().auth, accountThrottle: { freeFailures: 3, baseDelayMs: 60_000, maxDelayMs: 600_000 } },
  },
);
