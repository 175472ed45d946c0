import { randomBytes } from 'node:crypto';
import { calculatePKCECodeChallenge } from 'openid-client';
import { createFlowCookieSealer } from '../../src/auth/oauth/flow-cookie';
import { createTokenCipher } from '../../src/auth/oauth/token-cipher';
import { TEST_API_KEY } from '../support/harness';
import { parseSetCookie, type CookieJarClient } from '../support/cookie-jar-client';
import { assetPath } from '../support/browser-assets';
import {
  authorizeAtProvider,
  CLIENT_SECRET,
  describeOAuth,
  newLogin,
  PROVIDERS,
  signIn,
  startSignIn,
  TOKEN_ENCRYPTION_KEY,
  type OAuthWorld,
} from '../support/oauth-harness';

const KEY = Buffer.from(TOKEN_ENCRYPTION_KEY, 'base64');
const FAILED = '/login?error=oauth_failed';
const CANCELLED = '/login?cancelled=true';

/** Every value that must never reach a log line, collected as the tests see them. */
const secrets = new Set<string>([CLIENT_SECRET]);

describeOAuth('third-party sign-in', (world) => {
  const db = () => world().app.database.db;
  const emailOf = (login: string) => `${login}@idp.example`;

  const cookiesOf = (response: Response) => Object.fromEntries(response.headers.getSetCookie().map((header) => [parseSetCookie(header).name, parseSetCookie(header)]));

  const counter = async (name: string, labels: Record<string, string>): Promise<number> => {
    const text = await world().app.scrapeMetrics();
    const selector = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
    const line = text.split('\n').find((row) => row.startsWith(`${name}{`) && selector.every((part) => row.includes(part)));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  const rowCounts = async () => ({
    users: Number((await db()('users').count({ n: '*' }).first())?.n ?? 0),
    identities: Number((await db()('user_identities').count({ n: '*' }).first())?.n ?? 0),
    tokens: Number((await db()('provider_tokens').count({ n: '*' }).first())?.n ?? 0),
  });

  /** The provider's real token response, as the service received it (observed, not changed). */
  const watchTokenResponses = () => {
    const seen: Array<Record<string, unknown>> = [];
    world().idp.tamperTokenResponse = (body) => {
      seen.push({ ...body });
      for (const key of ['access_token', 'refresh_token', 'id_token']) if (typeof body[key] === 'string') secrets.add(body[key] as string);
    };
    return seen;
  };

  const remember = (journey: { start: Response; callbackUrl: URL }) => {
    const code = journey.callbackUrl.searchParams.get('code');
    const state = journey.callbackUrl.searchParams.get('state');
    if (code) secrets.add(code);
    if (state) secrets.add(state);
    const flow = cookiesOf(journey.start).oauth_flow?.value;
    if (flow) secrets.add(flow);
  };

  /** A failed callback: to the login page, check cookies cleared, no session, nothing stored. */
  const expectRefused = async (response: Response, location: string, before: Awaited<ReturnType<typeof rowCounts>>) => {
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(location);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const cookies = cookiesOf(response);
    for (const name of ['oauth_state', 'oauth_flow']) {
      expect(cookies[name]?.value).toBe('');
      expect(cookies[name]?.attributes).toMatchObject({ path: '/api/auth/oauth', expires: 'Thu, 01 Jan 1970 00:00:00 GMT' });
    }
    expect(cookies.agent_fleet_session).toBeUndefined();
    expect(await rowCounts()).toEqual(before);
  };

  /** Start and provider login, stopping before the callback (whose URL is returned). */
  const authorize = async (provider: string = PROVIDERS.confidential, browser?: CookieJarClient) => {
    const client = browser ?? world().browser();
    const start = await startSignIn(world(), client, provider);
    const login = newLogin();
    const callbackUrl = await authorizeAtProvider(client, new URL(start.headers.get('location') ?? ''), { login });
    remember({ start, callbackUrl });
    return { browser: client, start, callbackUrl, login };
  };

  /** The newest sign-in failure log line. */
  const lastFailure = () => [...world().app.logs.lines].reverse().find((line) => String(line.msg).startsWith('third-party sign-in'));

  afterEach(() => {
    world().idp.tamperTokenResponse = undefined;
  });

  describe('the journey', () => {
    it('when the sign-in starts, then 302 to the authorization endpoint with every parameter, and the check cookies are HttpOnly, Secure, SameSite=Lax, 10 minutes', async () => {
      const browser = world().browser();
      const start = await startSignIn(world(), browser, PROVIDERS.confidential);
      expect(start.status).toBe(302);
      expect(start.headers.get('cache-control')).toBe('no-store');
      const location = new URL(start.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(`${world().idp.issuer}/auth`);
      const params = Object.fromEntries(location.searchParams);
      expect(params).toEqual({
        client_id: 'fleet-confidential',
        redirect_uri: `${world().baseUrl}/api/auth/oauth/idp/callback`,
        response_type: 'code',
        scope: 'openid email profile',
        state: expect.stringMatching(/^[0-9a-f]{64}$/),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
        nonce: expect.any(String),
      });

      const cookies = cookiesOf(start);
      const expected = { httponly: true, secure: true, samesite: 'Lax', path: '/api/auth/oauth', 'max-age': '600' };
      expect(cookies.oauth_state?.value).toBe(params.state);
      expect(cookies.oauth_state?.attributes).toMatchObject(expected);
      expect(cookies.oauth_flow?.attributes).toMatchObject(expected);

      // The verifier and nonce travel encrypted: a JWE whose payload is not readable without the key.
      const sealed = cookies.oauth_flow?.value ?? '';
      expect(sealed.split('.')).toHaveLength(5);
      expect(JSON.parse(Buffer.from(sealed.split('.')[0] ?? '', 'base64url').toString())).toEqual({ alg: 'dir', enc: 'A256GCM' });
      const pending = await createFlowCookieSealer(KEY).open(sealed);
      expect(pending).toEqual({ provider: 'idp', state: params.state, codeVerifier: expect.stringMatching(/^[A-Za-z0-9]{64}$/), nonce: params.nonce, returnTo: '/' });
      expect(sealed).not.toContain(pending?.codeVerifier);
      expect(await calculatePKCECodeChallenge(pending?.codeVerifier ?? '')).toBe(params.code_challenge);
      secrets.add(pending?.codeVerifier ?? '');
      secrets.add(pending?.nonce ?? '');
    });

    it('when a person signs in at the provider, then the code is exchanged on the backend, the user is created and the session cookie set', async () => {
      const seen = watchTokenResponses();
      const requestsBefore = world().idp.tokenRequests.length;
      const login = newLogin();
      const journey = await signIn(world(), { login });
      remember(journey);

      expect(journey.callback.status).toBe(302);
      expect(journey.callback.headers.get('location')).toBe('/');
      expect(journey.callback.headers.get('cache-control')).toBe('no-store');
      const cookies = cookiesOf(journey.callback);
      expect(cookies.agent_fleet_session?.attributes).toMatchObject({ httponly: true, secure: true, samesite: 'Lax', path: '/', 'max-age': '1800' });
      expect(cookies.oauth_state?.attributes.expires).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
      expect(cookies.oauth_flow?.attributes.expires).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
      secrets.add(cookies.agent_fleet_session?.value ?? '');

      // One code exchange, by the service, with the client secret and the PKCE verifier.
      const exchange = world().idp.tokenRequests.slice(requestsBefore);
      expect(exchange).toEqual([
        { grantType: 'authorization_code', clientId: 'fleet-confidential', status: 200, parameters: ['client_id', 'client_secret', 'code', 'code_verifier', 'grant_type', 'redirect_uri'] },
      ]);

      const me = await world().app.anonymous.get('/api/v1/me').set('Cookie', `agent_fleet_session=${cookies.agent_fleet_session?.value}`);
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ email: emailOf(login), name: `Person ${login}`, role: 'user' });

      const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      expect(identity).toMatchObject({ user_id: me.body.data.id, email: emailOf(login) });
      const stored = await db()('provider_tokens').where({ user_id: me.body.data.id, provider: 'idp' }).first();
      const response = seen[0] ?? {};
      const cipher = createTokenCipher(KEY);
      expect(stored.access_token).not.toContain(response.access_token);
      expect(stored.refresh_token).not.toContain(response.refresh_token);
      expect(cipher.open(stored.access_token, `${me.body.data.id}:idp:access`)).toBe(response.access_token);
      expect(cipher.open(stored.refresh_token, `${me.body.data.id}:idp:refresh`)).toBe(response.refresh_token);
      // Bound to its row: the same ciphertext does not open as another user's token.
      expect(() => cipher.open(stored.access_token, `${world().app.user.user.id}:idp:access`)).toThrow();
      const expiresAt = Date.parse(new Date(stored.expires_at).toISOString());
      expect(Math.abs(expiresAt - (Date.now() + Number(response.expires_in) * 1000))).toBeLessThan(5000);
    });

    it('when the same person signs in again, then it is the same user and the stored tokens are replaced', async () => {
      const login = newLogin();
      const first = await signIn(world(), { login });
      const before = await rowCounts();
      const second = await signIn(world(), { login });
      remember(first);
      remember(second);
      expect(second.callback.headers.get('location')).toBe('/');
      expect(await rowCounts()).toEqual(before);
      const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      const tokens = await db()('provider_tokens').where({ user_id: identity.user_id, provider: 'idp' }).first();
      expect(Number(tokens.version)).toBe(2);
    });

    it('when a public client (explicit endpoints) signs in, then no client secret is sent and PKCE alone authenticates the exchange', async () => {
      const requestsBefore = world().idp.tokenRequests.length;
      const journey = await signIn(world(), { provider: PROVIDERS.public });
      remember(journey);
      expect(journey.authorizationUrl.searchParams.get('client_id')).toBe('fleet-public');
      expect(journey.authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(journey.callback.headers.get('location')).toBe('/');
      expect(cookiesOf(journey.callback).agent_fleet_session?.value).toEqual(expect.any(String));
      expect(world().idp.tokenRequests.slice(requestsBefore)).toEqual([
        { grantType: 'authorization_code', clientId: 'fleet-public', status: 200, parameters: ['client_id', 'code', 'code_verifier', 'grant_type', 'redirect_uri'] },
      ]);
    });

    it('when the sign-in started with a returnTo path, then the callback lands there', async () => {
      const journey = await signIn(world(), { returnTo: '/api/v1/me?fields=name#top' });
      remember(journey);
      expect(journey.callback.status).toBe(302);
      expect(journey.callback.headers.get('location')).toBe('/api/v1/me?fields=name#top');
    });

    it('when the session cookie from the callback is used, then the home page shows who is signed in', async () => {
      const login = newLogin();
      const journey = await signIn(world(), { login });
      remember(journey);
      const home = await journey.browser.get(new URL('/', world().baseUrl));
      expect(home.status).toBe(200);
      expect(await home.text()).toContain(emailOf(login));
    });
  });

  describe('an existing local account with the provider\'s e-mail (account pre-hijacking)', () => {
    /** The attacker's move: a real sign-up, with the victim's address and the attacker's password (the service verifies no e-mail). */
    const squat = async (email: string) => {
      const password = `attacker-${randomBytes(8).toString('hex')}`;
      const res = await fetch(new URL('/api/v1/users', world().baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Not The Victim', email, password }),
      });
      expect(res.status).toBe(201);
      return { id: ((await res.json()) as { data: { id: string } }).data.id, password };
    };

    it('when someone signed up with the victim\'s address and the victim signs in with a provider that verified it, then the sign-in is refused (account_exists) and nothing is linked into the squatted account', async () => {
      const login = newLogin('victim');
      const victimEmail = `${login}@victim.example`;
      const attacker = await squat(victimEmail.toUpperCase());
      world().idp.accounts.set(login, { email: victimEmail, email_verified: true, name: 'The Victim' });
      const before = await rowCounts();

      const journey = await signIn(world(), { login });
      remember(journey);
      await expectRefused(journey.callback, `${FAILED}&reason=account_exists`, before);
      expect(await db()('user_identities').where({ user_id: attacker.id })).toEqual([]);
      expect(await db()('provider_tokens').where({ user_id: attacker.id })).toEqual([]);
      expect(lastFailure()).toMatchObject({ reason: 'account_exists', provider: 'idp', stage: 'callback', error: expect.stringContaining('never linked by e-mail') });

      // The attacker's password opens an account that has no provider account in it.
      const login2 = await fetch(new URL('/api/auth/login', world().baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: victimEmail, password: attacker.password }),
      });
      expect(login2.status).toBe(200);
      const token = ((await login2.json()) as { data: { access_token: string } }).data.access_token;
      const connections = await world().app.anonymous.get('/api/v1/me/connections').set('Authorization', `Bearer ${token}`);
      expect(connections.body.data).toEqual([]);

      const page = await world().app.anonymous.get('/login').query({ error: 'oauth_failed', reason: 'account_exists' });
      expect(page.text).toContain(
        '<p class="problem" role="alert" id="failed-message">An account with this e-mail address already exists here. Sign in with your e-mail and password first, then link the provider from your home page.</p>',
      );
    });

    it('when the provider does not say the address is verified, then no account is created from it (email_not_verified), whether or not a local account has it', async () => {
      const local = await world().app.signUp();
      for (const email of [local.user.email, `${newLogin('nobody')}@idp.example`]) {
        const login = newLogin('unverified');
        world().idp.accounts.set(login, { email, email_verified: false });
        const before = await rowCounts();
        const journey = await signIn(world(), { login });
        remember(journey);
        await expectRefused(journey.callback, `${FAILED}&reason=email_not_verified`, before);
        expect(await db()('users').where({ email }).whereNot({ id: local.user.id })).toEqual([]);
        expect(lastFailure()).toMatchObject({ reason: 'email_not_verified', provider: 'idp', error: expect.stringContaining('not say the e-mail address is verified') });
      }
      expect(await db()('user_identities').where({ user_id: local.user.id })).toEqual([]);
    });

    it('when a person already linked comes back with an unverified or changed address, then they are still found by (provider, subject)', async () => {
      const login = newLogin('returning');
      const first = await signIn(world(), { login });
      remember(first);
      world().idp.accounts.set(login, { email: `${login}@elsewhere.example`, email_verified: false });
      const again = await signIn(world(), { login });
      remember(again);
      expect(again.callback.headers.get('location')).toBe('/');
      const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      expect(identity.email).toBe(`${login}@elsewhere.example`);
      const user = await db()('users').where({ id: identity.user_id }).first();
      expect(user.email).toBe(emailOf(login));
    });

    it('when the provider gives no e-mail at all, then the first sign-in is refused (missing_email)', async () => {
      const { browser, callbackUrl } = await authorize();
      world().idp.tamperTokenResponse = async (body) => {
        body.id_token = await world().idp.resignIdToken(String(body.id_token), ({ email: _email, email_verified: _verified, ...claims }) => claims);
      };
      const before = await rowCounts();
      await expectRefused(await browser.get(callbackUrl), `${FAILED}&reason=missing_email`, before);
    });
  });

  describe('failures', () => {
    it('when the person cancels at the provider, then /login?cancelled=true, the check cookies are cleared and nothing is created', async () => {
      for (const cancelAt of ['login', 'consent'] as const) {
        const before = await rowCounts();
        const counted = await counter('auth_callback_failures_total', { provider: 'idp', reason: 'access_denied' });
        const browser = world().browser();
        const start = await startSignIn(world(), browser, PROVIDERS.confidential);
        const callbackUrl = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login: newLogin(), cancelAt });
        expect(callbackUrl.searchParams.get('error')).toBe('access_denied');
        await expectRefused(await browser.get(callbackUrl), CANCELLED, before);
        expect(await counter('auth_callback_failures_total', { provider: 'idp', reason: 'access_denied' })).toBe(counted + 1);
      }
    });

    const stateCases: Array<[string, (url: URL, browser: CookieJarClient) => URL]> = [
      ['no state parameter', (url) => withParams(url, { state: null })],
      ['a different state', (url) => withParams(url, { state: 'a'.repeat(64) })],
      ['no oauth_state cookie', (url, browser) => (browser.jar.remove('oauth_state'), url)],
      ['no encrypted check cookie', (url, browser) => (browser.jar.remove('oauth_flow'), url)],
      ['a tampered check cookie', (url, browser) => (tamperCookie(browser, 'oauth_flow'), url)],
    ];
    it.each(stateCases)('when the callback has %s, then it is refused before the code is exchanged and counted as a state failure', async (_label, change) => {
      const { browser, callbackUrl } = await authorize();
      const before = await rowCounts();
      const requests = world().idp.tokenRequests.length;
      const stateFailures = await counter('auth_state_validation_failures_total', { provider: 'idp' });
      await expectRefused(await browser.get(change(callbackUrl, browser)), FAILED, before);
      expect(world().idp.tokenRequests.length).toBe(requests);
      expect(await counter('auth_state_validation_failures_total', { provider: 'idp' })).toBe(stateFailures + 1);
      expect(await counter('auth_callback_failures_total', { provider: 'idp', reason: 'invalid_state' })).toBeGreaterThan(0);
    });

    it('when the state comes from a sign-in with another provider, then the callback refuses it before any exchange', async () => {
      const { browser, callbackUrl } = await authorize(PROVIDERS.public);
      const before = await rowCounts();
      const requests = world().idp.tokenRequests.length;
      const elsewhere = new URL(`/api/auth/oauth/${PROVIDERS.confidential}/callback${callbackUrl.search}`, world().baseUrl);
      await expectRefused(await browser.get(elsewhere), FAILED, before);
      expect(world().idp.tokenRequests.length).toBe(requests);
      expect(world().app.logs.lines.some((line) => line.reason === 'invalid_state' && String(line.error).includes('provider "idp-public"'))).toBe(true);
    });

    it('when the check cookie is older than 10 minutes, then the state is refused', async () => {
      const { browser, callbackUrl, start } = await authorize();
      const pending = await createFlowCookieSealer(KEY).open(cookiesOf(start).oauth_flow?.value ?? '');
      const stale = await createFlowCookieSealer(KEY, () => Date.now() - 11 * 60_000).seal(pending!);
      replaceCookie(browser, 'oauth_flow', stale);
      const before = await rowCounts();
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
    });

    it('when a code is used a second time, then the provider refuses it and nothing more is created', async () => {
      const first = await signIn(world());
      remember(first);
      expect(first.callback.headers.get('location')).toBe('/');
      const replay = world().browser();
      for (const name of ['oauth_state', 'oauth_flow']) replaceCookie(replay, name, cookiesOf(first.start)[name]?.value ?? '');
      const before = await rowCounts();
      const tokensBefore = await db()('provider_tokens').select('user_id', 'version', 'access_token').orderBy('user_id');
      await expectRefused(await replay.get(first.callbackUrl), FAILED, before);
      expect(await db()('provider_tokens').select('user_id', 'version', 'access_token').orderBy('user_id')).toEqual(tokensBefore);
      expect(world().idp.grantErrors.at(-1)).toMatch(/invalid_grant/);
      expect(lastFailure()).toMatchObject({ reason: 'invalid_grant', provider: 'idp' });
    });

    it('when the code has expired at the provider, then the exchange fails and nothing is created', async () => {
      const { browser, callbackUrl } = await authorize();
      world().idp.expireAuthorizationCodes();
      const before = await rowCounts();
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
      expect(world().idp.grantErrors.at(-1)).toMatch(/invalid_grant.*(expired|invalid)/);
    });

    it('when the code verifier does not match the challenge, then the provider refuses the exchange', async () => {
      const { browser, callbackUrl, start } = await authorize();
      const pending = await createFlowCookieSealer(KEY).open(cookiesOf(start).oauth_flow?.value ?? '');
      replaceCookie(browser, 'oauth_flow', await createFlowCookieSealer(KEY).seal({ ...pending!, codeVerifier: 'x'.repeat(64) }));
      const before = await rowCounts();
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
      expect(world().idp.grantErrors.at(-1)).toMatch(/invalid_grant.*code_verifier does not match code_challenge/);
    });

    const idTokenCases: Array<[string, (idp: OAuthWorld['idp'], idToken: string) => Promise<string>]> = [
      ['a nonce of another sign-in', (idp, token) => idp.resignIdToken(token, (claims) => ({ ...claims, nonce: 'another-nonce' }))],
      ['a signature by a key not in the JWKS', (idp, token) => idp.resignIdToken(token, (claims) => claims, 'foreign')],
      ['another audience', (idp, token) => idp.resignIdToken(token, (claims) => ({ ...claims, aud: 'someone-else' }))],
      ['another issuer', (idp, token) => idp.resignIdToken(token, (claims) => ({ ...claims, iss: 'https://evil.example' }))],
      ['an expiry in the past', (idp, token) => idp.resignIdToken(token, (claims) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }))],
    ];
    it.each(idTokenCases)('when the ID token has %s, then the sign-in fails, nothing is created and the invalid response is counted', async (_label, forge) => {
      const { browser, callbackUrl } = await authorize();
      world().idp.tamperTokenResponse = async (body) => {
        body.id_token = await forge(world().idp, String(body.id_token));
      };
      const before = await rowCounts();
      const invalid = await counter('auth_invalid_provider_responses_total', { provider: 'idp' });
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
      expect(await counter('auth_invalid_provider_responses_total', { provider: 'idp' })).toBe(invalid + 1);
      expect(lastFailure()).toMatchObject({ reason: 'invalid_id_token', provider: 'idp' });
    });

    it('when the provider answers the token request with garbage, then the sign-in fails and the invalid response is counted', async () => {
      const { browser, callbackUrl } = await authorize();
      world().idp.tamperTokenResponse = (_body, ctx) => {
        ctx.type = 'text/html';
        ctx.body = '<html><body>Service temporarily unavailable</body></html>';
      };
      const before = await rowCounts();
      const invalid = await counter('auth_invalid_provider_responses_total', { provider: 'idp' });
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
      expect(await counter('auth_invalid_provider_responses_total', { provider: 'idp' })).toBe(invalid + 1);
      expect(lastFailure()).toMatchObject({ reason: 'invalid_response', provider: 'idp' });
    });

    it('when the client secret is wrong, then the provider refuses the client and the sign-in fails', async () => {
      const { browser, callbackUrl } = await authorize(PROVIDERS.wrongSecret);
      const before = await rowCounts();
      await expectRefused(await browser.get(callbackUrl), FAILED, before);
      expect(lastFailure()).toMatchObject({ reason: 'invalid_client', provider: PROVIDERS.wrongSecret });
    });

    it('when the provider is down at the callback, then the sign-in fails and nothing is created', async () => {
      const { browser, callbackUrl } = await authorize();
      const before = await rowCounts();
      await world().idp.goDown();
      try {
        await expectRefused(await browser.get(callbackUrl), FAILED, before);
      } finally {
        await world().idp.comeBack();
      }
      expect(lastFailure()).toMatchObject({ reason: 'provider_unreachable', provider: 'idp', error: expect.stringContaining('ECONNREFUSED') });
    });

    it('when the provider cannot be reached at the start, then /login?error=oauth_failed and no check cookie', async () => {
      const start = await startSignIn(world(), world().browser(), PROVIDERS.offline);
      expect(start.status).toBe(302);
      expect(start.headers.get('location')).toBe(FAILED);
      expect(start.headers.getSetCookie()).toEqual([]);
      expect(lastFailure()).toMatchObject({ reason: 'provider_unreachable', provider: PROVIDERS.offline, stage: 'start' });
    });

    it('when the provider reports another error, then /login?error=oauth_failed', async () => {
      const browser = world().browser();
      const start = await startSignIn(world(), browser, PROVIDERS.confidential);
      const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
      const callback = new URL(`/api/auth/oauth/idp/callback?error=temporarily_unavailable&error_description=maintenance&state=${state}`, world().baseUrl);
      await expectRefused(await browser.get(callback), FAILED, await rowCounts());
      expect(lastFailure()).toMatchObject({ reason: 'provider_error', error: expect.stringContaining('temporarily_unavailable: maintenance') });
    });

    it('when storing the tokens fails after the user was written, then the whole sign-in is rolled back', async () => {
      const { browser, callbackUrl, login } = await authorize();
      const before = await rowCounts();
      await db().schema.renameTable('provider_tokens', 'provider_tokens_away');
      try {
        const response = await browser.get(callbackUrl);
        await db().schema.renameTable('provider_tokens_away', 'provider_tokens');
        await expectRefused(response, FAILED, before);
      } finally {
        if (await db().schema.hasTable('provider_tokens_away')) await db().schema.renameTable('provider_tokens_away', 'provider_tokens');
      }
      expect(await db()('users').where({ email: emailOf(login) }).first()).toBeUndefined();
      expect(lastFailure()).toMatchObject({ reason: 'internal_error', level: 'error' });
    });

    it.each(['https://evil.example/', '//evil.example/path', '/\\evil.example', '/.//evil.example/', '/%2e//evil.example', 'javascript:alert(1)', `/${'a'.repeat(2048)}`])(
      'when returnTo is %p (an open redirect), then the start refuses it: no provider, no check cookie, nothing created',
      async (returnTo) => {
        const before = await rowCounts();
        const start = await startSignIn(world(), world().browser(), PROVIDERS.confidential, returnTo);
        expect(start.status).toBe(302);
        expect(start.headers.get('location')).toBe(FAILED);
        expect(start.headers.getSetCookie()).toEqual([]);
        expect(await rowCounts()).toEqual(before);
        expect(lastFailure()).toMatchObject({ reason: 'invalid_return_to', stage: 'start' });
      },
    );

    it('when the provider is not configured, then the start and the callback answer 404 in the /api envelope', async () => {
      const start = await world().app.anonymous.get('/api/auth/oauth/nowhere').set('X-Request-ID', 'unknown-provider');
      expect(start.status).toBe(404);
      expect(start.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No such sign-in provider', requestId: 'unknown-provider' } });
      const callback = await world().app.anonymous.get('/api/auth/oauth/nowhere/callback?code=x&state=y');
      expect(callback.status).toBe(404);
      expect(String(callback.headers['set-cookie'])).toContain('oauth_state=; Path=/api/auth/oauth; Expires=Thu, 01 Jan 1970');
    });

    it('when a failure is logged, then the line has the error text, the client IP and the provider', async () => {
      const { browser, callbackUrl } = await authorize();
      await browser.get(withParams(callbackUrl, { state: 'b'.repeat(64) }));
      expect(lastFailure()).toEqual({
        level: 'warn',
        time: expect.any(String),
        reqId: expect.any(String),
        provider: 'idp',
        stage: 'callback',
        reason: 'invalid_state',
        clientIp: expect.stringMatching(/127\.0\.0\.1$/),
        error: 'The callback state differs from the oauth_state cookie',
        msg: 'third-party sign-in failed',
      });
    });
  });

  describe('GET /api/v1/me/connections', () => {
    it('when a signed-in user lists connections, then each linked provider shows its token expiry and refresh state, never a token', async () => {
      const seen = watchTokenResponses();
      const login = newLogin();
      const journey = await signIn(world(), { login });
      remember(journey);
      const session = cookiesOf(journey.callback).agent_fleet_session?.value;
      const res = await world().app.anonymous.get('/api/v1/me/connections').set('Cookie', `agent_fleet_session=${session}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.body).toEqual({
        data: [
          {
            provider: 'idp',
            name: 'Test IdP',
            email: emailOf(login),
            linked_at: expect.any(String),
            token_status: 'valid',
            expires_at: expect.any(String),
            has_refresh_token: true,
            refreshed_at: null,
            refresh_failed_at: null,
          },
        ],
        meta: { timestamp: expect.any(String) },
      });
      for (const value of Object.values(seen[0] ?? {})) if (typeof value === 'string' && value.length > 20) expect(res.text).not.toContain(value);
    });

    it('when a user with no linked provider lists connections, then the list is empty', async () => {
      const res = await world().app.http.get('/api/v1/me/connections');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });

    it('when an API key or nobody asks, then 403 or 401 in the /api envelope', async () => {
      const service = await world().app.anonymous.get('/api/v1/me/connections').set('X-API-Key', TEST_API_KEY);
      expect(service.status).toBe(403);
      expect(service.body.error.code).toBe('FORBIDDEN');
      const anonymous = await world().app.anonymous.get('/api/v1/me/connections');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    });
  });

  describe('the /login and home pages', () => {
    it('when /login is opened, then it is HTML with one button per provider, the password form and only external scripts', async () => {
      const res = await world().app.anonymous.get('/login');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['cache-control']).toBe('no-store');
      const links = [...res.text.matchAll(/<a class="button provider" href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, label]) => [href, label]);
      expect(links).toEqual([
        ['/api/auth/oauth/idp', 'Sign in with Test IdP'],
        ['/api/auth/oauth/idp-public', 'Sign in with Test IdP (public client)'],
        ['/api/auth/oauth/idp-offline', 'Sign in with Offline IdP'],
        ['/api/auth/oauth/idp-wrong-secret', 'Sign in with Rotated IdP'],
      ]);
      expect(res.text).toContain('<form id="password-form" action="/api/auth/login" method="post" data-return-to="/">');
      expect([...res.text.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([`<script src="${assetPath('login.js')}" defer>`]);
      expect(res.text).not.toMatch(/ on[a-z]+=|style=/);
      expect(res.text).not.toContain('cancelled-message');
      expect(res.text).not.toContain('failed-message');
      const script = await world().app.anonymous.get(assetPath('login.js'));
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(script.text).toContain('/api/auth/login');
    });

    it('when /login is opened after a cancel or a failure, then it says so', async () => {
      const cancelled = await world().app.anonymous.get('/login?cancelled=true');
      expect(cancelled.text).toContain('<p class="notice" role="status" id="cancelled-message">Sign-in was cancelled.');
      const failed = await world().app.anonymous.get('/login?error=oauth_failed');
      expect(failed.text).toContain('<p class="problem" role="alert" id="failed-message">Signing in with the provider did not work.');
    });

    it('when /login has a returnTo, then a safe path is carried to the buttons and the form, and an unsafe one is dropped', async () => {
      const safe = await world().app.anonymous.get('/login').query({ returnTo: '/agents?status=idle' });
      expect(safe.text).toContain('href="/api/auth/oauth/idp?returnTo=%2Fagents%3Fstatus%3Didle"');
      expect(safe.text).toContain('data-return-to="/agents?status=idle"');
      const unsafe = await world().app.anonymous.get('/login').query({ returnTo: '//evil.example/"><script>' });
      expect(unsafe.text).toContain('href="/api/auth/oauth/idp"');
      expect(unsafe.text).not.toContain('evil.example');
    });

    it('when / is opened without a session, then 302 to /login', async () => {
      const res = await world().app.anonymous.get('/');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/login');
      const forged = await world().app.anonymous.get('/').set('Cookie', 'agent_fleet_session=forged.token.value');
      expect(forged.headers.location).toBe('/login');
    });

    it('when the provider gives a name with HTML in it, then the home page shows it as text', async () => {
      const login = newLogin('markup');
      world().idp.accounts.set(login, { name: '<img src=x onerror=alert(1)> & "friends"' });
      const journey = await signIn(world(), { login });
      remember(journey);
      const home = await journey.browser.get(new URL('/', world().baseUrl));
      const html = await home.text();
      expect(html).toContain('Signed in as <strong>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;friends&quot;</strong>');
      expect(html).not.toContain('<img');
      expect(html).toContain('<button type="button" id="sign-out">Sign out</button>');
    });

    it('when the pages are served, then their metrics carry fixed route labels', async () => {
      await world().app.anonymous.get('/login');
      await world().app.anonymous.get('/');
      const metrics = await world().app.scrapeMetrics();
      expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/login",status="200"\} \d+/);
      expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/",status="302"\} \d+/);
    });
  });

  it('then no token, code, verifier, state, check cookie or client secret ever appears in the logs', () => {
    const text = world().app.logs.text();
    expect(secrets.size).toBeGreaterThan(10);
    for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
  });
});

function withParams(url: URL, changes: Record<string, string | null>): URL {
  const next = new URL(url);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.searchParams.delete(name);
    else next.searchParams.set(name, value);
  }
  return next;
}

function replaceCookie(browser: CookieJarClient, name: string, value: string): void {
  browser.jar.set({ name, value, host: '127.0.0.1', path: '/api/auth/oauth', httpOnly: true, secure: true, sameSite: 'Lax' });
}

function tamperCookie(browser: CookieJarClient, name: string): void {
  const value = browser.jar.get(name)?.value ?? '';
  const flipped = value.slice(0, -3) + (value.at(-3) === 'A' ? 'B' : 'A') + value.slice(-2);
  replaceCookie(browser, name, flipped);
}
