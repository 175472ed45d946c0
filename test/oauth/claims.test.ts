import { checkProviderClaims, type ProviderClaims } from '../../src/domain/provider-claims';
import { parseSetCookie } from '../support/cookie-jar-client';
import { authorizeAtProvider, describeOAuth, newLogin, PROVIDERS, signIn, startSignIn } from '../support/oauth-harness';

const FAILED = '/login?error=oauth_failed';
const INVALID_CLAIMS = `${FAILED}&reason=invalid_claims`;

/** Addresses api.yaml's Email (ajv-formats' full e-mail format, 320 characters at most) refuses. */
const REFUSED_EMAILS: string[] = [
  `${'a'.repeat(60_000)}@idp.example`,
  `person@${'a'.repeat(330)}.example`,
  'person@localhost',
  'pérson@idp.example',
  'per son@idp.example',
  '"quoted"@idp.example',
  'person@idp..example',
  'person@-idp.example',
  'person@idp.example\u0000',
  '<script>@idp.example',
  'person',
];

describe('checkProviderClaims', () => {
  it('when the claims are fine, then the address is trimmed and lower-cased and the name kept', () => {
    expect(checkProviderClaims('idp', { sub: 'abc', email: ' Person@IdP.Example ', email_verified: true, name: 'A Person' })).toEqual({
      provider: 'idp',
      subject: 'abc',
      email: 'person@idp.example',
      emailVerified: true,
      name: 'A Person',
    });
    expect(checkProviderClaims('idp', { sub: 'abc', email_verified: 'true' })).toEqual({ provider: 'idp', subject: 'abc', emailVerified: true });
  });

  it.each<[string, ProviderClaims]>([
    ['an empty subject', { sub: '' }],
    ['a subject of 256 characters', { sub: 's'.repeat(256) }],
    ['a 60 KB subject', { sub: 's'.repeat(60_000) }],
    ['a subject with a control character', { sub: 'abc\u0007' }],
    ['a subject with a newline', { sub: 'abc\ndef' }],
    ['a subject with a lone surrogate', { sub: 'abc\ud800' }],
    ['a subject that is not a string', { sub: 42 }],
    ['an e-mail that is not a string', { sub: 'abc', email: ['a@idp.example'] }],
    ['a name that is not a string', { sub: 'abc', name: { first: 'A' } }],
    ...REFUSED_EMAILS.map((email): [string, ProviderClaims] => [`the e-mail ${JSON.stringify(email.slice(0, 40))}`, { sub: 'abc', email }]),
  ])('when the ID token has %s, then the claims are refused (invalid_claims)', (_label, claims) => {
    expect(() => checkProviderClaims('idp', claims)).toThrow(expect.objectContaining({ reason: 'invalid_claims' }));
  });

  it('when the name is long, holds control characters or is only white space, then it is cut to 100 characters, cleaned, or left out', () => {
    const long = checkProviderClaims('idp', { sub: 'abc', name: `  ${'N'.repeat(60_000)}` });
    expect(long.name).toBe('N'.repeat(100));
    expect(checkProviderClaims('idp', { sub: 'abc', name: `${'😀'.repeat(150)}` }).name).toBe('😀'.repeat(100));
    expect(checkProviderClaims('idp', { sub: 'abc', name: 'Ann\u0000\u001b[31m\nLee\u0085' }).name).toBe('Ann [31m Lee');
    expect(checkProviderClaims('idp', { sub: 'abc', name: ' \t\n ' }).name).toBeUndefined();
  });

  it('when a claim is 60 KB, then the check takes a few milliseconds, not seconds', () => {
    const started = performance.now();
    for (const email of [`${'a'.repeat(60_000)}@idp.example`, `a@${'a-'.repeat(30_000)}!`, `${'a.'.repeat(30_000)}@x`]) {
      expect(() => checkProviderClaims('idp', { sub: 'abc', email })).toThrow();
    }
    checkProviderClaims('idp', { sub: 'abc', name: 'n'.repeat(60_000) });
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describeOAuth('provider claims held to the contract', (world) => {
  const db = () => world().app.database.db;
  const rowCounts = async () => ({
    users: Number((await db()('users').count({ n: '*' }).first())?.n ?? 0),
    identities: Number((await db()('user_identities').count({ n: '*' }).first())?.n ?? 0),
    tokens: Number((await db()('provider_tokens').count({ n: '*' }).first())?.n ?? 0),
  });
  const sessionOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((cookie) => cookie.name === 'agent_fleet_session')?.value;
  const lastFailure = () => [...world().app.logs.lines].reverse().find((line) => String(line.msg).startsWith('third-party sign-in'));

  afterEach(() => {
    world().idp.tamperTokenResponse = undefined;
  });

  it('when the provider issues a 60 KB e-mail claim, then the callback answers within a second: refused (invalid_claims), nothing stored', async () => {
    const login = newLogin('huge');
    const email = `${'a'.repeat(60_000)}@idp.example`;
    world().idp.accounts.set(login, { email, email_verified: true });
    const browser = world().browser();
    const start = await startSignIn(world(), browser, PROVIDERS.confidential);
    const callbackUrl = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login });
    const before = await rowCounts();

    const started = performance.now();
    const callback = await browser.get(callbackUrl);
    const elapsed = performance.now() - started;

    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(INVALID_CLAIMS);
    expect(elapsed).toBeLessThan(1000);
    expect(sessionOf(callback)).toBeUndefined();
    expect(await rowCounts()).toEqual(before);
    expect(lastFailure()).toMatchObject({ reason: 'invalid_claims', provider: 'idp', error: expect.stringContaining('longer than 320 characters') });
    // The log line names the rule, not the 60 KB value.
    expect(world().app.logs.text()).not.toContain('a'.repeat(400));
    const page = await world().app.anonymous.get('/login').query({ error: 'oauth_failed', reason: 'invalid_claims' });
    expect(page.text).toContain('The provider sent account details this service cannot accept');
  });

  it.each(REFUSED_EMAILS.slice(1).map((email) => [JSON.stringify(email.slice(0, 40)), email]))(
    'when the provider vouches for the address %s, which api.yaml refuses, then the sign-in is refused and nothing is stored',
    async (_label, email) => {
      const login = newLogin('odd');
      world().idp.accounts.set(login, { email, email_verified: true });
      const before = await rowCounts();
      const journey = await signIn(world(), { login });
      expect(journey.callback.headers.get('location')).toBe(INVALID_CLAIMS);
      expect(sessionOf(journey.callback)).toBeUndefined();
      expect(await rowCounts()).toEqual(before);
    },
  );

  it('when a linked person comes back with an address api.yaml refuses, then the sign-in is refused rather than the address dropped', async () => {
    const login = newLogin('changed');
    const first = await signIn(world(), { login });
    expect(first.callback.headers.get('location')).toBe('/');
    world().idp.accounts.set(login, { email: 'changed@localhost', email_verified: true });
    const again = await signIn(world(), { login });
    expect(again.callback.headers.get('location')).toBe(INVALID_CLAIMS);
    expect(sessionOf(again.callback)).toBeUndefined();
    const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
    expect(identity.email).toBe(`${login}@idp.example`);
  });

  it.each([
    ['256 characters', 's'.repeat(256)],
    ['60 KB', 's'.repeat(60_000)],
    ['a control character', 'person\u0007'],
    ['a line break', 'person\r\nX-Injected: 1'],
  ])('when the ID token\'s subject has %s, then the sign-in is refused (invalid_claims) and nothing is stored', async (_label, sub) => {
    const browser = world().browser();
    const start = await startSignIn(world(), browser, PROVIDERS.confidential);
    const callbackUrl = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login: newLogin('sub') });
    world().idp.tamperTokenResponse = async (body) => {
      body.id_token = await world().idp.resignIdToken(String(body.id_token), (claims) => ({ ...claims, sub }));
    };
    const before = await rowCounts();
    const started = performance.now();
    const callback = await browser.get(callbackUrl);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(callback.headers.get('location')).toBe(INVALID_CLAIMS);
    expect(await rowCounts()).toEqual(before);
    expect(lastFailure()).toMatchObject({ reason: 'invalid_claims', error: expect.stringContaining('subject') });
  });

  it('when the provider gives a 5,000-character name with control characters, then the user is created with its first 100 characters, and /api/v1/me and the admin list answer 200', async () => {
    const login = newLogin('long');
    world().idp.accounts.set(login, { name: `Very\u0000Long\u001b${'N'.repeat(5000)}` });
    const journey = await signIn(world(), { login });
    expect(journey.callback.headers.get('location')).toBe('/');
    const expected = `Very Long ${'N'.repeat(90)}`;
    const me = await world().app.anonymous.get('/api/v1/me').set('Cookie', `agent_fleet_session=${sessionOf(journey.callback)}`);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ name: expected, email: `${login}@idp.example` });
    const admin = await world().app.signUp({ role: 'admin' });
    const list = await admin.http.get('/api/v1/users').query({ 'filter[email][eq]': `${login}@idp.example` });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ name: expected })]);
  });

  it('when the provider gives a name of white space only, then the e-mail\'s local part stands in', async () => {
    const login = newLogin('blank');
    world().idp.accounts.set(login, { name: ' \t ' });
    const journey = await signIn(world(), { login });
    expect(journey.callback.headers.get('location')).toBe('/');
    const user = await db()('users').where({ email: `${login}@idp.example` }).first();
    expect(user.name).toBe(login);
  });
});
