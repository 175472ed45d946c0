import { CLEAN_REPORT, describeInBrowser } from '../support/browser';
import { scrollsSideways, settled, textOf, useConsoleWorld, WIDTHS } from '../support/console';
import { testConfig } from '../support/harness';

// Whole journeys in Chromium: on two busy cores (the other suites run beside them) one can take
// longer than jest's default 30 s.
jest.setTimeout(60_000);

describeInBrowser('the fleet console in Chromium', () => {
  // A keep-alive (and with it a check of the stream's credential) every half second.
  const world = useConsoleWorld('sqlite', { events: { ...testConfig().events, heartbeatMs: 500 } });

  const card = (page: import('playwright-core').Page, name: string) => page.locator('.agent-card').filter({ has: page.getByRole('link', { name, exact: true }) });

  it('when a person signs in with the form, then / shows their fleet: each agent with its status and its tasks counted by status, and no other user’s agent', async () => {
    const owner = await world.testApp.signUp();
    const other = await world.testApp.signUp();
    const crawler = await world.createAgent(owner, 'crawler');
    await world.createAgent(owner, 'summarizer');
    await world.createAgent(other, 'someone else’s agent');
    for (const title of ['one', 'two', 'three']) await world.createTask(owner, crawler.id, { title });
    const cancelled = await world.createTask(owner, crawler.id, { title: 'four' });
    await owner.http.patch(`/api/v1/agents/${crawler.id}/tasks/${cancelled.id}`).send({ status: 'cancelled' }).expect(200);

    const context = await world.newContext(WIDTHS.laptop);
    const page = await context.newPage();
    await page.goto(`${world.origin}/`);
    await page.waitForURL(`${world.origin}/login`);
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${world.origin}/`);

    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Your fleet');
    expect(await textOf(card(page, 'crawler').getByLabel('Tasks by status'))).toBe('3 queued 0 running 0 succeeded 0 failed 1 cancelled');
    expect(await textOf(card(page, 'crawler').locator('.status'))).toBe('idle');
    expect(await textOf(card(page, 'summarizer').getByLabel('Tasks by status'))).toBe('0 queued 0 running 0 succeeded 0 failed 0 cancelled');
    expect(await page.locator('.agent-card').count()).toBe(2);
    expect(await page.getByText('someone else’s agent').count()).toBe(0);
    expect(await textOf(page.locator('.summary'))).toBe('2 agents: 2 idle');
  });

  it('when a worker finishes tasks over the API while the fleet is open, then the counts change within 2 s without a reload', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'worked');
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context);
    const counts = card(page, 'worked').getByLabel('Tasks by status');
    expect(await textOf(counts)).toBe('0 queued 0 running 0 succeeded 0 failed 0 cancelled');

    await world.createTask(owner, agent.id, { title: 'fine' });
    await world.createTask(owner, agent.id, { title: 'broken', max_attempts: 1 });
    await page.waitForFunction(() => document.querySelector('.count-queued .count-number')?.textContent === '2', undefined, { timeout: 2000 });

    // When the worker's handler last returned (or threw): the service hears of it right after.
    let finished = 0;
    await world.startWorker(agent.id, async (task) => {
      try {
        if (task.title === 'broken') throw new Error('the model refused');
        return { words: 3 };
      } finally {
        finished = Date.now();
      }
    });
    await page.waitForFunction(
      () => document.querySelector('.count-succeeded .count-number')?.textContent === '1' && document.querySelector('.count-failed .count-number')?.textContent === '1',
      undefined,
      { timeout: 30_000 },
    );
    expect(Date.now() - finished).toBeLessThan(2000);
    expect(await textOf(counts)).toBe('0 queued 0 running 1 succeeded 1 failed 0 cancelled');
    expect(report).toEqual(CLEAN_REPORT);
  });

  it('when the connection drops, then the console says so, reconnects by itself and goes on updating', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'resilient');
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context);
    const seen: string[] = [];
    await page.exposeFunction('recordLiveState', (text: string) => seen.push(text));
    await page.evaluate(() => {
      const live = document.querySelector('.live');
      new MutationObserver(() => (window as unknown as { recordLiveState(text: string): void }).recordLiveState(live?.textContent ?? '')).observe(live as Node, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });

    world.served.dropConnections();
    await page.locator('.live-live').waitFor({ state: 'detached' }).catch(() => undefined);
    await page.locator('.live-live').waitFor({ timeout: 10_000 });
    expect(seen).toContain('Reconnecting…');
    await world.createTask(owner, agent.id, { title: 'after the drop' });
    await page.waitForFunction(() => document.querySelector('.count-queued .count-number')?.textContent === '1', undefined, { timeout: 2000 });
    // The failed request of the dropped stream is the browser's own report of the drop.
    expect({ ...report, consoleErrors: report.consoleErrors.filter((error) => !/ERR_(EMPTY_RESPONSE|CONNECTION|NETWORK|INCOMPLETE)/.test(error)) }).toEqual(CLEAN_REPORT);
  });

  it('when the session ends while the console is open, then the bar says so within a keep-alive, a read says so, and "sign in again" comes back to the same view', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'after hours');
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);

    const signedOut = await context.request.post(`${world.origin}/api/auth/logout`, { headers: { Origin: world.origin } });
    expect(signedOut.status()).toBe(204);
    // The service closes the stream at its next keep-alive; the page's reconnection is refused.
    await page.locator('.live-signed-out').waitFor({ timeout: 5000 });
    expect(await textOf(page.locator('.live-signed-out'))).toBe('Signed out: sign in again');
    await page.getByLabel('Filter by status').selectOption('failed');
    expect(await textOf(page.getByRole('alert'))).toBe('Your session has ended: sign in again to go on. Try again');

    await page.getByRole('link', { name: 'sign in again' }).click();
    await page.waitForURL(`${world.origin}/login?returnTo=${encodeURIComponent(`/#/agents/${agent.id}`)}`);
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${world.origin}/#/agents/${agent.id}`);
    await settled(page);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toContain('after hours');
    // The refused requests are the browser's own reports of what the test did.
    expect({ ...report, consoleErrors: report.consoleErrors.filter((error) => !/401/.test(error)) }).toEqual(CLEAN_REPORT);
  });

  it('when a view cannot be read, then it says why with "Try again", which reads it once the service answers', async () => {
    const owner = await world.testApp.signUp();
    await world.createAgent(owner, 'patient');
    const context = await world.signedIn(owner);
    // The network fails for the fleet's reads until the route is lifted.
    await context.route(/\/api\/v1\/agents\?/, (route) => route.abort('connectionrefused'));
    const { page, report } = await world.openConsole(context);
    expect(await textOf(page.getByRole('alert'))).toBe('The service cannot be reached. Please check your connection and try again. Try again');
    expect(await page.locator('.agent-card').count()).toBe(0);

    await context.unroute(/\/api\/v1\/agents\?/);
    await page.getByRole('button', { name: 'Try again' }).click();
    await settled(page);
    expect(await textOf(page.locator('.agent-card'))).toContain('patient');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect({ ...report, consoleErrors: report.consoleErrors.filter((error) => !/ERR_CONNECTION_REFUSED/.test(error)) }).toEqual(CLEAN_REPORT);
  });

  it.each(Object.entries(WIDTHS))('when the console is opened at the %s width, then nothing scrolls sideways, every view loads from this origin alone, with no console error or CSP violation', async (_name, viewport) => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'a rather long agent name that has to wrap somewhere on a phone');
    await world.createTask(owner, agent.id, { title: 'a task', input: { url: 'https://example.com/a/very/long/path/that/must/not/widen/the/page/at/all' } });
    const context = await world.signedIn(owner, viewport);
    const { page, report } = await world.openConsole(context);
    for (const hash of ['#/', `#/agents/${agent.id}`, '#/events', '#/webhooks']) {
      await page.goto(`${world.origin}/${hash}`);
      await settled(page);
      expect({ hash, sideways: await scrollsSideways(page) }).toEqual({ hash, sideways: false });
    }
    expect(report).toEqual(CLEAN_REPORT);
  });

  it('when the console is used by keyboard alone, then every control is reached with Tab, shows a visible focus ring, and Enter opens a view', async () => {
    const owner = await world.testApp.signUp();
    await world.createAgent(owner, 'keyboard');
    const context = await world.signedIn(owner);
    const { page } = await world.openConsole(context);
    const reached: string[] = [];
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return undefined;
        const style = getComputedStyle(element);
        return { name: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim(), outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px' };
      });
      if (focused) {
        reached.push(focused.name);
        expect({ name: focused.name, outline: focused.outline }).toEqual({ name: focused.name, outline: true });
      }
    }
    expect(reached).toEqual(expect.arrayContaining(['API docs', 'Client README', 'Sign out', 'Fleet', 'Events', 'Webhooks', 'keyboard']));

    await page.getByRole('link', { name: 'Events', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${world.origin}/#/events`);
    // The navigation marks the view in the render after the URL changed.
    const events = page.getByRole('link', { name: 'Events', exact: true });
    await page.waitForFunction(() => document.querySelector('a[aria-current="page"]')?.textContent === 'Events', undefined, { timeout: 5000 }).catch(() => undefined);
    expect(await events.getAttribute('aria-current')).toBe('page');
  });

  it('when the console links the API docs and the client README, then both open from this origin', async () => {
    const owner = await world.testApp.signUp();
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context);
    expect(await page.getByRole('link', { name: 'API docs' }).getAttribute('href')).toBe('/docs');
    await page.getByRole('link', { name: 'Client README' }).click();
    await page.waitForURL(`${world.origin}/client`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toContain('@agent-fleet/client');
    expect(report).toEqual(CLEAN_REPORT);
  });

  it('when someone new follows "Create an account" from /login, then the sign-up form makes the account and opens their empty fleet', async () => {
    const context = await world.newContext(WIDTHS.phone);
    const page = await context.newPage();
    await page.goto(`${world.origin}/login`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`${world.origin}/sign-up`);
    await page.getByLabel('Name').fill('New Person');
    await page.getByLabel('E-mail').fill(`new-${Date.now()}@example.test`);
    await page.getByLabel('Password').fill('a long and unusual passphrase 42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${world.origin}/`);
    expect(await textOf(page.locator('#signed-in-as'))).toContain('New Person');
    expect(await textOf(page.locator('.empty'))).toContain('You have no agents yet');
  });

  it('when the e-mail address is taken, then the sign-up form says so and creates nothing', async () => {
    const owner = await world.testApp.signUp();
    const context = await world.newContext();
    const page = await context.newPage();
    await page.goto(`${world.origin}/sign-up`);
    await page.getByLabel('Name').fill('Copycat');
    await page.getByLabel('E-mail').fill(owner.user.email);
    await page.getByLabel('Password').fill('a long and unusual passphrase 42');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe('An account with this e-mail address already exists: sign in instead.');
    expect(page.url()).toBe(`${world.origin}/sign-up`);
  });

  it('when events arrive while the tab is hidden, then the view reads nothing until it is shown again, and then reads once', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'watched from a hidden tab');
    const context = await world.signedIn(owner);
    // Headless Chromium never hides a page: the page is told it is hidden as a browser tells it.
    await context.addInitScript(() => {
      const state = { hidden: false };
      Object.defineProperty(window, 'setTabHidden', {
        value: (hidden: boolean) => {
          state.hidden = hidden;
          document.dispatchEvent(new Event('visibilitychange'));
        },
      });
      Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (state.hidden ? 'hidden' : 'visible') });
    });
    await context.clock.install();
    const fleetReads: string[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/agents') fleetReads.push(url.search);
    });
    const { page, report } = await world.openConsole(context);
    expect(fleetReads).toHaveLength(1);
    await page.evaluate(() => (window as unknown as { setTabHidden(hidden: boolean): void }).setTabHidden(true));
    for (const title of ['one', 'two', 'three']) await world.createTask(owner, agent.id, { title });
    // The events still patch the view at once; the reconcile they ask for comes due while hidden.
    await page.waitForFunction(() => document.querySelector('.agent-card [aria-label="Tasks by status"]')?.textContent?.startsWith('3 queued'));
    await context.clock.runFor(120_000);
    expect(fleetReads).toHaveLength(1);
    await page.evaluate(() => (window as unknown as { setTabHidden(hidden: boolean): void }).setTabHidden(false));
    await page.waitForFunction(() => document.querySelector('.loading') === null);
    for (let waited = 0; fleetReads.length < 2 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fleetReads).toHaveLength(2);
    expect(report).toEqual(CLEAN_REPORT);
  });
});

