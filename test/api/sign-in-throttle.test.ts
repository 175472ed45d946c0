import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import {
  createMemoryThrottleBackend,
  createRedisThrottleBackend,
  createSignInThrottle,
  type SignInThrottleLimits,
  type ThrottleBackend,
} from '../../src/auth/sign-in-throttle';
import type { Config } from '../../src/config/config';
import { connectRedis, type RedisConnection } from '../../src/data/redis';
import { createLogger } from '../../src/logger';
import { openTestDatabase, TEST_METRICS_TOKEN, testConfig } from '../support/harness';
import { redisTestConfig, SILENT } from '../support/services';

const LIMITS: SignInThrottleLimits = { clientMax: 5, clientWindowMs: 60_000, accountFreeFailures: 3, accountBaseDelayMs: 1000, accountMaxDelayMs: 8000, knownClientMs: 86_400_000 };

let redis: RedisConnection;
beforeAll(async () => {
  redis = await connectRedis(redisTestConfig(), SILENT);
});
afterAll(() => redis.close());

const backends: Array<[string, () => ThrottleBackend]> = [
  ['memory', () => createMemoryThrottleBackend(LIMITS)],
  ['redis', () => createRedisThrottleBackend(redis, LIMITS, `test:sign-in:${randomBytes(4).toString('hex')}:`)],
];

