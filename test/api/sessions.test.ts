import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createHttpServer } from '../../src/http/http-server';
import { createLogger } from '../../src/logger';
import { describeEachDatabase, startTestApp, TEST_API_KEY, testConfig, type TestApp } from '../support/harness';

const PASSWORD = 'correct horse battery';
const TRUSTED = 'http://localhost:8000';

type Client = {
  base: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
};

const clientOf = (base: string): Client => ({ base, fetch: (path, init) => fetch(`${base}${path}`, init) });

async function newAccount(app: TestApp, password = PASSWORD) {
  const email = `s-${randomBytes(4).toString('hex')}@example.test`;
  const created = await app.anonymous.post('/api/v1/users').send({ name: 'Session Person', email, password }).expect(201);
  return { id: created.body.data.id as string, email, password };
}

async function logIn(client: Client, email: string, password: string) {
  const res = await client.fetch('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('agent_fleet_session='));
  const body = (await res.json()) as { data: { access_token: string } };
  return { token: body.data.access_token, cookie: cookie!.split(';')[0]! };
}

async function passwordGrant(client: Client, username: string, password: string) {
  const res = await client.fetch('/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username, password }) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

async function refreshGrant(client: Client, refreshToken: string) {
  const res = await client.fetch('/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

const asBearer = (client: Client, token: string) => client.fetch('/api/v1/me', { headers: { Authorization: `Bearer ${token}` } }).then((res) => res.status);
const asCookie = (client: Client, cookie: string) => client.fetch('/api/v1/me', { headers: { Cookie: cookie } }).then((res) => res.status);

describeEachDatabase('sessions and revocation', (get) => {
  let client: Client;
  beforeAll(async () => {
    client = clientOf(await get().listen());
  });

  it('when the account is deleted between the password check and the session it begins, then the sign-in is refused as unauthorized, never a database error', async () => {
    const account = await newAccount(get());
    const admin = await get().signUp({ role: 'admin' });
    const checked = (await get().anonymous.get('/api/v1/me').set('Authorization', `Bearer ${(await logIn(client, account.email, account.password)).token}`).expect(200)).body.data;
    await get().anonymous.delete(`/api/v1/users/${account.id}`).set('Authorization', `Bearer ${admin.token}`).expect(204);
    await expect(get().sessions.begin(checked, 'password')).rejects.toMatchObject({ code: 'unauthorized', message: 'Invalid email or password' });
  });

  describe('logout', () => {
    it('when a person logs out, then the same cookie value stops working, as a cookie and as a bearer token', async () => {
      const account = await newAccount(get());
      const { token, cookie } = await logIn(client, account.email, account.password);
      expect(await asCookie(client, cookie)).toBe(200);
      const out = await client.fetch('/api/auth/logout', { method: 'POST', headers: { Cookie: cookie, Origin: TRUSTED } });
      expect(out.status).toBe(204);
      expect(out.headers.getSetCookie().join()).toMatch(/agent_fleet_session=;.*Expires=Thu, 01 Jan 1970/);
      expect(await asCookie(client, cookie)).toBe(401);
      expect(await asBearer(client, token)).toBe(401);
      const refused = await client.fetch('/api/v1/me', { headers: { Authorization: `Bearer ${token}` } });
      expect(await refused.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Could not validate credentials', requestId: expect.any(String) } });
    });

    it('when logout comes with a bearer token, then that session ends and the person’s other sessions do not', async () => {
      const account = await newAccount(get());
      const first = await logIn(client, account.email, account.password);
      const second = await logIn(client, account.email, account.password);
      expect((await client.fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${first.token}` } })).status).toBe(204);
      expect(await asBearer(client, first.token)).toBe(401);
      expect(await asBearer(client, second.token)).toBe(200);
    });

    it('when a foreign page posts to logout with the victim’s cookie (logout CSRF), then 403 and the session lives on', async () => {
      const account = await newAccount(get());
      const { cookie } = await logIn(client, account.email, account.password);
      for (const origin of ['https://evil.example', 'null']) {
        const res = await client.fetch('/api/auth/logout', { method: 'POST', headers: { Cookie: cookie, Origin: origin } });
        expect(res.status).toBe(403);
        expect(res.headers.getSetCookie()).toEqual([]);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      }
      const noOrigin = await client.fetch('/api/auth/logout', { method: 'POST', headers: { Cookie: cookie } });
      expect(noOrigin.status).toBe(403);
      expect(await asCookie(client, cookie)).toBe(200);
    });

    it('when logout comes with no credential or a dead one, then it still answers 204 and clears the cookie', async () => {
      expect((await client.fetch('/api/auth/logout', { method: 'POST' })).status).toBe(204);
      const dead = await client.fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: 'Bearer not.a.token' } });
      expect(dead.status).toBe(204);
      expect(dead.headers.getSetCookie().join()).toMatch(/agent_fleet_session=;/);
    });
  });

  describe('logout-all', () => {
    it('when a person signs out everywhere, then every cookie, bearer token and refresh token of theirs stops working', async () => {
      const account = await newAccount(get());
      const browser = await logIn(client, account.email, account.password);
      const laptop = await logIn(client, account.email, account.password);
      const cli = await passwordGrant(client, account.email, account.password);
      expect(cli.status).toBe(200);
      const other = await newAccount(get());
      const bystander = await logIn(client, other.email, other.password);

      const res = await client.fetch('/api/auth/logout-all', { method: 'POST', headers: { Authorization: `Bearer ${laptop.token}` } });
      expect(res.status).toBe(204);
      expect(res.headers.getSetCookie().join()).toMatch(/agent_fleet_session=;/);
      expect(await asCookie(client, browser.cookie)).toBe(401);
      expect(await asBearer(client, laptop.token)).toBe(401);
      expect(await asBearer(client, cli.body.access_token!)).toBe(401);
      expect((await refreshGrant(client, cli.body.refresh_token!)).body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      expect(await asBearer(client, bystander.token)).toBe(200);
    });

    it('when an API key asks to sign out everywhere, then 401: only a user’s credential names sessions', async () => {
      const res = await client.fetch('/api/auth/logout-all', { method: 'POST', headers: { 'X-API-Key': TEST_API_KEY } });
      expect(res.status).toBe(401);
    });

    it('when a foreign page posts to logout-all with the cookie, then 403', async () => {
      const account = await newAccount(get());
      const { cookie } = await logIn(client, account.email, account.password);
      const res = await client.fetch('/api/auth/logout-all', { method: 'POST', headers: { Cookie: cookie, Origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      expect(await asCookie(client, cookie)).toBe(200);
    });
  });

  describe('changing the password or the e-mail', () => {
    const patch = (token: string, id: string, body: unknown) =>
      client.fetch(`/api/v1/users/${id}`, { method: 'PATCH', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    it('when a stolen token alone tries to change the password or the e-mail, then 400 and nothing changes', async () => {
      const account = await newAccount(get());
      const { token } = await logIn(client, account.email, account.password);
      for (const body of [{ password: 'attacker chosen pass' }, { email: `thief-${randomBytes(3).toString('hex')}@evil.example` }]) {
        const res = await patch(token, account.id, body);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          error: {
            code: 'VALIDATION_ERROR',
            message: 'current_password is required to change the password or the e-mail',
            details: [{ field: 'current_password', message: 'required to change the password or the e-mail' }],
            requestId: expect.any(String),
          },
        });
      }
      await logIn(client, account.email, account.password);
    });

    it('when the current password is wrong, then 403 and nothing changes', async () => {
      const account = await newAccount(get());
      const { token } = await logIn(client, account.email, account.password);
      const res = await patch(token, account.id, { password: 'attacker chosen pass', current_password: 'a wrong guess' });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      await logIn(client, account.email, account.password);
    });

    it('when other fields change without current_password, then that still works and no session ends', async () => {
      const account = await newAccount(get());
      const other = await logIn(client, account.email, account.password);
      const { token } = await logIn(client, account.email, account.password);
      expect((await patch(token, account.id, { name: 'Renamed', email: account.email.toUpperCase() })).status).toBe(200);
      expect(await asBearer(client, other.token)).toBe(200);
    });

    it('when the password changes with the current one, then every other session and refresh token ends and this one lives on', async () => {
      const account = await newAccount(get());
      const elsewhere = await logIn(client, account.email, account.password);
      const cli = await passwordGrant(client, account.email, account.password);
      const { token } = await logIn(client, account.email, account.password);
      const res = await patch(token, account.id, { password: 'a brand new passphrase', current_password: account.password });
      expect(res.status).toBe(200);
      expect(await asBearer(client, token)).toBe(200);
      expect(await asCookie(client, elsewhere.cookie)).toBe(401);
      expect(await asBearer(client, cli.body.access_token!)).toBe(401);
      expect((await refreshGrant(client, cli.body.refresh_token!)).status).toBe(400);
      await logIn(client, account.email, 'a brand new passphrase');
    });

    it('when the e-mail changes with the current password (PUT), then the other sessions end too', async () => {
      const account = await newAccount(get());
      const elsewhere = await logIn(client, account.email, account.password);
      const { token } = await logIn(client, account.email, account.password);
      const email = `moved-${randomBytes(3).toString('hex')}@example.test`;
      const res = await client.fetch(`/api/v1/users/${account.id}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Moved', email, current_password: account.password }),
      });
      expect(res.status).toBe(200);
      expect(await asBearer(client, elsewhere.token)).toBe(401);
      expect(await asBearer(client, token)).toBe(200);
    });

    it('when an admin changes someone else’s password, then the admin’s own password is asked for and all of that user’s sessions end', async () => {
      const admin = await get().signUp({ role: 'admin' });
      const account = await newAccount(get());
      const victim = await logIn(client, account.email, account.password);
      expect((await patch(admin.token, account.id, { password: 'reset by the admin' })).status).toBe(400);
      expect((await patch(admin.token, account.id, { password: 'reset by the admin', current_password: account.password })).status).toBe(403);
      expect((await patch(admin.token, account.id, { password: 'reset by the admin', current_password: admin.password })).status).toBe(200);
      expect(await asBearer(client, victim.token)).toBe(401);
      expect(await asBearer(client, admin.token)).toBe(200);
    });

    it('when current_password is guessed again and again with a stolen token, then the sign-in limits stop it', async () => {
      const account = await newAccount(get());
      const { token } = await logIn(client, account.email, account.password);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await patch(token, account.id, { password: 'attacker chosen pass', current_password: `guess ${i}` })).status);
      expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
      expect(statuses.slice(5)).toEqual([429, 429]);
    });
  });

  describe('refresh tokens', () => {
    it('when a refresh token is used, then a new access token and a new refresh token come back, and the old refresh token is spent', async () => {
      const account = await newAccount(get());
      const first = await passwordGrant(client, account.email, account.password);
      const second = await refreshGrant(client, first.body.refresh_token!);
      expect(second.status).toBe(200);
      expect(second.headers.get('cache-control')).toBe('no-store');
      expect(second.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 1800, refresh_token: expect.any(String) });
      expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
      expect(await asBearer(client, second.body.access_token!)).toBe(200);
      const third = await refreshGrant(client, second.body.refresh_token!);
      expect(third.status).toBe(200);
    });

    it('when a spent refresh token is presented again (theft), then invalid_grant and the whole family ends, the thief’s and the owner’s tokens alike', async () => {
      const account = await newAccount(get());
      const issued = await passwordGrant(client, account.email, account.password);
      const owner = await refreshGrant(client, issued.body.refresh_token!);
      const replay = await refreshGrant(client, issued.body.refresh_token!);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'The refresh token is invalid, expired or revoked' });
      expect(await asBearer(client, owner.body.access_token!)).toBe(401);
      expect(await asBearer(client, issued.body.access_token!)).toBe(401);
      expect((await refreshGrant(client, owner.body.refresh_token!)).status).toBe(400);
      // Another sign-in of the same person is another family: untouched.
      const again = await passwordGrant(client, account.email, account.password);
      expect(await asBearer(client, again.body.access_token!)).toBe(200);
    });

    it('when one refresh token is presented by several requests at once, then exactly one gets new tokens', async () => {
      const account = await newAccount(get());
      const issued = await passwordGrant(client, account.email, account.password);
      const results = await Promise.all(Array.from({ length: 5 }, () => refreshGrant(client, issued.body.refresh_token!)));
      expect(results.filter((result) => result.status === 200)).toHaveLength(1);
      expect(results.filter((result) => result.status === 400)).toHaveLength(4);
    });

    it.each([
      ['an unknown refresh token', { grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) }, 'invalid_grant'],
      ['no refresh token', { grant_type: 'refresh_token' }, 'invalid_request'],
      ['an access token in its place', null, 'invalid_grant'],
    ])('when the refresh grant carries %s, then 400 %s', async (_case, form, error) => {
      const body = form ?? { grant_type: 'refresh_token', refresh_token: get().user.token };
      const res = await client.fetch('/token', { method: 'POST', body: new URLSearchParams(body as Record<string, string>) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error, error_description: expect.any(String) });
    });

    it('when the user is deleted, then their refresh tokens stop working', async () => {
      const account = await newAccount(get());
      const issued = await passwordGrant(client, account.email, account.password);
      const del = await client.fetch(`/api/v1/users/${account.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${issued.body.access_token}` } });
      expect(del.status).toBe(204);
      expect((await refreshGrant(client, issued.body.refresh_token!)).status).toBe(400);
    });
  });

  it('when a session is ended on one instance, then another instance on the same database refuses its token at once', async () => {
    const app = get();
    const second = buildApp({ config: app.config, db: app.database.db, logger: createLogger({ logLevel: 'silent' }), tokens: app.tokens });
    const server = createHttpServer(second, { logger: createLogger({ logLevel: 'silent' }), metrics: app.metrics, timeouts: app.config.http });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const other = clientOf(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      const account = await newAccount(app);
      const { token } = await logIn(client, account.email, account.password);
      expect(await asBearer(other, token)).toBe(200);
      expect((await client.fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } })).status).toBe(204);
      expect(await asBearer(other, token)).toBe(401);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the session cookie in production', () => {
  it('when NODE_ENV=production, then the cookie is __Host-agent_fleet_session: Secure, Path=/, no Domain, and it authenticates', async () => {
    const production = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'production-secret-that-is-long-enough-0123456789',
      PUBLIC_URL: 'https://fleet.example.com',
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    expect(production.auth.sessionCookieName).toBe('__Host-agent_fleet_session');
    const app = await startTestApp('sqlite', { auth: { ...testConfig().auth, sessionCookieName: production.auth.sessionCookieName } });
    try {
      const account = await newAccount(app);
      const login = await app.anonymous.post('/api/auth/login').send({ email: account.email, password: account.password }).expect(200);
      const cookie = (login.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith('__Host-agent_fleet_session='))!;
      expect(cookie.split('; ').slice(1).filter((part) => !/^(Max-Age|Expires)=/.test(part))).toEqual(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']);
      expect(cookie).not.toMatch(/Domain=/i);
      await app.anonymous.get('/api/v1/me').set('Cookie', cookie.split(';')[0]!).expect(200);
      // A cookie without the prefix (planted by a sibling subdomain) is not the session cookie here.
      await app.anonymous.get('/api/v1/me').set('Cookie', `agent_fleet_session=${cookie.split(';')[0]!.split('=')[1]}`).expect(401);
    } finally {
      await app.close();
    }
  });
});
