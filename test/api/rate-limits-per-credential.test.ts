import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { createTokenService } from '../../src/auth/tokens';
import type { Config } from '../../src/config/config';
import type { RedisConnection } from '../../src/data/redis';
import type { Principal } from '../../src/domain/access';
import { budgetOf, counterKeyOf } from '../../src/http/rate-limit';
import { createLogger } from '../../src/logger';
import type { User } from '../../src/model';
import { describeEachDatabase, describeWithRedis, metricValue, openTestDatabase, TEST_API_KEY, testConfig } from '../support/harness';
import { REDIS_TEST_URL, useRedisPair } from '../support/services';

const SECOND_API_KEY = 'second-service-key-0123456789abcdef';
const API_MAX = 5;
const USER_MAX = 6;
const USER_WINDOW_MS = 20 * 60_000;
const ROOT_MAX = 5;
const SERVICE_KEY_MAX = 8;
const AGENT_KEY_MAX = 7;
const KEY_WINDOW_MS = 10 * 60_000;

/** Small budgets, two service keys, and one proxy hop trusted so that each test calls from addresses of its own (X-Forwarded-For). */
function limited(base: Config = testConfig()): Partial<Config> {
  return {
    trustProxy: 1,
    auth: { ...base.auth, apiKeys: [TEST_API_KEY, SECOND_API_KEY] },
    rateLimits: {
      ...base.rateLimits,
      api: { windowMs: 15 * 60_000, max: API_MAX },
      user: { windowMs: USER_WINDOW_MS, max: USER_MAX },
      root: { windowMs: KEY_WINDOW_MS, max: ROOT_MAX },
      serviceKey: { windowMs: KEY_WINDOW_MS, max: SERVICE_KEY_MAX },
      agentKey: { windowMs: KEY_WINDOW_MS, max: AGENT_KEY_MAX },
    },
  };
}

let addresses = 0;
/** An address no other test calls from. */
const newAddress = () => {
  addresses += 1;
  return `198.51.${addresses >> 8}.${addresses & 255}`;
};

type Credential = { token?: string; cookie?: string; apiKey?: string };

/** GET `path` from `address` with `credential`: status and the rate-limit headers. */
async function call(http: supertest.Agent | ReturnType<typeof supertest>, path: string, address: string, credential: Credential = {}, method: 'get' | 'post' = 'get') {
  let request = http[method](path).set('X-Forwarded-For', address);
  if (credential.token) request = request.set('Authorization', `Bearer ${credential.token}`);
  if (credential.cookie) request = request.set('Cookie', credential.cookie);
  if (credential.apiKey) request = request.set('X-API-Key', credential.apiKey);
  const res = await request;
  return { status: res.status, rateLimit: res.headers.ratelimit, policy: res.headers['ratelimit-policy'], retryAfter: res.headers['retry-after'], body: res.body as unknown };
}

const policy = (name: string, max: number, windowMs: number) => new RegExp(`^"${name}"; q=${max}; w=${windowMs / 1000}; pk=:[A-Za-z0-9+/=]+:$`);
const remaining = (name: string, left: number) => new RegExp(`^"${name}"; r=${left}; t=\\d+$`);

