import { loadConfig, ConfigError } from '../../src/config/config';
import { createStore } from '../../src/data/store';
import { ensureAdmin } from '../../src/domain/users';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';

describe('secrets at start', () => {
  it('when NODE_ENV=production has no JWT_SECRET, then the start is refused with a clear message', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required in production/);
  });

  it('when the JWT_SECRET is shorter than 32 bytes, then the start is refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'changeme' })).toThrow(/at least 32 bytes/);
  });

  it('when development has no JWT_SECRET, then an ephemeral one is made and a warning given', () => {
    const first = loadConfig({ NODE_ENV: 'development' });
    const second = loadConfig({ NODE_ENV: 'development' });
    expect(first.auth.jwt.algorithm).toBe('HS256');
    expect(first.warnings).toEqual([expect.stringContaining('ephemeral')]);
    expect(first.auth.jwt).not.toEqual(second.auth.jwt);
  });

  it('when an asymmetric algorithm has no keys or an unknown algorithm is asked for, then the start is refused', () => {
    expect(() => loadConfig({ JWT_ALGORITHM: 'RS256' })).toThrow(/JWT_PRIVATE_KEY/);
    expect(() => loadConfig({ JWT_ALGORITHM: 'none' })).toThrow(/JWT_ALGORITHM must be one of/);
  });

  it('when an API key is too short, or only half of the admin is configured, then the start is refused', () => {
    expect(() => loadConfig({ API_KEYS: 'short' })).toThrow(/API_KEYS/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'root@example.com' })).toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD/);
  });
});

describeEachDatabase('secrets in use', (get) => {
  it('when ADMIN_EMAIL names no user, then the admin is created; when it exists, it is left unchanged', async () => {
    const store = createStore(get().database.db);
    const email = `root-${Date.now()}@example.com`;
    expect(await ensureAdmin(store, { email, password: 'first-admin-password' })).toBe('created');
    expect((await store.users.findByEmail(email))?.role).toBe('admin');
    expect(await ensureAdmin(store, { email, password: 'a-different-password' })).toBe('exists');
    await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: email, password: 'first-admin-password' }).expect(200);
    await get().anonymous.post('/token').type('form').send({ grant_type: 'password', username: email, password: 'a-different-password' }).expect(400);
  });

  it('when an existing plain user is named as ADMIN_EMAIL, then it is not promoted silently', async () => {
    const store = createStore(get().database.db);
    const { user } = await get().signUp();
    expect(await ensureAdmin(store, { email: user.email, password: 'whatever-password' })).toBe('exists');
    expect((await store.users.findByEmail(user.email))?.role).toBe('user');
  });

  it('when users sign up, log in, fail to log in and use keys, then no password, token or key reaches the log', async () => {
    const password = 'a-very-secret-password-123';
    const email = `logged-${Date.now()}@example.com`;
    const { anonymous, logs } = get();
    await anonymous.post('/api/v1/users').send({ name: 'Logged', email, password }).expect(201);
    const login = await anonymous.post('/api/auth/login').send({ email, password }).expect(200);
    await anonymous.post('/api/auth/login').send({ email, password: 'wrong-secret-password-456' }).expect(401);
    const token = await anonymous.post('/token').type('form').send({ grant_type: 'password', username: email, password }).expect(200);
    await anonymous.get('/agents').set('Authorization', `Bearer ${token.body.access_token}`).expect(200);
    await anonymous.get('/agents').set('Cookie', `agent_fleet_session=${login.body.data.access_token}`).expect(200);
    await anonymous.get('/agents').set('X-API-Key', TEST_API_KEY).expect(200);
    await anonymous.get('/agents').set('X-API-Key', 'wrong-key-that-is-secret').expect(403);

    const text = logs.text();
    expect(text).toContain('/api/auth/login');
    for (const secret of [password, 'wrong-secret-password-456', login.body.data.access_token, token.body.access_token, TEST_API_KEY, 'wrong-key-that-is-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});
