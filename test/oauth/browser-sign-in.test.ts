import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../support/browser';
import { newLogin, startOAuthWorld, type OAuthWorld } from '../support/oauth-harness';

type World = OAuthWorld & { close(): Promise<void> };

/** What the service's own pages did that they must not do under its CSP. */
interface PageProblems {
  cspViolations: string[];
  pageErrors: string[];
}

describeInBrowser('third-party sign-in in Chromium [sqlite]', () => {
  let world: World;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    [world, browser] = await Promise.all([startOAuthWorld('sqlite'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  beforeEach(async () => {
    // A fresh profile per test: no cookies at the service or the provider (no single sign-on).
    context = await browser.newContext();
    // The provider's development pages import a web font; there is no network here.
    await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
    problems = { cspViolations: [], pageErrors: [] };
    await context.exposeBinding('reportCspViolation', (_source, violation: string) => {
      problems.cspViolations.push(violation);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(`${event.effectiveDirective} blocked ${event.blockedURI}`);
      });
    });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  });
  afterEach(async () => {
    await context?.close();
  });

  const cookieNamed = async (name: string) => (await context.cookies(world.baseUrl)).find((cookie) => cookie.name === name);

  it('when a person clicks the provider button on /login and signs in there, then they land on / signed in, with the session cookie out of the page’s reach', async () => {
    const login = newLogin('browser');
    await page.goto(`${world.baseUrl}/login`);
    await page.getByRole('link', { name: 'Sign in with Test IdP', exact: true }).click();
    await signInAtProvider(login);

    await page.waitForURL(`${world.baseUrl}/`);
    await expectText(page.locator('#signed-in-as'), `Signed in as Person ${login} (${login}@idp.example)`);
    const session = await cookieNamed('agent_fleet_session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(await cookieNamed('oauth_state')).toBeUndefined();
    expect(await cookieNamed('oauth_flow')).toBeUndefined();
    expect(await page.evaluate(() => ({ cookies: document.cookie, stored: localStorage.length + sessionStorage.length }))).toEqual({ cookies: '', stored: 0 });
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${world.baseUrl}/login`);
    expect(await cookieNamed('agent_fleet_session')).toBeUndefined();
    await page.goto(`${world.baseUrl}/`);
    expect(page.url()).toBe(`${world.baseUrl}/login`);
  });

  it('when the person cancels at the provider, then /login says the sign-in was cancelled', async () => {
    await page.goto(`${world.baseUrl}/login`);
    await page.getByRole('link', { name: 'Sign in with Test IdP', exact: true }).click();
    await page.waitForURL(`${world.idp.issuer}/interaction/**`);
    await page.getByRole('link', { name: /cancel/i }).click();
    await page.waitForURL(`${world.baseUrl}/login?cancelled=true`);
    await expectText(page.getByRole('status'), 'Sign-in was cancelled. You can try again, or sign in another way.');
    expect(await cookieNamed('agent_fleet_session')).toBeUndefined();
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
  });

  it('when the provider cannot be reached, then /login shows that signing in failed', async () => {
    await page.goto(`${world.baseUrl}/login`);
    await page.getByRole('link', { name: 'Sign in with Offline IdP', exact: true }).click();
    await page.waitForURL(`${world.baseUrl}/login?error=oauth_failed`);
    await expectText(page.locator('#failed-message'), 'Signing in with the provider did not work. Please try again; if it keeps failing, sign in another way.');
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
  });

  it('when a person uses the password form, then the external script signs them in and / shows who they are', async () => {
    const local = await world.app.signUp();
    await page.goto(`${world.baseUrl}/login`);
    await page.getByLabel('E-mail').fill(local.user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectText(page.locator('#password-problem'), 'Wrong e-mail or password.');

    await page.getByLabel('Password').fill(local.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${world.baseUrl}/`);
    await expectText(page.locator('#signed-in-as'), local.user.email, 'containing');
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
  });

  it.each(['/.//evil.example/', '/%2e//evil.example/', 'https://evil.example/'])(
    'when a person signs in with the password on /login?returnTo=%s, then they land on the service\'s own /, never on another origin',
    async (returnTo) => {
      const visited: string[] = [];
      await context.route((url) => url.hostname.endsWith('evil.example'), (route) => {
        visited.push(route.request().url());
        return route.abort();
      });
      const local = await world.app.signUp();
      await page.goto(`${world.baseUrl}/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(await page.locator('#password-form').getAttribute('data-return-to')).toBe('/');
      await page.getByLabel('E-mail').fill(local.user.email);
      await page.getByLabel('Password').fill(local.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${world.baseUrl}/`);
      await expectText(page.locator('#signed-in-as'), local.user.email, 'containing');
      expect(new URL(page.url()).origin).toBe(world.baseUrl);
      expect(visited).toEqual([]);
      expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
    },
  );

  it('when the page\'s returnTo attribute holds another origin anyway, then the script itself still goes to its own /', async () => {
    for (const planted of ['/.//evil.example/', '//evil.example/', '/\\evil.example/', 'https://evil.example/', 'javascript:alert(1)']) {
      const local = await world.app.signUp();
      await page.goto(`${world.baseUrl}/login`);
      await page.locator('#password-form').evaluate((form, value) => form.setAttribute('data-return-to', value), planted);
      await page.getByLabel('E-mail').fill(local.user.email);
      await page.getByLabel('Password').fill(local.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${world.baseUrl}/`);
      expect(page.url()).toBe(`${world.baseUrl}/`);
      await context.clearCookies();
    }
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
  });

  it('when a provider sign-in meets a local account with the same e-mail, then /login says to sign in with the password and link; the person does so from /, and can unlink again', async () => {
    const local = await world.app.signUp();
    const login = newLogin('owner');
    world.idp.accounts.set(login, { email: local.user.email, email_verified: true, name: 'The Owner' });

    await page.goto(`${world.baseUrl}/login`);
    await page.getByRole('link', { name: 'Sign in with Test IdP', exact: true }).click();
    await signInAtProvider(login);
    await page.waitForURL(`${world.baseUrl}/login?error=oauth_failed&reason=account_exists`);
    await expectText(
      page.locator('#failed-message'),
      'An account with this e-mail address already exists here. Sign in with your e-mail and password first, then link the provider from your home page.',
    );
    expect(await cookieNamed('agent_fleet_session')).toBeUndefined();

    await page.getByLabel('E-mail').fill(local.user.email);
    await page.getByLabel('Password').fill(local.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${world.baseUrl}/`);
    // The provider remembers the person and the grant (single sign-on): it may send them straight back.
    await page.getByRole('button', { name: 'Link Test IdP', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(`${world.idp.issuer}/interaction/`) || url.href === `${world.baseUrl}/`);
    if (page.url().startsWith(world.idp.issuer)) await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${world.baseUrl}/`);
    await expectText(page.locator('.connections li').first(), `Test IdP: linked as ${local.user.email}`, 'containing');

    await page.getByRole('button', { name: 'Unlink Test IdP', exact: true }).click();
    await page.getByRole('button', { name: 'Link Test IdP', exact: true }).waitFor({ state: 'visible', timeout: 5000 });
    expect(await world.app.database.db('user_identities').where({ user_id: local.user.id })).toEqual([]);
    expect(problems).toEqual({ cspViolations: [], pageErrors: [] });
  });

  /** The provider's development login and consent pages, as a person fills them in. */
  async function signInAtProvider(login: string): Promise<void> {
    await page.waitForURL(`${world.idp.issuer}/interaction/**`);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', 'any password');
    await page.click('button[type="submit"]');
    await page.waitForURL(`${world.idp.issuer}/interaction/**`);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
});

/** Waits (up to 5 s) for the element to be visible with this text, or containing it. */
async function expectText(locator: Locator, text: string, match: 'exactly' | 'containing' = 'exactly'): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 5000 });
  let seen = '';
  for (let attempt = 0; attempt < 50; attempt += 1) {
    seen = ((await locator.textContent()) ?? '').trim();
    if (match === 'exactly' ? seen === text : seen.includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`expected the text ${match} "${text}", got "${seen}"`);
}

describeInBrowser('the password form after too many failures, in Chromium [sqlite]', () => {
  // A world of its own: the failures spend the address's sign-in budget, which every other test here needs.
  let world: World;
  let browser: Browser;
  beforeAll(async () => {
    [world, browser] = await Promise.all([startOAuthWorld('sqlite'), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('when sign-ins to an account have failed too often, then the password form says how long to wait before trying again', async () => {
    const local = await world.app.signUp();
    for (let i = 0; i < world.app.config.auth.accountThrottle.freeFailures; i++) {
      await world.app.anonymous.post('/api/auth/login').send({ email: local.user.email, password: `guess ${i}` }).expect(401);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(`${world.baseUrl}/login`);
      await page.getByLabel('E-mail').fill(local.user.email);
      await page.getByLabel('Password').fill(local.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.locator('#password-problem', { hasText: 'Too many failed attempts' }).waitFor();
      expect(await page.locator('#password-problem').textContent()).toMatch(/^Too many failed attempts: try again in (\d+ seconds|\d+ minutes \(at \d\d:\d\d.*\))\.$/);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