describeEachDatabase(
  'rate limits per credential',
  (get) => {
    const http = () => supertest(get().app);

    it('when two users call from one address, then each has a budget of their own under /api (a person\'s, larger than an address\'s) and the root surface\'s own', async () => {
      const address = newAddress();
      const first = await get().signUp();
      const second = await get().signUp();
      for (let i = 0; i < USER_MAX; i++) {
        const ok = await call(http(), '/api/v1/me', address, { token: first.token });
        expect(ok.status).toBe(200);
        expect(ok.policy).toMatch(policy('user', USER_MAX, USER_WINDOW_MS));
        expect(ok.rateLimit).toMatch(remaining('user', USER_MAX - 1 - i));
      }
      const refused = await call(http(), '/api/v1/me', address, { token: first.token });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/^Too many requests: retry in \d+ s$/), requestId: expect.any(String) } });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(USER_WINDOW_MS / 1000);
      expect(refused.rateLimit).toMatch(remaining('user', 0));
      expect(refused.policy).toMatch(policy('user', USER_MAX, USER_WINDOW_MS));

      const other = await call(http(), '/api/v1/me', address, { token: second.token });
      expect(other.status).toBe(200);
      expect(other.rateLimit).toMatch(remaining('user', USER_MAX - 1));
      // The root surface counts the same person against its own budget.
      const root = await call(http(), '/agents', address, { token: first.token });
      expect(root.status).toBe(200);
      expect(root.policy).toMatch(policy('root', ROOT_MAX, KEY_WINDOW_MS));
      expect(root.rateLimit).toMatch(remaining('root', ROOT_MAX - 1));
      // And the address itself, for anonymous requests, has spent nothing.
      const anonymous = await call(http(), '/api/v1/me', address);
      expect(anonymous.status).toBe(401);
      expect(anonymous.rateLimit).toMatch(remaining('api', API_MAX - 1));
    });

    it('when one user calls from two addresses with two sessions (a bearer token and the session cookie), then both share one budget', async () => {
      const user = await get().signUp();
      const other = await get().sessions.begin(user.user, 'password');
      const cookie = `${get().config.auth.sessionCookieName}=${other.access_token}`;
      const [here, there] = [newAddress(), newAddress()];
      const seen: Array<string | undefined> = [];
      for (let i = 0; i < USER_MAX; i++) {
        const ok = i % 2 === 0 ? await call(http(), '/api/v1/me', here, { token: user.token }) : await call(http(), '/api/v1/me', there, { cookie });
        expect(ok.status).toBe(200);
        seen.push(ok.rateLimit);
      }
      expect(seen).toEqual(Array.from({ length: USER_MAX }, (_, i) => expect.stringMatching(remaining('user', USER_MAX - 1 - i))));
      expect((await call(http(), '/api/v1/me', there, { token: user.token })).status).toBe(429);
      expect((await call(http(), '/api/v1/me', newAddress(), { cookie })).status).toBe(429);
    });

    it('when a service key calls, then it has its own larger budget on either surface, and its own counter: not the address\'s, not another key\'s', async () => {
      const address = newAddress();
      const key = { apiKey: TEST_API_KEY };
      for (let i = 0; i < SERVICE_KEY_MAX; i++) {
        const ok = await call(http(), i % 2 === 0 ? '/api/v1/agents' : '/agents', address, key);
        expect(ok.status).toBe(200);
        expect(ok.policy).toMatch(policy('service-key', SERVICE_KEY_MAX, KEY_WINDOW_MS));
        expect(ok.rateLimit).toMatch(remaining('service-key', SERVICE_KEY_MAX - 1 - i));
      }
      const hitsBefore = await metricValue(get().metrics, 'rate_limit_hits_total', { limiter: 'service-key' });
      const refused = await call(http(), '/agents', newAddress(), key);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'rate_limit_exceeded', message: expect.stringMatching(/^Too many requests: retry in \d+ s$/) });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(KEY_WINDOW_MS / 1000);
      expect(refused.rateLimit).toMatch(remaining('service-key', 0));
      expect(refused.policy).toMatch(policy('service-key', SERVICE_KEY_MAX, KEY_WINDOW_MS));
      expect(await metricValue(get().metrics, 'rate_limit_hits_total', { limiter: 'service-key' })).toBe(hitsBefore + 1);

      const second = await call(http(), '/api/v1/agents', address, { apiKey: SECOND_API_KEY });
      expect(second.status).toBe(200);
      expect(second.rateLimit).toMatch(remaining('service-key', SERVICE_KEY_MAX - 1));
      const anonymous = await call(http(), '/api/v1/agents', address);
      expect(anonymous.status).toBe(401);
      expect(anonymous.rateLimit).toMatch(remaining('api', API_MAX - 1));
      // Nothing of the key reaches the log.
      expect(get().logs.text()).not.toContain(TEST_API_KEY);
    });

    it('when an agent key calls from many addresses, then it has its own budget and counter on either surface, a scope it lacks is counted against it, and another key of the same agent counts apart', async () => {
      const asService = (path: string, body: object) => http().post(path).set('X-Forwarded-For', newAddress()).set('X-API-Key', SECOND_API_KEY).send(body).expect(201);
      const agent = (await asService('/api/v1/agents', { name: 'counted', type: 'type_a' })).body.data as { id: string };
      const keyOf = async (scopes: string[]) => ({ apiKey: (await asService(`/api/v1/agents/${agent.id}/keys`, { name: 'worker', scopes })).body.data.secret as string });
      const [reader, other] = [await keyOf(['tasks:read']), await keyOf(['tasks:read'])];
      let address = newAddress();
      for (let i = 0; i < AGENT_KEY_MAX - 1; i++) {
        address = newAddress();
        const ok = await call(http(), i % 2 === 0 ? `/api/v1/agents/${agent.id}` : `/agents/${agent.id}`, address, reader);
        expect(ok.status).toBe(200);
        expect(ok.policy).toMatch(policy('agent-key', AGENT_KEY_MAX, KEY_WINDOW_MS));
        expect(ok.rateLimit).toMatch(remaining('agent-key', AGENT_KEY_MAX - 1 - i));
      }
      // Queueing needs tasks:write: refused, and counted against the key, not the address.
      const lacking = await call(http(), `/api/v1/agents/${agent.id}/tasks`, address, reader, 'post');
      expect(lacking.status).toBe(403);
      expect(lacking.rateLimit).toMatch(remaining('agent-key', 0));
      const refused = await call(http(), `/api/v1/agents/${agent.id}`, newAddress(), reader);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.policy).toMatch(policy('agent-key', AGENT_KEY_MAX, KEY_WINDOW_MS));

      const second = await call(http(), `/api/v1/agents/${agent.id}`, address, other);
      expect(second.status).toBe(200);
      expect(second.rateLimit).toMatch(remaining('agent-key', AGENT_KEY_MAX - 1));
      expect((await call(http(), '/api/v1/agents', address)).rateLimit).toMatch(remaining('api', API_MAX - 1));
      expect(get().logs.text()).not.toContain(reader.apiKey);
    });

    it('when anonymous requests arrive, then they are counted by address on the surface\'s budget, open operations included', async () => {
      const [address, elsewhere] = [newAddress(), newAddress()];
      const statuses: number[] = [];
      for (let i = 0; i < API_MAX; i++) {
        const answer = i === 0 ? await call(http(), '/api/v1/users', address, {}, 'post') : await call(http(), '/api/v1/me', address);
        statuses.push(answer.status);
        expect(answer.policy).toMatch(policy('api', API_MAX, 15 * 60_000));
        expect(answer.rateLimit).toMatch(remaining('api', API_MAX - 1 - i));
      }
      // Sign-up is open: a request without its body is counted all the same, before the body is looked at.
      expect(statuses).toEqual([415, 401, 401, 401, 401]);
      const refused = await call(http(), '/api/v1/me', address);
      expect(refused.status).toBe(429);
      expect(refused.rateLimit).toMatch(remaining('api', 0));
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await call(http(), '/api/v1/me', elsewhere)).status).toBe(401);
      // The root surface's budget is another one.
      const root = await call(http(), '/agents', address);
      expect(root.status).toBe(401);
      expect(root.rateLimit).toMatch(remaining('root', ROOT_MAX - 1));
    });

    it('when credentials are refused, then each counts against the address until it is spent, and a good credential from that address still has its own budget', async () => {
      const [address, elsewhere] = [newAddress(), newAddress()];
      const user = await get().signUp();
      const invented = [
        { token: randomBytes(24).toString('base64url') },
        { token: user.token.slice(0, -2) + 'xx' },
        { apiKey: `invented-${randomBytes(12).toString('hex')}` },
        { token: randomBytes(24).toString('base64url') },
        { apiKey: `invented-${randomBytes(12).toString('hex')}` },
      ];
      const answers = [];
      for (const credential of invented) answers.push(await call(http(), '/api/v1/me', address, credential));
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 403, 401, 403]);
      expect(answers.map((answer) => answer.rateLimit)).toEqual(Array.from({ length: API_MAX }, (_, i) => expect.stringMatching(remaining('api', API_MAX - 1 - i))));
      for (const answer of answers) expect(answer.policy).toMatch(policy('api', API_MAX, 15 * 60_000));

      const another = await call(http(), '/api/v1/me', address, { token: randomBytes(24).toString('base64url') });
      expect(another.status).toBe(429);
      expect(another.rateLimit).toMatch(remaining('api', 0));
      expect(Number(another.retryAfter)).toBeGreaterThan(0);
      // A good credential behind the spent address (a NAT with one misconfigured worker) is not
      // refused for it: the refusals spent the address's budget, not the user's.
      const good = await call(http(), '/api/v1/me', address, { token: user.token });
      expect(good.status).toBe(200);
      expect(good.rateLimit).toMatch(remaining('user', USER_MAX - 1));
      // And the same user elsewhere shares that one budget.
      const ok = await call(http(), '/api/v1/me', elsewhere, { token: user.token });
      expect(ok.status).toBe(200);
      expect(ok.rateLimit).toMatch(remaining('user', USER_MAX - 2));
      // The root surface's address budget is untouched by /api's refusals.
      expect((await call(http(), '/agents', address, { apiKey: TEST_API_KEY.replace(/.$/, '!') })).rateLimit).toMatch(remaining('root', ROOT_MAX - 1));
    });

    it('when sign-ins are attempted (/api/auth/login, /token), then they count against the address, even with a credential, and never against the user', async () => {
      const address = newAddress();
      const user = await get().signUp();
      const logins = [];
      for (let i = 0; i < API_MAX; i++) {
        const res = await http().post('/api/auth/login').set('X-Forwarded-For', address).set('Authorization', `Bearer ${user.token}`).send({ email: user.user.email, password: `wrong ${i}` });
        logins.push({ status: res.status, rateLimit: res.headers.ratelimit });
      }
      expect(logins).toEqual(Array.from({ length: API_MAX }, (_, i) => ({ status: 401, rateLimit: expect.stringMatching(remaining('api', API_MAX - 1 - i)) })));
      const refused = await http().post('/api/auth/login').set('X-Forwarded-For', address).send({ email: user.user.email, password: user.password });
      expect(refused.status).toBe(429);
      expect(refused.headers.ratelimit).toMatch(remaining('api', 0));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The user's own budget was not touched (and a good credential from elsewhere is not refused).
      expect((await call(http(), '/api/v1/me', newAddress(), { token: user.token })).rateLimit).toMatch(remaining('user', USER_MAX - 1));

      // Another account: the first one's failures have used up its free ones (src/auth/sign-in-throttle.ts).
      const grantee = await get().signUp();
      const grants = [];
      for (let i = 0; i < ROOT_MAX; i++) {
        const res = await http().post('/token').set('X-Forwarded-For', address).set('X-API-Key', TEST_API_KEY).type('form').send({ grant_type: 'password', username: grantee.user.email, password: `wrong ${i}` });
        grants.push({ status: res.status, rateLimit: res.headers.ratelimit, policy: res.headers['ratelimit-policy'] });
      }
      expect(grants).toEqual(Array.from({ length: ROOT_MAX }, (_, i) => ({ status: 400, rateLimit: expect.stringMatching(remaining('root', ROOT_MAX - 1 - i)), policy: expect.stringMatching(policy('root', ROOT_MAX, KEY_WINDOW_MS)) })));
      const grantRefused = await http().post('/token').set('X-Forwarded-For', address).type('form').send({ grant_type: 'password', username: grantee.user.email, password: grantee.password });
      expect(grantRefused.status).toBe(429);
      expect(grantRefused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect(Number(grantRefused.headers['retry-after'])).toBeGreaterThan(0);
    });
  },
  limited(),
);

