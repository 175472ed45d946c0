import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config/config';
import { startTestApp, testConfig, type TestApp } from '../support/harness';

/** An app whose login limiter allows 5 failures per client, served over HTTP. */
async function loginLimitedApp(trustProxy: Config['trustProxy']): Promise<{ app: TestApp; base: string }> {
  const limits = testConfig().rateLimits;
  const app = await startTestApp('sqlite', { trustProxy, rateLimits: { ...limits, login: { windowMs: 3_600_000, max: 5 } } });
  return { app, base: await app.listen() };
}

/** One failed sign-in for an account that does not exist (a new one each time: only the client key is shared). */
async function failLogin(base: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
    body: JSON.stringify({ email: `nobody-${randomBytes(4).toString('hex')}@example.test`, password: 'wrong password' }),
  });
  await res.arrayBuffer();
  return res.status;
}

const rotating = (i: number) => `203.0.113.${i + 1}`;

describe('the client key of the login limiter and X-Forwarded-For', () => {
  let current: TestApp | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  it('when TRUST_PROXY is unset and one client rotates X-Forwarded-For, then its 6th failed sign-in is 429 all the same', async () => {
    const { app, base } = await loginLimitedApp(false);
    current = app;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await failLogin(base, rotating(i)));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('when TRUST_PROXY lists subnets the client is not in, then its X-Forwarded-For is ignored as well', async () => {
    const { app, base } = await loginLimitedApp(['10.0.0.0/8', 'fd00::/8']);
    current = app;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await failLogin(base, rotating(i)));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('when TRUST_PROXY=1, then the address the proxy appended is the client: each has its own 5 failures', async () => {
    const { app, base } = await loginLimitedApp(1);
    current = app;
    const rotated = [];
    for (let i = 0; i < 6; i++) rotated.push(await failLogin(base, rotating(i)));
    expect(rotated).toEqual([401, 401, 401, 401, 401, 401]);
    // A spoofed left-most entry is not believed: only the hop the one trusted proxy added counts.
    const same = [];
    for (let i = 0; i < 5; i++) same.push(await failLogin(base, `198.51.100.${i}, ${rotating(0)}`));
    expect(same).toEqual([401, 401, 401, 401, 429]);
  });

  it('when TRUST_PROXY names the proxy (loopback), then the entry it appended is the client', async () => {
    const { app, base } = await loginLimitedApp(['loopback']);
    current = app;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await failLogin(base, rotating(i)));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
  });
});
