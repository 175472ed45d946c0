import { createFlowCookieSealer } from '../../src/auth/oauth/flow-cookie';
import { TEST_API_KEY, type SignedInUser } from '../support/harness';
import { CookieJarClient, parseSetCookie } from '../support/cookie-jar-client';
import { authorizeAtProvider, describeOAuth, newLogin, PROVIDERS, signIn, TOKEN_ENCRYPTION_KEY } from '../support/oauth-harness';
import { assetPath } from '../support/browser-assets';

const KEY = Buffer.from(TOKEN_ENCRYPTION_KEY, 'base64');
const SESSION = 'agent_fleet_session';

describeOAuth('linking and unlinking provider accounts', (world) => {
  const db = () => world().app.database.db;
  const cookiesOf = (response: Response) => Object.fromEntries(response.headers.getSetCookie().map((header) => [parseSetCookie(header).name, parseSetCookie(header)]));
  const identitiesOf = (userId: string) => db()('user_identities').where({ user_id: userId }).orderBy('provider');
  const tokensOf = (userId: string) => db()('provider_tokens').where({ user_id: userId }).orderBy('provider');
  const lastFailure = () => [...world().app.logs.lines].reverse().find((line) => String(line.msg).startsWith('third-party sign-in'));

  /** A browser signed in to the service as `user` (its session cookie in the jar). */
  const browserOf = (user: SignedInUser): CookieJarClient => {
    const browser = world().browser();
    browser.jar.set({ name: SESSION, value: user.token, host: '127.0.0.1', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
    return browser;
  };
  const connectionUrl = (provider: string, returnTo?: string) => {
    const url = new URL(`/api/v1/me/connections/${provider}`, world().baseUrl);
    if (returnTo !== undefined) url.searchParams.set('returnTo', returnTo);
    return url;
  };
  /** What the home page's script does (same origin), or a form would. */
  const startLink = (browser: CookieJarClient, options: { provider?: string; returnTo?: string; headers?: Record<string, string> } = {}) =>
    browser.request(connectionUrl(options.provider ?? PROVIDERS.confidential, options.returnTo), 'POST', { Origin: world().baseUrl, ...options.headers });

  /** Start (303), the provider's login and consent as `login`, then the callback. */
  const linkJourney = async (browser: CookieJarClient, login: string, options: { provider?: string; returnTo?: string; beforeCallback?: () => unknown } = {}) => {
    const start = await startLink(browser, options);
    expect(start.status).toBe(303);
    const callbackUrl = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login });
    await options.beforeCallback?.();
    const callback = await browser.get(callbackUrl);
    return { start, callbackUrl, callback };
  };

  afterEach(() => {
    world().idp.tamperTokenResponse = undefined;
  });

  describe('POST /api/v1/me/connections/{provider}', () => {
    it('when a signed-in user links a provider, then 303 to the provider with state, PKCE and nonce, the user sealed in the check cookie, and the callback links the account without a new session', async () => {
      const owner = await world().app.signUp();
      const browser = browserOf(owner);
      const login = newLogin('linked');
      // Linking needs no verified e-mail: the person proved both accounts are theirs.
      world().idp.accounts.set(login, { email: `${login}@somewhere.example`, email_verified: false });

      const start = await startLink(browser, { returnTo: '/agents?status=idle' });
      expect(start.status).toBe(303);
      expect(start.headers.get('cache-control')).toBe('no-store');
      const authorizationUrl = new URL(start.headers.get('location') ?? '');
      expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${world().idp.issuer}/auth`);
      expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
        client_id: 'fleet-confidential',
        redirect_uri: `${world().baseUrl}/api/auth/oauth/idp/callback`,
        response_type: 'code',
        state: expect.stringMatching(/^[0-9a-f]{64}$/),
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
        nonce: expect.any(String),
      });
      const cookies = cookiesOf(start);
      expect(cookies.oauth_state?.attributes).toMatchObject({ httponly: true, secure: true, samesite: 'Lax', path: '/api/auth/oauth', 'max-age': '600' });
      const pending = await createFlowCookieSealer(KEY).open(cookies.oauth_flow?.value ?? '');
      expect(pending).toMatchObject({ provider: 'idp', linkUserId: owner.user.id, returnTo: '/agents?status=idle' });

      const callbackUrl = await authorizeAtProvider(browser, authorizationUrl, { login });
      const callback = await browser.get(callbackUrl);
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/agents?status=idle');
      expect(cookiesOf(callback)[SESSION]).toBeUndefined();
      expect(await identitiesOf(owner.user.id)).toEqual([expect.objectContaining({ provider: 'idp', subject: login, email: `${login}@somewhere.example` })]);
      expect(await tokensOf(owner.user.id)).toEqual([expect.objectContaining({ provider: 'idp' })]);
      expect(world().app.logs.lines.find((line) => line.msg === 'third-party account linked' && line.userId === owner.user.id)).toMatchObject({ outcome: 'linked' });

      const connections = await owner.http.get('/api/v1/me/connections');
      expect(connections.body.data).toEqual([expect.objectContaining({ provider: 'idp', email: `${login}@somewhere.example`, token_status: 'valid' })]);

      // From now on the provider signs the owner in, to the same account.
      const later = await signIn(world(), { login });
      expect(later.callback.headers.get('location')).toBe('/');
      const me = await world().app.anonymous.get('/api/v1/me').set('Cookie', `${SESSION}=${cookiesOf(later.callback)[SESSION]?.value}`);
      expect(me.body.data.id).toBe(owner.user.id);
    });

    it('when the owner of a squatted-looking address is refused (account_exists), then signing in with the password and linking is the way in', async () => {
      const owner = await world().app.signUp();
      const login = newLogin('owner');
      world().idp.accounts.set(login, { email: owner.user.email, email_verified: true });
      const refused = await signIn(world(), { login });
      expect(refused.callback.headers.get('location')).toBe('/login?error=oauth_failed&reason=account_exists');

      const { callback } = await linkJourney(browserOf(owner), login);
      expect(callback.headers.get('location')).toBe('/');
      const again = await signIn(world(), { login });
      expect(again.callback.headers.get('location')).toBe('/');
      const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      expect(identity.user_id).toBe(owner.user.id);
    });

    it('when a script asks with Accept: application/json (bearer token or session cookie), then 200 with the location to send the browser to, and the check cookies', async () => {
      const owner = await world().app.signUp();
      const ways: Array<[CookieJarClient, Record<string, string>]> = [
        [world().browser(), { Accept: 'application/json', Authorization: `Bearer ${owner.token}` }],
        [browserOf(owner), { Accept: 'application/json' }],
      ];
      for (const [browser, headers] of ways) {
        const res = await startLink(browser, { headers });
        expect(res.status).toBe(200);
        expect(res.headers.get('vary')).toContain('Accept');
        const body = (await res.json()) as { data: { location: string }; meta: { timestamp: string } };
        expect(body).toEqual({ data: { location: expect.stringContaining(`${world().idp.issuer}/auth?`) }, meta: { timestamp: expect.any(String) } });
        const pending = await createFlowCookieSealer(KEY).open(cookiesOf(res).oauth_flow?.value ?? '');
        expect(pending?.linkUserId).toBe(owner.user.id);
      }
    });

    it('when nobody, an API key, or an attacker\'s page (the session cookie with a foreign Origin) starts a link, then 401 or 403 and no check cookie', async () => {
      const victim = await world().app.signUp();
      const cases: Array<[number, string, CookieJarClient, Record<string, string>]> = [
        [401, 'UNAUTHORIZED', world().browser(), {}],
        [403, 'FORBIDDEN', world().browser(), { 'X-API-Key': TEST_API_KEY }],
        [403, 'FORBIDDEN', browserOf(victim), { Origin: 'https://attacker.example' }],
        [403, 'FORBIDDEN', browserOf(victim), { Origin: 'null' }],
      ];
      for (const [status, code, browser, headers] of cases) {
        const res = await browser.request(connectionUrl(PROVIDERS.confidential), 'POST', { Accept: 'application/json', ...headers });
        expect(res.status).toBe(status);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });

    it('when the provider is not configured, then 404; when returnTo leaves the origin or the provider is down, then to the home page with the reason and no cookie', async () => {
      const owner = await world().app.signUp();
      const browser = browserOf(owner);
      const missing = await startLink(browser, { provider: 'nowhere', headers: { Accept: 'application/json' } });
      expect(missing.status).toBe(404);
      for (const [options, reason] of [
        [{ returnTo: '/.//evil.example/' }, 'invalid_return_to'],
        [{ returnTo: 'https://evil.example/' }, 'invalid_return_to'],
        [{ provider: PROVIDERS.offline }, 'provider_unreachable'],
      ] as const) {
        const res = await startLink(browser, options);
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe(`/?link=failed&reason=${reason}`);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });
  });

  describe('the link callback', () => {
    it('when the provider account already belongs to another user, then nothing is linked (account_conflict)', async () => {
      const login = newLogin('taken');
      const first = await signIn(world(), { login });
      expect(first.callback.headers.get('location')).toBe('/');
      const holder = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      const other = await world().app.signUp();

      const { callback } = await linkJourney(browserOf(other), login);
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/?link=failed&reason=account_conflict');
      expect(await identitiesOf(other.user.id)).toEqual([]);
      expect(await tokensOf(other.user.id)).toEqual([]);
      expect((await db()('user_identities').where({ provider: 'idp', subject: login }).first()).user_id).toBe(holder.user_id);
      expect(lastFailure()).toMatchObject({ reason: 'account_conflict', stage: 'callback' });
    });

    it('when the user already has another account at this provider, then the second is not linked (already_linked); linking the same one again just renews its tokens', async () => {
      const owner = await world().app.signUp();
      // A fresh browser per journey: no single sign-on session at the provider from the last one.
      const login = newLogin('first');
      expect((await linkJourney(browserOf(owner), login)).callback.headers.get('location')).toBe('/');
      const second = await linkJourney(browserOf(owner), newLogin('second'));
      expect(second.callback.headers.get('location')).toBe('/?link=failed&reason=already_linked');
      expect(await identitiesOf(owner.user.id)).toEqual([expect.objectContaining({ subject: login })]);

      const same = await linkJourney(browserOf(owner), login);
      expect(same.callback.headers.get('location')).toBe('/');
      expect(await identitiesOf(owner.user.id)).toHaveLength(1);
      expect(Number((await tokensOf(owner.user.id))[0]?.version)).toBe(2);
    });

    it('when the browser is signed in as someone else (or no one) by the time the provider sends it back, then nothing is linked and the code is never exchanged', async () => {
      const starter = await world().app.signUp();
      const intruder = await world().app.signUp();
      for (const swap of [
        (browser: CookieJarClient) => browser.jar.set({ name: SESSION, value: intruder.token, host: '127.0.0.1', path: '/', httpOnly: true, secure: true }),
        (browser: CookieJarClient) => browser.jar.remove(SESSION),
        (browser: CookieJarClient) => browser.jar.set({ name: SESSION, value: 'forged.session.token', host: '127.0.0.1', path: '/', httpOnly: true, secure: true }),
      ]) {
        const browser = browserOf(starter);
        const exchanges = world().idp.tokenRequests.length;
        const { callback } = await linkJourney(browser, newLogin('swapped'), { beforeCallback: () => swap(browser) });
        expect(callback.headers.get('location')).toBe('/?link=failed&reason=link_session_mismatch');
        expect(world().idp.tokenRequests.length).toBe(exchanges);
      }
      // The same cookie, but its session ended (logged out elsewhere) while the browser was at the provider.
      const ended = await world().app.signUp();
      const browser = browserOf(ended);
      const { callback } = await linkJourney(browser, newLogin('ended'), {
        beforeCallback: () => world().app.database.db('sessions').where({ id: ended.sessionId }).update({ revoked_at: new Date().toISOString(), revoked_reason: 'logout' }),
      });
      expect(callback.headers.get('location')).toBe('/?link=failed&reason=link_session_mismatch');
      expect(await identitiesOf(ended.user.id)).toEqual([]);
      expect(await identitiesOf(starter.user.id)).toEqual([]);
      expect(await identitiesOf(intruder.user.id)).toEqual([]);
    });

    it('when an attacker sends the callback of his own link flow to a victim\'s browser, then the state check refuses it and nothing is linked to anyone', async () => {
      const attacker = await world().app.signUp();
      const victim = await world().app.signUp();
      const attackerBrowser = browserOf(attacker);
      const start = await startLink(attackerBrowser);
      const callbackUrl = await authorizeAtProvider(attackerBrowser, new URL(start.headers.get('location') ?? ''), { login: newLogin('attacker') });

      const callback = await browserOf(victim).get(callbackUrl);
      expect(callback.headers.get('location')).toBe('/login?error=oauth_failed');
      expect(lastFailure()).toMatchObject({ reason: 'invalid_state' });
      expect(await identitiesOf(victim.user.id)).toEqual([]);
      expect(await identitiesOf(attacker.user.id)).toEqual([]);
    });

    it('when the person cancels at the provider, then the home page is told, and nothing is linked', async () => {
      const owner = await world().app.signUp();
      const browser = browserOf(owner);
      const start = await startLink(browser);
      const callbackUrl = await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login: newLogin(), cancelAt: 'consent' });
      const callback = await browser.get(callbackUrl);
      expect(callback.headers.get('location')).toBe('/?link=cancelled');
      expect(await identitiesOf(owner.user.id)).toEqual([]);
    });
  });

  describe('DELETE /api/v1/me/connections/{provider}', () => {
    it('when a user with a password unlinks a provider, then 204, the link and its tokens are gone, and a second unlink is 404', async () => {
      const owner = await world().app.signUp();
      const login = newLogin('unlink');
      await linkJourney(browserOf(owner), login);
      expect(await tokensOf(owner.user.id)).toHaveLength(1);

      const res = await owner.http.delete('/api/v1/me/connections/idp');
      expect(res.status).toBe(204);
      expect(await identitiesOf(owner.user.id)).toEqual([]);
      expect(await tokensOf(owner.user.id)).toEqual([]);
      const again = await owner.http.delete('/api/v1/me/connections/idp');
      expect(again.status).toBe(404);
      expect(again.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'No connection to this provider' });

      // The provider account is free again: it no longer signs into the owner's account.
      world().idp.accounts.set(login, { email: `${login}@fresh.example` });
      const later = await signIn(world(), { login });
      const identity = await db()('user_identities').where({ provider: 'idp', subject: login }).first();
      expect(later.callback.headers.get('location')).toBe('/');
      expect(identity.user_id).not.toBe(owner.user.id);
    });

    it('when it is the only way to sign in (no password, no other provider), then 409 and the link stays; with a second provider, one can go', async () => {
      const login = newLogin('only');
      const journey = await signIn(world(), { login });
      const session = cookiesOf(journey.callback)[SESSION]?.value ?? '';
      const userId = (await db()('user_identities').where({ provider: 'idp', subject: login }).first()).user_id as string;
      const unlinkIdp = () => world().app.anonymous.delete('/api/v1/me/connections/idp').set('Authorization', `Bearer ${session}`);

      const refused = await unlinkIdp();
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('only way to sign in') });
      expect(await identitiesOf(userId)).toHaveLength(1);

      const browser = world().browser();
      browser.jar.set({ name: SESSION, value: session, host: '127.0.0.1', path: '/', httpOnly: true, secure: true });
      const linked = await linkJourney(browser, login, { provider: PROVIDERS.public });
      expect(linked.callback.headers.get('location')).toBe('/');
      expect((await unlinkIdp()).status).toBe(204);
      expect(await identitiesOf(userId)).toEqual([expect.objectContaining({ provider: PROVIDERS.public })]);
      const last = await world().app.anonymous.delete(`/api/v1/me/connections/${PROVIDERS.public}`).set('Authorization', `Bearer ${session}`);
      expect(last.status).toBe(409);
    });

    it('when two unlinks of the last two providers race, then exactly one succeeds and a way to sign in remains', async () => {
      const login = newLogin('race');
      const journey = await signIn(world(), { login });
      const session = cookiesOf(journey.callback)[SESSION]?.value ?? '';
      const browser = world().browser();
      browser.jar.set({ name: SESSION, value: session, host: '127.0.0.1', path: '/', httpOnly: true, secure: true });
      await linkJourney(browser, login, { provider: PROVIDERS.public });
      const userId = (await db()('user_identities').where({ provider: 'idp', subject: login }).first()).user_id as string;

      const statuses = await Promise.all(
        [PROVIDERS.confidential, PROVIDERS.public].map(async (provider) => {
          const res = await fetch(new URL(`/api/v1/me/connections/${provider}`, world().baseUrl), { method: 'DELETE', headers: { Authorization: `Bearer ${session}` } });
          return res.status;
        }),
      );
      expect(statuses.sort()).toEqual([204, 409]);
      expect(await identitiesOf(userId)).toHaveLength(1);
    });

    it('when an attacker\'s page, an API key or nobody tries to unlink, then 403 or 401 and the link stays', async () => {
      const owner = await world().app.signUp();
      await linkJourney(browserOf(owner), newLogin('kept'));
      const attempts: Array<[number, CookieJarClient, Record<string, string>]> = [
        [403, browserOf(owner), { Origin: 'https://attacker.example' }],
        [403, world().browser(), { 'X-API-Key': TEST_API_KEY }],
        [401, world().browser(), {}],
      ];
      for (const [status, browser, headers] of attempts) {
        const res = await browser.request(connectionUrl(PROVIDERS.confidential), 'DELETE', headers);
        expect(res.status).toBe(status);
      }
      expect(await identitiesOf(owner.user.id)).toHaveLength(1);
      const own = await browserOf(owner).request(connectionUrl(PROVIDERS.confidential), 'DELETE', { Origin: world().baseUrl });
      expect(own.status).toBe(204);
    });
  });

  describe('the home page', () => {
    const homeOf = async (browser: CookieJarClient, query = '') => (await browser.get(new URL(`/${query}`, world().baseUrl))).text();

    it('when a user with a password opens /, then each provider has a Link button, and a linked one an Unlink button', async () => {
      const owner = await world().app.signUp();
      const browser = browserOf(owner);
      const before = await homeOf(browser);
      expect(before).toContain('<button type="button" class="link-provider" data-provider="idp">Link Test IdP</button>');
      expect(before).toContain('<button type="button" class="link-provider" data-provider="idp-public">Link Test IdP (public client)</button>');
      const login = newLogin('home');
      await linkJourney(browser, login);
      const after = await homeOf(browser);
      expect(after).toContain(`<li><span>Test IdP: linked as ${login}@idp.example</span> <button type="button" class="unlink-provider" data-provider="idp">Unlink Test IdP</button></li>`);
      expect([...after.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([`<script src="${assetPath('console.js')}" defer>`]);
    });

    it('when the only way to sign in is one provider, then no Unlink button is offered', async () => {
      const journey = await signIn(world(), { login: newLogin('single') });
      const html = await (await journey.browser.get(new URL('/', world().baseUrl))).text();
      expect(html).not.toContain('unlink-provider');
      expect(html).toContain('Your only way to sign in is a linked provider, so it cannot be unlinked.');
    });

    it('when / is opened after a link flow, then it says what happened, in its own words only', async () => {
      const browser = browserOf(await world().app.signUp());
      expect(await homeOf(browser, '?link=failed&reason=account_conflict')).toContain(
        '<p class="problem" role="alert" id="link-message">That provider account is already linked to another user of this service: nothing was linked.</p>',
      );
      expect(await homeOf(browser, '?link=cancelled')).toContain('<p class="notice" role="status" id="link-message">Linking was cancelled: nothing was linked.</p>');
      const hostile = await homeOf(browser, `?link=failed&reason=${encodeURIComponent('<script>alert(1)</script>')}`);
      expect(hostile).toContain('Linking the provider did not work: nothing was linked. Please try again.');
      expect(hostile).not.toContain('alert(1)');
    });
  });
});