describe('a long poll', () => {
  it('when a claim waits before it answers, then it was counted once, when it arrived, and its answer counts nothing more', async () => {
    const database = await openTestDatabase('sqlite');
    try {
      const base = testConfig({ database: database.config });
      const config = { ...base, ...limited(base) } as Config;
      let arrived: () => void = () => undefined;
      const waitingStarted = new Promise<void>((resolve) => (arrived = resolve));
      let answer: () => void = () => undefined;
      const answerable = new Promise<void>((resolve) => (answer = resolve));
      const app = buildApp({
        config,
        db: database.db,
        logger: createLogger({ logLevel: 'silent' }),
        tokens: createTokenService(config.auth.jwt),
        // A claim that waits until the test lets it answer, then finds nothing (a long poll that runs out: 204).
        handlers: {
          claimLease: async (_req, res) => {
            arrived();
            await answerable;
            res.status(204).end();
          },
        },
      });
      const http = supertest(app);
      const address = newAddress();
      const signedUp = await http.post('/api/v1/users').set('X-Forwarded-For', address).send({ name: 'poller', email: `poller-${randomBytes(3).toString('hex')}@example.test`, password: 'long enough pw' }).expect(201);
      const token = (await http.post('/api/auth/login').set('X-Forwarded-For', newAddress()).send({ email: signedUp.body.data.email, password: 'long enough pw' }).expect(200)).body.data.access_token as string;

      const claim = http.post(`/api/v1/agents/${signedUp.body.data.id}/leases`).set('X-Forwarded-For', address).set('Authorization', `Bearer ${token}`).send({ wait_seconds: 20 }).then((res) => res);
      await waitingStarted;
      const during = await call(http, '/api/v1/me', address, { token });
      expect(during.rateLimit).toMatch(remaining('user', USER_MAX - 2));
      answer();
      const claimed = await claim;
      expect(claimed.status).toBe(204);
      expect(claimed.headers.ratelimit).toMatch(remaining('user', USER_MAX - 1));
      const after = await call(http, '/api/v1/me', address, { token });
      expect(after.rateLimit).toMatch(remaining('user', USER_MAX - 3));
    } finally {
      await database.close();
    }
  });
});