describe.each(backends)('the sign-in throttle on %s', (_name, backendOf) => {
  let now: number;
  const throttle = () => createSignInThrottle(backendOf(), { clock: () => now });
  const fail = async (t: ReturnType<typeof throttle>, client: string, account: string) => (await t.reserve(client, account)).settle('failed');
  /** The refusal, or undefined when the attempt may go ahead (it is then let go uncounted). */
  const refusal = (t: ReturnType<typeof throttle>, client: string, account: string, device?: string) =>
    t.reserve(client, account, device).then(
      (attempt) => attempt.settle('abandoned').then(() => undefined),
      (error: { code: string; headers: Record<string, string> }) => ({ code: error.code, retryAfter: Number(error.headers['Retry-After']) }),
    );

  beforeEach(() => {
    now = Date.parse('2026-11-23T12:00:00Z');
  });

  it('when an account fails beyond its free failures from rotating addresses, then it backs off exponentially, up to the cap', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, `10.0.0.${i}`, 'victim@example.test');
    expect(await refusal(t, '10.0.1.1', 'victim@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 1 });
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      now += 60_000;
      await fail(t, `10.0.2.${i}`, 'VICTIM@example.test ');
      delays.push((await refusal(t, `10.0.3.${i}`, 'victim@example.test'))!.retryAfter);
    }
    expect(delays).toEqual([2, 4, 8, 8, 8, 8]);
  });

  it('when the back-off has passed, then the owner signs in, and a success forgets the account’s failures', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, '10.0.0.1', 'owner@example.test');
    now += 1000;
    await fail(t, '10.0.0.1', 'owner@example.test');
    expect(await refusal(t, '10.0.0.2', 'owner@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 2 });
    now += 2000;
    await (await t.reserve('10.0.0.2', 'owner@example.test')).settle('succeeded');
    for (let i = 0; i < 2; i++) await fail(t, '10.0.0.3', 'owner@example.test');
    expect(await refusal(t, '10.0.0.3', 'owner@example.test')).toBeUndefined();
  });

  it('when attempts are refused during a back-off, then they are not failures: the back-off does not grow', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, '10.0.0.1', 'a@example.test');
    for (let i = 0; i < 10; i++) expect(await refusal(t, `10.9.0.${i}`, 'a@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 1 });
    now += 1000;
    expect(await refusal(t, '10.0.0.1', 'a@example.test')).toBeUndefined();
  });

  it('when one address fails against many accounts, then its own budget stops it for the window', async () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) await fail(t, '192.0.2.1', `user${i}@example.test`);
    expect(await refusal(t, '192.0.2.1', 'someone-else@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 60 });
    expect(await refusal(t, '192.0.2.2', 'someone-else@example.test')).toBeUndefined();
    now += 60_000;
    expect(await refusal(t, '192.0.2.1', 'someone-else@example.test')).toBeUndefined();
  });

  it('when many checks are in flight at once, then no more start than the failure budget has room for, and the rest wait instead of failing', async () => {
    const t = createSignInThrottle(backendOf());
    const held = await Promise.all(Array.from({ length: 3 }, () => t.reserve('198.51.100.1', 'burst@example.test')));
    let fourthStarted = false;
    const fourth = t.reserve('198.51.100.1', 'burst@example.test').then((attempt) => {
      fourthStarted = true;
      return attempt;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(fourthStarted).toBe(false);
    await held[0]!.settle('succeeded');
    await (await fourth).settle('succeeded');
    expect(fourthStarted).toBe(true);
    await Promise.all(held.slice(1).map((attempt) => attempt.settle('succeeded')));
  });

  it('when strangers lock an account out, then a client that signed in to it before keeps signing in on a budget of its own, and a new client is still refused', async () => {
    const t = throttle();
    await (await t.reserve('10.1.0.1', 'owner@example.test')).settle('succeeded');
    for (let i = 0; i < 3; i++) await fail(t, `10.0.0.${i}`, 'owner@example.test');
    expect(await refusal(t, '10.0.9.9', 'owner@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 1 });
    expect(await refusal(t, '10.1.0.1', ' OWNER@example.test')).toBeUndefined();
    // Its own failures back it off alone: the strangers' lockout does not grow, nor does it lift.
    for (let i = 0; i < 3; i++) await fail(t, '10.1.0.1', 'owner@example.test');
    expect(await refusal(t, '10.1.0.1', 'owner@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 1 });
    now += 1000;
    await fail(t, '10.0.0.4', 'owner@example.test');
    expect(await refusal(t, '10.0.9.9', 'owner@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 2 });
  });

  it('when a device’s nonce comes with the attempt, then it counts against that device alone, and a device that fails too often is itself locked out', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await fail(t, '10.0.0.1', 'owner@example.test');
    for (let i = 0; i < 2; i++) await fail(t, '10.0.0.1', `other${i}@example.test`);
    expect(await refusal(t, '10.0.0.1', 'owner@example.test')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 60 });
    expect(await refusal(t, '10.0.0.1', 'owner@example.test', 'device-one')).toBeUndefined();
    for (let i = 0; i < 3; i++) await (await t.reserve('10.0.0.1', 'owner@example.test', 'device-one')).settle('failed');
    expect(await refusal(t, '10.0.0.2', 'owner@example.test', 'device-one')).toEqual({ code: 'rate_limit_exceeded', retryAfter: 1 });
    expect(await refusal(t, '10.0.0.2', 'owner@example.test', 'device-two')).toBeUndefined();
  });

  it('when a credential that is its own secret (an agent key) fails from one address, then only its own id backs off: the address keeps its whole budget', async () => {
    const t = throttle();
    for (let i = 0; i < 20; i++) {
      const attempt = await t.reserveCredential('192.0.2.7', `agent-key:dead-${i % 4}`).catch(() => undefined);
      await attempt?.settle('failed');
    }
    expect(await refusal(t, '192.0.2.7', 'owner@example.test')).toBeUndefined();
    for (let i = 0; i < 4; i++) await fail(t, '192.0.2.7', `user${i}@example.test`);
    expect(await refusal(t, '192.0.2.7', 'owner@example.test')).toBeUndefined();
    const key = (account: string) =>
      t.reserveCredential('192.0.2.7', account).then(
        (attempt) => attempt.settle('abandoned').then(() => undefined),
        (error: { code: string; headers: Record<string, string> }) => ({ code: error.code, retryAfter: Number(error.headers['Retry-After']) }),
      );
    expect(await key('agent-key:dead-0')).toEqual({ code: 'rate_limit_exceeded', retryAfter: expect.any(Number) });
    expect(await key('agent-key:healthy')).toBeUndefined();
  });

  it('when a check is abandoned (the database failed), then nothing is counted', async () => {
    const t = throttle();
    for (let i = 0; i < 10; i++) await (await t.reserve('10.0.0.1', 'b@example.test')).settle('abandoned');
    expect(await refusal(t, '10.0.0.1', 'b@example.test')).toBeUndefined();
  });
});

function brokenBackend(): ThrottleBackend {
  const down = () => Promise.reject(new Error('redis down'));
  return { reserve: down, settle: down, recalls: down, remember: down };
}

describe('the sign-in throttle when its store fails', () => {
  it('when the backend throws, then attempts pass uncounted (fail open) and the failure is reported', async () => {
    const errors: unknown[] = [];
    const broken = brokenBackend();
    const t = createSignInThrottle(broken, { onStoreError: (error) => errors.push(error) });
    for (let i = 0; i < 10; i++) await (await t.reserve('10.0.0.1', 'c@example.test')).settle('failed');
    expect(errors).toHaveLength(10);
  });

  it('when the backend throws and a fallback is given, then failures are counted in the fallback and the budget still holds, and the attempt settles where it was reserved', async () => {
    const broken = brokenBackend();
    const fallback = createMemoryThrottleBackend(LIMITS);
    const t = createSignInThrottle(broken, { fallback, onStoreError: () => undefined });
    for (let i = 0; i < LIMITS.clientMax; i++) await (await t.reserve('10.0.0.9', `guess-${i}@example.test`)).settle('failed');
    await expect(t.reserve('10.0.0.9', 'another@example.test')).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    // The same memory, read directly: five failures were recorded against the address.
    expect(await fallback.reserve('client:10.0.0.9', 'account:x', Date.now())).toBeGreaterThan(0);
  });
});

describe('sign-in limits over HTTP', () => {
  async function appWith(overrides: (base: Config) => Partial<Config>, withRedis?: RedisConnection, database?: Awaited<ReturnType<typeof openTestDatabase>>) {
    const db = database ?? (await openTestDatabase('sqlite'));
    const base = testConfig({ database: db.config });
    const config = { ...base, ...overrides(base) };
    return { http: supertest(buildApp({ config, db: db.db, logger: createLogger({ logLevel: 'silent' }), redis: withRedis })), db };
  }
  const throttled = (base: Config, extra: Partial<Config['auth']['accountThrottle']> = {}): Partial<Config> => ({
    trustProxy: 1,
    auth: { ...base.auth, accountThrottle: { freeFailures: 5, baseDelayMs: 400, maxDelayMs: 5000, ...extra } },
  });

  it('when one account is guessed from rotating forwarded addresses, then the 6th guess and even the right password are 429 until the back-off passes', async () => {
    // A back-off long enough that five argon2 checks on a loaded machine cannot outlast it.
    const { http, db } = await appWith((base) => throttled(base, { baseDelayMs: 2000 }));
    try {
      const email = `victim-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'Victim', email, password: 'correct horse battery' }).expect(201);
      for (let i = 0; i < 5; i++) {
        await http.post('/api/auth/login').set('X-Forwarded-For', `203.0.113.${i}`).send({ email, password: `guess ${i}` }).expect(401);
      }
      const guess = await http.post('/token').set('X-Forwarded-For', '203.0.113.50').type('form').send({ grant_type: 'password', username: email.toUpperCase(), password: 'guess 6' });
      expect(guess.status).toBe(429);
      expect(guess.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/Too many failed sign-ins/) });
      const owner = await http.post('/api/auth/login').set('X-Forwarded-For', '198.51.100.7').send({ email, password: 'correct horse battery' });
      expect(owner.status).toBe(429);
      expect(owner.headers['retry-after']).toMatch(/^[12]$/);
      expect(owner.body).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: `Too many failed sign-ins: retry in ${owner.headers['retry-after']} s`, requestId: expect.any(String) } });
      await new Promise((resolve) => setTimeout(resolve, 2050));
      await http.post('/api/auth/login').set('X-Forwarded-For', '198.51.100.7').send({ email, password: 'correct horse battery' }).expect(200);
      const metrics = await http.get('/metrics').set('Authorization', `Bearer ${TEST_METRICS_TOKEN}`).expect(200);
      expect(metrics.text).toMatch(/rate_limit_hits_total\{limiter="login"\} 2/);
    } finally {
      await db.close();
    }
  });

  it('when ten correct sign-ins arrive at once from one client, then all ten succeed, and none counts as a failure', async () => {
    const { http, db } = await appWith((base) => ({ ...throttled(base), rateLimits: { ...base.rateLimits, login: { windowMs: 3_600_000, max: 5 } } }));
    try {
      const email = `busy-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'Busy', email, password: 'correct horse battery' }).expect(201);
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? http.post('/api/auth/login').send({ email, password: 'correct horse battery' }).then((res) => res.status)
            : http.post('/token').type('form').send({ grant_type: 'password', username: email, password: 'correct horse battery' }).then((res) => res.status),
        ),
      );
      expect(statuses).toEqual(Array(10).fill(200));
      for (let i = 0; i < 5; i++) await http.post('/api/auth/login').send({ email, password: 'wrong' }).expect(401);
      await http.post('/api/auth/login').send({ email, password: 'correct horse battery' }).expect(429);
    } finally {
      await db.close();
    }
  });

  /** Five failures per address and per account, with a back-off long enough to outlast the test. */
  const strict = (base: Config): Partial<Config> => ({
    ...throttled(base, { baseDelayMs: 60_000, maxDelayMs: 600_000 }),
    rateLimits: { ...base.rateLimits, login: { windowMs: 3_600_000, max: 5 } },
  });
  const logIn = (http: supertest.Agent, from: string, email: string, password: string, cookie?: string) => {
    const request = http.post('/api/auth/login').set('X-Forwarded-For', from);
    return (cookie === undefined ? request : request.set('Cookie', cookie)).send({ email, password });
  };
  const deviceCookieOf = (res: supertest.Response): string => {
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const device = cookies.find((cookie) => cookie.startsWith('agent_fleet_device='));
    if (!device) throw new Error(`no device cookie among ${JSON.stringify(cookies)}`);
    return device;
  };

  it('when a stranger locks an account out, then its owner still signs in from an address that signed in before and with a device cookie, while a new address is refused', async () => {
    const { http, db } = await appWith(strict);
    try {
      const email = `owner-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'Owner', email, password: 'correct horse battery' }).expect(201);
      const before = await logIn(http, '198.51.100.7', email, 'correct horse battery').expect(200);
      const device = deviceCookieOf(before).split(';')[0]!;
      for (let i = 0; i < 5; i++) await logIn(http, '203.0.113.9', email, `guess ${i}`).expect(401);

      const stranger = await logIn(http, '192.0.2.44', email, 'correct horse battery');
      expect(stranger.status).toBe(429);
      expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(50);
      await logIn(http, '198.51.100.7', email, 'correct horse battery').expect(200);
      await http.post('/token').set('X-Forwarded-For', '198.51.100.7').type('form').send({ grant_type: 'password', username: email, password: 'correct horse battery' }).expect(200);
      await logIn(http, '192.0.2.45', email, 'correct horse battery', device).expect(200);
      // The guesser's own address is spent as well; a device cookie is not.
      await logIn(http, '203.0.113.9', email, 'correct horse battery', device).expect(200);
      await logIn(http, '192.0.2.46', email, 'correct horse battery').expect(429);
    } finally {
      await db.close();
    }
  });

  it('when a device cookie is issued, then scripts cannot read it, it goes back only to the sign-in, same-site, for a bounded time, and over HTTPS when it came that way', async () => {
    const { http, db } = await appWith(strict);
    try {
      const email = `device-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'Device', email, password: 'correct horse battery' }).expect(201);
      const plain = deviceCookieOf(await logIn(http, '198.51.100.8', email, 'correct horse battery').expect(200));
      expect(plain).toMatch(/; HttpOnly/);
      expect(plain).toMatch(/; SameSite=Strict/);
      expect(plain).toMatch(/; Path=\/api\/auth\/login(;|$)/);
      expect(plain).toMatch(/; Max-Age=2592000;/);
      expect(plain).not.toMatch(/; Secure/);
      const secure = await http.post('/api/auth/login').set('X-Forwarded-For', '198.51.100.8').set('X-Forwarded-Proto', 'https').send({ email, password: 'correct horse battery' }).expect(200);
      expect(deviceCookieOf(secure)).toMatch(/; Secure/);
      const token = await http.post('/token').set('X-Forwarded-For', '198.51.100.8').type('form').send({ grant_type: 'password', username: email, password: 'correct horse battery' }).expect(200);
      expect(deviceCookieOf(token)).toMatch(/; Path=\/token(;|$)/);
    } finally {
      await db.close();
    }
  });

  it('when a device cookie is tampered with, or names another account, then it counts for nothing: the stranger lockout holds', async () => {
    const { http, db } = await appWith(strict);
    try {
      const email = `tampered-${randomBytes(3).toString('hex')}@example.test`;
      const other = `other-${randomBytes(3).toString('hex')}@example.test`;
      await http.post('/api/v1/users').send({ name: 'Tampered', email, password: 'correct horse battery' }).expect(201);
      await http.post('/api/v1/users').send({ name: 'Other', email: other, password: 'correct horse battery' }).expect(201);
      const device = deviceCookieOf(await logIn(http, '198.51.100.9', email, 'correct horse battery').expect(200)).split(';')[0]!;
      const otherDevice = deviceCookieOf(await logIn(http, '198.51.100.10', other, 'correct horse battery').expect(200)).split(';')[0]!;
      for (let i = 0; i < 5; i++) await logIn(http, `203.0.113.${20 + i}`, email, `guess ${i}`).expect(401);

      const [header, payload, signature] = device.slice('agent_fleet_device='.length).split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, jti: 'chosen-by-the-attacker' })).toString('base64url');
      const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const cookie of [`agent_fleet_device=${header}.${forged}.${signature}`, `agent_fleet_device=${header}.${payload}.${flipped}`, otherDevice]) {
        await logIn(http, '192.0.2.50', email, 'correct horse battery', cookie).expect(429);
      }
      await logIn(http, '192.0.2.50', email, 'correct horse battery', device).expect(200);
    } finally {
      await db.close();
    }
  });

  it('when failures come from five addresses of one IPv6 /56, then they share one budget, and the next /56 has its own', async () => {
    const { http, db } = await appWith(strict);
    try {
      for (let i = 0; i < 5; i++) {
        await logIn(http, `2001:db8:0:ab${(i * 50).toString(16).padStart(2, '0')}::${i + 1}`, `nobody-${i}@example.test`, 'guess').expect(401);
      }
      await logIn(http, '2001:db8:0:abff:ffff::9', 'nobody-5@example.test', 'guess').expect(429);
      await logIn(http, '2001:db8:0:ac00::1', 'nobody-5@example.test', 'guess').expect(401);
    } finally {
      await db.close();
    }
  });

  it('when failures come from an IPv4 address and from its IPv4-mapped IPv6 form, then they are one client', async () => {
    const { http, db } = await appWith(strict);
    try {
      for (let i = 0; i < 5; i++) await logIn(http, i % 2 === 0 ? '::ffff:203.0.113.77' : '203.0.113.77', `mapped-${i}@example.test`, 'guess').expect(401);
      await logIn(http, '203.0.113.77', 'mapped-5@example.test', 'guess').expect(429);
      await logIn(http, '::ffff:203.0.113.77', 'mapped-5@example.test', 'guess').expect(429);
      await logIn(http, '203.0.113.78', 'mapped-5@example.test', 'guess').expect(401);
    } finally {
      await db.close();
    }
  });

  it('when guesses for one account are spread over two instances sharing Redis, then they count together', async () => {
    const database = await openTestDatabase('pg');
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const shared = (base: Config): Partial<Config> => ({ ...throttled(base, { baseDelayMs: 60_000, maxDelayMs: 600_000 }), rateLimits: { ...base.rateLimits, keyPrefix: prefix } });
    const a = await appWith(shared, redis, database);
    const b = await appWith(shared, redis, database);
    try {
      const email = `shared-${randomBytes(3).toString('hex')}@example.test`;
      await a.http.post('/api/v1/users').send({ name: 'Shared', email, password: 'correct horse battery' }).expect(201);
      for (let i = 0; i < 5; i++) {
        await (i % 2 === 0 ? a : b).http.post('/api/auth/login').set('X-Forwarded-For', `203.0.113.${i}`).send({ email, password: 'guess' }).expect(401);
      }
      const refused = await b.http.post('/api/auth/login').set('X-Forwarded-For', '203.0.113.99').send({ email, password: 'correct horse battery' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    } finally {
      await database.close();
    }
  });
});
