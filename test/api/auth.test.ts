import { exportPKCS8, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { createTokenService } from '../../src/auth/tokens';
import { describeEachDatabase, startTestApp, TEST_API_KEY, TEST_JWT_SECRET, type TestApp } from '../support/harness';

const secretKey = new TextEncoder().encode(TEST_JWT_SECRET);
const NOT_AUTHENTICATED = { error: 'unauthorized', message: 'Not authenticated', detail: 'Not authenticated' };
const INVALID = { error: 'unauthorized', message: 'Could not validate credentials', detail: 'Could not validate credentials' };
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describeEachDatabase('credentials', (get) => {
  /** 401 with the specification's body, and RFC 6750's `invalid_token` with the reason in the challenge. */
  const expectInvalid = async (authorization: string, reason = /^The access token is not valid/) => {
    const res = await get().anonymous.get('/agents').set('Authorization', authorization);
    expect(res.status).toBe(401);
    const challenge = /^Bearer error="invalid_token", error_description="([^"]+)"$/.exec(res.headers['www-authenticate'] ?? '');
    expect(challenge?.[1]).toMatch(reason);
    expect(res.body).toEqual(INVALID);
  };
  const claims = () => ({ sub: get().user.user.id, sid: get().user.sessionId, iss: 'agent-fleet-api', aud: 'agent-fleet-api' });
  const sign = (payload: Record<string, unknown>, build: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
    build(new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('10m')).sign(secretKey);

  describe('sign-up and /api/v1/me', () => {
    it('when a user signs up, then 201 returns the enveloped user without any password, e-mail lower-cased and name trimmed', async () => {
      const res = await get()
        .anonymous.post('/api/v1/users')
        .set('X-Request-ID', 'signup-1')
        .send({ name: '  Ada Lovelace  ', email: 'Ada.Lovelace@Example.COM', password: 'correct horse battery', age: 36 });
      expect(res.status).toBe(201);
      expect(res.headers['x-request-id']).toBe('signup-1');
      expect(res.body).toEqual({
        data: {
          id: expect.any(String),
          name: 'Ada Lovelace',
          email: 'ada.lovelace@example.com',
          age: 36,
          role: 'user',
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
        meta: { timestamp: expect.any(String) },
      });
      expect(res.headers.location).toBe(`/api/v1/users/${res.body.data.id}`);
      expect(res.text).not.toContain('correct horse');
      const row = await get().database.db('users').where({ id: res.body.data.id }).first();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
    });

    it('when the e-mail is taken in any letter case, then 409 CONFLICT in the convention envelope', async () => {
      const email = `dup-${Date.now()}@example.com`;
      await get().anonymous.post('/api/v1/users').send({ name: 'a', email, password: 'first sign-up secret' }).expect(201);
      const res = await get().anonymous.post('/api/v1/users').set('X-Request-ID', 'dup-1').send({ name: 'b', email: email.toUpperCase(), password: 'second sign-up secret' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: { code: 'CONFLICT', message: 'A user with this email already exists', requestId: 'dup-1' } });
    });

    it('when two sign-ups race for one e-mail, then exactly one wins', async () => {
      const email = `race-${Date.now()}@example.com`;
      const results = await Promise.all(
        [1, 2, 3].map((n) => get().anonymous.post('/api/v1/users').send({ name: `r${n}`, email, password: 'first sign-up secret' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it.each([
      ['a 7-character password', { password: 'short12' }, 'password'],
      ['an invalid e-mail', { email: 'not-an-email' }, 'email'],
      ['age 151', { age: 151 }, 'age'],
      ['age -1', { age: -1 }, 'age'],
      ['a missing password', { password: undefined }, 'password'],
      ['a role (mass assignment)', { role: 'admin' }, 'role'],
      ['an id (mass assignment)', { id: '0190a8f0-0000-7000-8000-000000000000' }, 'id'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a 101-character trimmed name', { name: ` ${'n'.repeat(101)} ` }, 'name'],
    ])('when sign-up has %s, then 400 VALIDATION_ERROR names the field and no user is stored', async (_label, change, field) => {
      const email = `bad-${Math.random().toString(36).slice(2)}@example.com`;
      const body = { name: 'Valid Name', email, password: 'long enough password', ...change };
      const res = await get().anonymous.post('/api/v1/users').set('X-Request-ID', 'bad-signup').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: 'bad-signup' });
      expect(res.body.error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
      expect(await get().database.db('users').where({ email }).first()).toBeUndefined();
    });

    it('when a malformed JSON body is sent under /api, then 400 in the convention envelope', async () => {
      const res = await get().anonymous.post('/api/v1/users').set('Content-Type', 'application/json').send('{"name":');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'Malformed JSON in request body', requestId: expect.any(String) } });
    });

    it('when /api/v1/me is called with a bearer token, then it returns that user', async () => {
      const res = await get().http.get('/api/v1/me').expect(200);
      expect(res.body.data).toEqual(get().user.user);
    });

    it('when /api/v1/me is called without credentials or with an API key, then 401 or 403 in the envelope', async () => {
      const anonymous = await get().anonymous.get('/api/v1/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      expect(anonymous.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
      const service = await get().anonymous.get('/api/v1/me').set('X-API-Key', TEST_API_KEY);
      expect(service.status).toBe(403);
      expect(service.body.error.code).toBe('FORBIDDEN');
    });
  });

  describe('POST /token', () => {
    it('when the password grant is right, then an RFC 6749 token response that works as a bearer token', async () => {
      const { user, password } = await get().signUp();
      const res = await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: user.email.toUpperCase(), password });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 1800, refresh_token: expect.stringMatching(/^[\w-]{43}$/) });
      const [header, payload] = res.body.access_token.split('.').slice(0, 2).map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
      expect(payload).toEqual({ sub: user.id, sid: expect.any(String), iss: 'agent-fleet-api', aud: 'agent-fleet-api', iat: expect.any(Number), exp: payload.iat + 1800 });
      await get().anonymous.get('/protected').set('Authorization', `Bearer ${res.body.access_token}`).expect(200, { user: user.email });
      await get().anonymous.get('/agents').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
    });

    it.each([
      ['a wrong password', (email: string) => ({ grant_type: 'password', username: email, password: 'wrong-password' }), 'invalid_grant'],
      ['an unknown user', () => ({ grant_type: 'password', username: 'nobody@example.com', password: 'whatever-1' }), 'invalid_grant'],
      ['another grant type', (email: string) => ({ grant_type: 'authorization_code', username: email }), 'unsupported_grant_type'],
      ['no grant type', (email: string) => ({ username: email, password: 'x' }), 'invalid_request'],
      ['no password', (email: string) => ({ grant_type: 'password', username: email }), 'invalid_request'],
    ])('when the request has %s, then 400 with the RFC 6749 error', async (_label, body, error) => {
      const res = await get().anonymous.post('/token').type('form').send(body(get().user.user.email));
      expect(res.status).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ error, error_description: expect.any(String) });
    });

    it('when the wrong password and the unknown user are tried, then the answers are identical', async () => {
      const wrong = await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: get().user.user.email, password: 'nope-nope' });
      const unknown = await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: 'ghost@example.com', password: 'nope-nope' });
      expect(wrong.body).toEqual(unknown.body);
    });
  });

  describe('session cookie', () => {
    const logIn = async () => {
      const { user, password } = await get().signUp();
      const res = await get().anonymous.post('/api/auth/login').send({ email: user.email, password });
      return { user, res, cookie: /agent_fleet_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? '' };
    };

    it('when a user logs in, then the token comes back and is set as an HttpOnly, Secure, SameSite=Lax cookie', async () => {
      const { res } = await logIn();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { access_token: expect.any(String), token_type: 'bearer', expires_in: 1800 }, meta: { timestamp: expect.any(String) } });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toContain(`agent_fleet_session=${res.body.data.access_token}`);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/Max-Age=1800/);
    });

    it('when the password is wrong, then 401 UNAUTHORIZED and no cookie', async () => {
      const res = await get().anonymous.post('/api/auth/login').send({ email: get().user.user.email, password: 'wrong-password' });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('when the cookie alone authenticates, then reads work and changes need an allowed Origin', async () => {
      const { cookie } = await logIn();
      const jar = `agent_fleet_session=${cookie}`;
      await get().anonymous.get('/agents').set('Cookie', jar).expect(200);
      const allowed = await get().anonymous.post('/agents').set('Cookie', jar).set('Origin', 'http://localhost:8000').send({ name: 'via cookie', type: 'type_a' });
      expect(allowed.status).toBe(201);
      for (const origin of [undefined, 'https://evil.example', 'null', 'http://localhost:8000.evil.example']) {
        const request = get().anonymous.post('/agents').set('Cookie', jar);
        if (origin) request.set('Origin', origin);
        const res = await request.send({ name: 'csrf', type: 'type_a' });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: 'forbidden', message: expect.stringContaining('Origin') });
      }
      const agents = (await get().anonymous.get('/agents?limit=1000').set('Cookie', jar).expect(200)).body;
      expect(agents.filter((a: { name: string }) => a.name === 'csrf')).toHaveLength(0);
    });

    it('when a user logs out, then the cookie is cleared', async () => {
      const res = await get().anonymous.post('/api/auth/logout').expect(204);
      expect(String(res.headers['set-cookie'])).toMatch(/agent_fleet_session=;.*Expires=Thu, 01 Jan 1970/);
    });

    it('when the cookie holds a forged token, then 401 Could not validate credentials', async () => {
      const res = await get().anonymous.get('/agents').set('Cookie', 'agent_fleet_session=forged.token.value');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    });
  });

  describe('bearer attacks', () => {
    it('when no credential is sent, then 401 Not authenticated with WWW-Authenticate: Bearer', async () => {
      const res = await get().anonymous.get('/agents');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).toEqual(NOT_AUTHENTICATED);
    });

    it('when an anonymous request has a bad body, then 401 comes before any validation detail', async () => {
      const res = await get().anonymous.post('/agents').send({ nonsense: true });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_AUTHENTICATED);
    });

    it('when the token uses alg none, then 401', async () => {
      const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims(), exp: Math.floor(Date.now() / 1000) + 600 })}.`;
      await expectInvalid(`Bearer ${token}`);
    });

    it('when the payload is tampered with, then 401', async () => {
      const other = await get().signUp({ role: 'admin' });
      const [header, , signature] = get().user.token.split('.');
      const payload = JSON.parse(Buffer.from(get().user.token.split('.')[1]!, 'base64url').toString());
      await expectInvalid(`Bearer ${header}.${base64url({ ...payload, sub: other.user.id })}.${signature}`);
    });

    it('when the token has expired, then 401 whose challenge says it expired (a forged one says it is not valid)', async () => {
      const past = createTokenService(get().config.auth.jwt, () => Date.now() - 2 * 3600 * 1000);
      const expired = (await past.issue({ userId: get().user.user.id, sessionId: get().user.sessionId })).access_token;
      await expectInvalid(`Bearer ${expired}`, /^The access token expired/);
      const forgedExpired = await new SignJWT({ ...claims(), exp: Math.floor(Date.now() / 1000) - 3600 }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('y'.repeat(48)));
      await expectInvalid(`Bearer ${forgedExpired}`);
      const v1 = await get().anonymous.get('/api/v1/me').set('Authorization', `Bearer ${expired}`);
      expect(v1.status).toBe(401);
      expect(v1.headers['www-authenticate']).toBe('Bearer error="invalid_token", error_description="The access token expired: get a new one"');
      expect(v1.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Could not validate credentials' });
    });

    it('when the token is not valid yet, then 401', async () => {
      await expectInvalid(`Bearer ${await sign(claims(), (jwt) => jwt.setNotBefore('1h'))}`);
    });

    it.each([
      ['a wrong issuer', { iss: 'https://evil.example' }],
      ['a wrong audience', { aud: 'another-service' }],
      ['no subject', { sub: undefined }],
      ['an empty subject', { sub: '' }],
    ])('when the token has %s, then 401', async (_label, change) => {
      await expectInvalid(`Bearer ${await sign({ ...claims(), ...change })}`);
    });

    it('when the token has no expiry, then 401', async () => {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(secretKey);
      await expectInvalid(`Bearer ${token}`);
    });

    it('when the signature comes from another secret, then 401', async () => {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode('x'.repeat(48)));
      await expectInvalid(`Bearer ${token}`);
    });

    it('when the token names a deleted user, then 401', async () => {
      const doomed = await get().signUp();
      await doomed.http.get('/agents').expect(200);
      await get().database.db('users').where({ id: doomed.user.id }).delete();
      await expectInvalid(`Bearer ${doomed.token}`);
    });

    it.each([
      'Bearer',
      'Bearer ',
      'bearer',
      'Basic dXNlcjpwYXNzd29yZA==',
      'Token abc.def.ghi',
      'Bearer abc def',
      'Bearer a.b.c',
      'Bearer \u00e4bc.def.ghi',
    ])('when the Authorization header is %p, then 401 Could not validate credentials', async (header) => {
      await expectInvalid(header, /^(The Authorization header does not hold a bearer token|The access token is not valid)/);
    });

    it('when the Authorization header is invalid and a valid API key is also sent, then the header alone decides: 401', async () => {
      const res = await get().anonymous.get('/agents').set('Authorization', 'Bearer nope').set('X-API-Key', TEST_API_KEY);
      expect(res.status).toBe(401);
    });
  });

  describe('API keys', () => {
    it.each([1, 8, TEST_API_KEY.length - 1, TEST_API_KEY.length, TEST_API_KEY.length + 1, 1000])(
      'when a wrong API key of %i characters is sent, then 403 Invalid API key',
      async (length) => {
        const key = 'k'.repeat(length);
        const res = await get().anonymous.get('/agents').set('X-API-Key', key);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'forbidden', message: 'Invalid API key', detail: 'Invalid API key' });
      },
    );

    it('when a near-miss of the real key is sent, then 403', async () => {
      await get().anonymous.get('/agents').set('X-API-Key', `${TEST_API_KEY.slice(0, -1)}X`).expect(403);
      await get().anonymous.get('/agents').set('X-API-Key', TEST_API_KEY.toUpperCase()).expect(403);
    });

    it('when the configured key is sent, then it acts for the whole fleet and its agents have no owner', async () => {
      const own = (await get().http.post('/agents').send({ name: 'user-owned', type: 'type_a' }).expect(201)).body;
      const service = await get().anonymous.post('/agents').set('X-API-Key', TEST_API_KEY).send({ name: 'fleet-owned', type: 'type_b' });
      expect(service.status).toBe(201);
      expect(service.body.owner_id).toBeNull();
      const all = (await get().anonymous.get('/agents?limit=1000').set('X-API-Key', TEST_API_KEY).expect(200)).body.map((a: { id: string }) => a.id);
      expect(all).toEqual(expect.arrayContaining([own.id, service.body.id]));
      const mine = (await get().http.get('/agents?limit=1000').expect(200)).body.map((a: { id: string }) => a.id);
      expect(mine).not.toContain(service.body.id);
    });

    it('when /protected gets only an API key, then 401: it takes bearer tokens only', async () => {
      const res = await get().anonymous.get('/protected').set('X-API-Key', TEST_API_KEY);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_AUTHENTICATED);
    });
  });
});

describe('algorithm confusion [sqlite]', () => {
  let app: TestApp;
  let publicPem: string;
  let privateKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey as CryptoKey;
    publicPem = await exportSPKI(pair.publicKey);
    const base = (await import('../support/harness')).testConfig();
    app = await startTestApp('sqlite', {
      auth: {
        ...base.auth,
        jwt: { algorithm: 'RS256', privateKey: await exportPKCS8(pair.privateKey), publicKey: publicPem, issuer: 'agent-fleet-api', audience: 'agent-fleet-api', ttlSeconds: 1800 },
      },
    });
  });
  afterAll(() => app.close());

  it('when RS256 is configured, then its own tokens work', async () => {
    const header = JSON.parse(Buffer.from(app.user.token.split('.')[0]!, 'base64url').toString());
    expect(header.alg).toBe('RS256');
    await app.http.get('/agents').expect(200);
  });

  it('when an HS256 token is signed with the RS256 public key, then 401', async () => {
    const claims = { sub: app.user.user.id, sid: app.user.sessionId, iss: 'agent-fleet-api', aud: 'agent-fleet-api' };
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(publicPem));
    const res = await app.anonymous.get('/agents').set('Authorization', `Bearer ${forged}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    // A correctly signed RS256 token with the same claims is accepted: only the algorithm differed.
    const genuine = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setIssuedAt().setExpirationTime('10m').sign(privateKey);
    await app.anonymous.get('/agents').set('Authorization', `Bearer ${genuine}`).expect(200);
  });
});