describe('the counter of each kind of credential', () => {
  const user = { id: '0190b3a4-0000-7000-8000-000000000001' } as User;
  const principals: Array<[string, Principal, string, string, string]> = [
    ['a user', { kind: 'user', user }, `user:${user.id}`, 'user', 'root'],
    ['a service key', { kind: 'service', keyNumber: 2 }, 'service-key:2', 'service-key', 'service-key'],
    ['an agent key (or its token)', { kind: 'agent', agentId: 'agent-1', keyId: 'key-9', scopes: ['tasks:work'] }, 'agent-key:key-9', 'agent-key', 'agent-key'],
  ];

  it.each(principals)('when %s is counted, then under its own key, against its budget on each surface', (_name, principal, key, onApi, onRoot) => {
    expect(counterKeyOf(principal)).toBe(key);
    expect(budgetOf('api', principal)).toBe(onApi);
    expect(budgetOf('root', principal)).toBe(onRoot);
  });

  it('when two agent keys of one agent are counted, then each has a counter of its own', () => {
    const agent = (keyId: string): Principal => ({ kind: 'agent', agentId: 'agent-1', keyId, scopes: ['tasks:read'] });
    expect(counterKeyOf(agent('key-1'))).not.toBe(counterKeyOf(agent('key-2')));
  });
});

describeWithRedis('rate limits per credential, with Redis', () => {
  const instances = useRedisPair();

  it('when two app instances share one Redis, then each credential has one budget across both, and no key of Redis holds a secret', async () => {
    const prefix = `test-${randomBytes(6).toString('hex')}:`;
    const database = await openTestDatabase('sqlite');
    const inspect = createClient({ url: REDIS_TEST_URL });
    await inspect.connect();
    try {
      const base = testConfig({ database: database.config });
      const overrides = limited(base);
      const config = { ...base, ...overrides, rateLimits: { ...overrides.rateLimits!, keyPrefix: prefix } } as Config;
      const appOf = (redis: RedisConnection) => supertest(buildApp({ config, db: database.db, logger: createLogger({ logLevel: 'silent' }), tokens: createTokenService(config.auth.jwt), redis }));
      const [one, two] = [appOf(instances.a), appOf(instances.b)];
      const address = newAddress();

      const [signUpAddress, signInAddress] = [newAddress(), newAddress()];
      const signedUp = await one.post('/api/v1/users').set('X-Forwarded-For', signUpAddress).send({ name: 'shared', email: `shared-${randomBytes(3).toString('hex')}@example.test`, password: 'long enough pw' }).expect(201);
      const token = (await two.post('/api/auth/login').set('X-Forwarded-For', signInAddress).send({ email: signedUp.body.data.email, password: 'long enough pw' }).expect(200)).body.data.access_token as string;
      const user = [];
      for (let i = 0; i < USER_MAX; i++) user.push(await call(i % 2 === 0 ? one : two, '/api/v1/me', address, { token }));
      expect(user.map((answer) => [answer.status, answer.rateLimit])).toEqual(Array.from({ length: USER_MAX }, (_, i) => [200, expect.stringMatching(remaining('user', USER_MAX - 1 - i))]));
      expect((await call(one, '/api/v1/me', address, { token })).status).toBe(429);
      expect((await call(two, '/api/v1/me', newAddress(), { token })).status).toBe(429);

      const service = [];
      for (let i = 0; i < SERVICE_KEY_MAX; i++) service.push(await call(i % 2 === 0 ? two : one, '/agents', address, { apiKey: SECOND_API_KEY }));
      expect(service.map((answer) => [answer.status, answer.rateLimit])).toEqual(Array.from({ length: SERVICE_KEY_MAX }, (_, i) => [200, expect.stringMatching(remaining('service-key', SERVICE_KEY_MAX - 1 - i))]));
      const refused = await call(one, '/api/v1/agents', address, { apiKey: SECOND_API_KEY });
      expect(refused.status).toBe(429);
      expect(refused.policy).toMatch(policy('service-key', SERVICE_KEY_MAX, KEY_WINDOW_MS));
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      // The address is untouched by the user and the key, on both instances.
      expect((await call(two, '/api/v1/me', address)).rateLimit).toMatch(remaining('api', API_MAX - 1));

      // Refused credentials spend the address's budget on every instance.
      const refusals = [];
      for (let i = 0; i < API_MAX - 1; i++) refusals.push((await call(i % 2 === 0 ? one : two, '/api/v1/me', address, { apiKey: `invented-${i}-0123456789abcdef` })).status);
      expect(refusals).toEqual(Array(API_MAX - 1).fill(403));
      const spent = await call(one, '/api/v1/me', address, { apiKey: `invented-spent-0123456789abcdef` });
      expect(spent.status).toBe(429);
      expect(spent.rateLimit).toMatch(remaining('api', 0));

      const keys = await inspect.keys(`${prefix}*`);
      // The sign-in throttle's own keys (`sign-in:`) are src/auth/sign-in-throttle.ts's.
      expect(keys.filter((key) => !key.startsWith(`${prefix}sign-in:`)).sort()).toEqual(
        [`api:${address}`, `api:${signUpAddress}`, `api:${signInAddress}`, `user:user:${signedUp.body.data.id}`, 'service-key:service-key:2'].map((key) => `${prefix}${key}`).sort(),
      );
      for (const key of keys) {
        expect(key).not.toContain(SECOND_API_KEY);
        expect(key).not.toContain(token);
      }
    } finally {
      const keys = await inspect.keys(`${prefix}*`);
      if (keys.length > 0) await inspect.del(keys);
      await inspect.close();
      await database.close();
    }
  });
});
