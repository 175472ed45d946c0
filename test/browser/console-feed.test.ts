import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { WebhookEngine } from '../../src/process/webhook-engine';
import { CLEAN_REPORT, describeInBrowser } from '../support/browser';
import { focusedText, scrollsSideways, startConsoleWorld, textOf, WIDTHS, type ConsoleWorld } from '../support/console';
import type { SignedInUser } from '../support/harness';
import { eventually, insertEvent, startReceiver, startTestEngine, type Receiver } from '../support/webhooks';

// Whole journeys in Chromium: on two busy cores (the other suites run beside them) one can take
// longer than jest's default 30 s.
jest.setTimeout(60_000);

type ApiEvent = { id: string; type: string; agent_id: string; task_id: string | null; data: Record<string, unknown> };
type ApiDelivery = { id: string; status: string; attempts: number; last_status_code: number | null; next_attempt_at: string | null; event_type: string };

/** The retry schedule of this file's delivery engine: one quick retry, then an hour (the delivery stays pending). */
const RETRY_SCHEDULE_MS = [100, 3_600_000];

describeInBrowser('the console’s event feed and webhooks in Chromium', () => {
  let world: ConsoleWorld;
  let engine: WebhookEngine;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    const webhooks = { allowPrivateNetworks: true, httpsOnly: false, timeoutMs: 2000, retryScheduleMs: RETRY_SCHEDULE_MS, pollMs: 100, concurrency: 4 };
    world = await startConsoleWorld('sqlite', { webhooks });
    engine = startTestEngine(world.testApp.database.db, world.testApp.config, webhooks);
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
    await world?.close();
  });
  afterEach(async () => {
    await world?.closeContexts();
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  const rows = (page: Page) => page.locator('.event-row');
  /** Waits (briefly) for the feed to show `count` rows, then says how many it shows. */
  const expectRows = async (page: Page, count: number) => {
    await page.waitForFunction((wanted) => document.querySelectorAll('.event-row').length === wanted, count, { timeout: 2000 }).catch(() => undefined);
    expect(await rows(page).count()).toBe(count);
  };
  const row = (page: Page, type: string, text: string) => rows(page).filter({ hasText: type }).filter({ hasText: text });
  const eventsOf = async (user: SignedInUser) => (await user.http.get('/api/v1/events?limit=100').expect(200)).body.data as ApiEvent[];
  const createWebhook = async (user: SignedInUser, body: Record<string, unknown>) => (await user.http.post('/api/v1/webhooks').send(body).expect(201)).body.data as { id: string; url: string; secret: string };

  describe('events', () => {
    it('when a person has no events, then the feed says how events will appear', async () => {
      const owner = await world.testApp.signUp();
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/events');
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Events');
      expect(await textOf(page.locator('.empty'))).toBe('No events yet: they appear here as your agents and tasks change.');
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when tasks of the person’s agents are created and finished over the API while the feed is open, then each event appears at the top within 2 s, after the history read on open, and another user’s never does', async () => {
      const owner = await world.testApp.signUp();
      const other = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'feed-worker');
      const stranger = await world.createAgent(other, 'stranger-agent');
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/events');

      // The history read on open: the agent's creation, before this page existed.
      await row(page, 'agent.created', '“feed-worker” created (type_a)').waitFor();
      expect(await textOf(row(page, 'agent.created', 'feed-worker').locator('.event-agent'))).toBe('feed-worker');
      expect(await row(page, 'agent.created', 'feed-worker').locator('.event-agent').getAttribute('href')).toBe(`#/agents/${agent.id}`);

      // Each wait starts once the API has answered, so the change is committed: 2 s from then.
      const fine = await world.createTask(owner, agent.id, { title: 'fine' });
      await row(page, 'task.created', '“fine” created, queued').waitFor({ timeout: 2000 });
      expect(await textOf(rows(page).first())).toContain('“fine” created, queued');
      expect(await textOf(row(page, 'task.created', 'fine').locator('.event-task'))).toBe('fine');
      expect(await row(page, 'task.created', 'fine').locator('.event-task').getAttribute('href')).toBe(`#/agents/${agent.id}/tasks/${fine.id}`);

      await world.createTask(other, stranger.id, { title: 'not yours' });
      await world.createTask(owner, agent.id, { title: 'broken', max_attempts: 1 });
      await row(page, 'task.created', '“broken” created').waitFor({ timeout: 2000 });

      let finished = 0;
      await world.startWorker(agent.id, async (task) => {
        finished = Date.now();
        if (task.title === 'broken') throw new Error('the model refused');
        return { words: 3 };
      });
      await row(page, 'task.succeeded', 'running → succeeded · result: words').waitFor({ timeout: 10_000 });
      await row(page, 'task.failed', 'running → failed · error: the model refused').waitFor({ timeout: 10_000 });
      expect(Date.now() - finished).toBeLessThan(2000);

      // Newest at the top, and every event the API gives the person shown once (the last few may still be on their way).
      await eventually(async () => {
        const shown = await rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-event-id') ?? ''));
        const mine = await eventsOf(owner);
        expect(shown).toEqual(mine.map((event) => event.id).reverse());
      }, 3000);
      expect(await page.getByText('not yours').count()).toBe(0);
      expect(await page.getByText('stranger-agent').count()).toBe(0);
      expect(await page.locator(`a[href="#/agents/${stranger.id}"]`).count()).toBe(0);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when the person has more events than one read takes, then the feed says where its history stops and reads on when asked; coming back reads only what is new', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'busy');
      for (let index = 1; index <= 320; index += 1) await world.createTask(owner, agent.id, { title: `backlog ${index}` });
      const context = await world.signedIn(owner);
      const pageReads: string[] = [];
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/v1/events' && request.headers()['accept'] !== 'text/event-stream') pageReads.push(url.search);
      });
      const { page, report } = await world.openConsole(context, '#/events');

      // Oldest first, three pages of 100: the agent's creation and the first 299 tasks, then a gap.
      const gap = page.locator('.feed-gap');
      await gap.waitFor();
      expect(pageReads).toHaveLength(3);
      await expectRows(page, 300);
      expect(await textOf(gap)).toMatch(/^Events after .+ have not been read yet: the console reads your history 300 events at a time, oldest first\. Read the next 300$/);
      expect(await textOf(rows(page).first())).toContain('“backlog 299” created');

      // A live event goes above the gap.
      await world.createTask(owner, agent.id, { title: 'live one' });
      await row(page, 'task.created', 'live one').waitFor({ timeout: 2000 });
      expect(await textOf(rows(page).first())).toContain('“live one” created');
      expect(await gap.evaluate((element) => element.previousElementSibling?.textContent)).toContain('“live one” created');

      await gap.getByRole('button', { name: 'Read the next 300' }).click();
      await gap.waitFor({ state: 'detached' });
      expect(pageReads).toHaveLength(4);
      await expectRows(page, 322);
      const shown = await rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-event-id') ?? ''));
      expect(shown).toEqual([...shown].sort((a, b) => Number(b) - Number(a)));
      expect(new Set(shown).size).toBe(322);
      expect(await textOf(rows(page).nth(1))).toContain('“backlog 320” created');

      // Away and back: the feed comes back as it was, and only the events after its newest are read.
      await page.getByRole('link', { name: 'Fleet', exact: true }).click();
      await page.getByRole('heading', { name: 'Your fleet' }).waitFor();
      await world.createTask(owner, agent.id, { title: 'while away' });
      await page.getByRole('link', { name: 'Events', exact: true }).click();
      await row(page, 'task.created', 'while away').waitFor();
      await expectRows(page, 323);
      expect(pageReads).toHaveLength(5);
      expect(pageReads[4]).toBe(`?limit=100&after=${shown[0]}`);
      expect(report).toEqual(CLEAN_REPORT);
    }, 60_000);

    it('when an agent is chosen in the filter, then only its events show, also those that arrive later, and the type filter narrows them further', async () => {
      const owner = await world.testApp.signUp();
      const alpha = await world.createAgent(owner, 'alpha');
      const beta = await world.createAgent(owner, 'beta');
      await world.createTask(owner, alpha.id, { title: 'alpha one' });
      await world.createTask(owner, beta.id, { title: 'beta one' });
      const context = await world.signedIn(owner, WIDTHS.phone);
      const { page, report } = await world.openConsole(context, '#/events');
      await row(page, 'task.created', 'beta one').waitFor();
      await expectRows(page, 4);

      await page.getByLabel('Agent').selectOption({ label: 'beta' });
      await expectRows(page, 2);
      expect(await rows(page).locator('.event-agent').allInnerTexts()).toEqual(['beta', 'beta']);

      await world.createTask(owner, alpha.id, { title: 'alpha two' });
      await world.createTask(owner, beta.id, { title: 'beta two' });
      await row(page, 'task.created', 'beta two').waitFor({ timeout: 2000 });
      expect(await page.getByText('alpha two').count()).toBe(0);
      await expectRows(page, 3);

      await page.getByLabel('Type').selectOption('task.created');
      await expectRows(page, 2);
      expect(await rows(page).locator('.event-kind').allInnerTexts()).toEqual(['task.created', 'task.created']);
      await page.getByLabel('Type').selectOption({ label: 'Agent events (agent.*)' });
      await expectRows(page, 1);
      expect(await textOf(rows(page))).toContain('“beta” created');

      await page.getByLabel('Agent').selectOption({ label: 'All agents' });
      await page.getByLabel('Type').selectOption({ label: 'All events' });
      await expectRows(page, 6);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it.each(Object.entries(WIDTHS))(
      'when tasks report progress at the %s width, then each event names its task by its title, linking to it (by keyboard too), and progress shows as a bar with its message, not as JSON',
      async (_width, viewport) => {
        const owner = await world.testApp.signUp();
        const agent = await world.createAgent(owner, 'progressing');
        const archive = await world.createAgent(owner, 'archive');
        const task = await world.createTask(owner, agent.id, { title: 'Summarise the report' });
        const old = await world.createTask(owner, archive.id, { title: 'Older task' });
        // Events an earlier version of the service recorded carry no title: three of one task (whose
        // creation's event was pruned: no event names it), one of a task that is gone.
        await world.testApp.database.db('events').where({ task_id: old.id }).delete();
        for (const priority of [2, 3, 4]) await insertEvent(world.testApp.database.db, { type: 'task.updated', agent_id: archive.id, owner_id: owner.user.id, task_id: old.id, data: { priority } });
        const gone = '01900000-0000-7000-8000-00000000dead';
        await insertEvent(world.testApp.database.db, { type: 'task.deleted', agent_id: archive.id, owner_id: owner.user.id, task_id: gone, data: { id: gone, status: 'queued' } });
        const lease = (await owner.http.post(`/api/v1/agents/${agent.id}/leases`).send({}).expect(201)).body.data as { id: string; task_id: string };
        expect(lease.task_id).toBe(task.id);
        await owner.http.patch(`/api/v1/agents/${agent.id}/leases/${lease.id}`).send({ progress: { percent: 40, message: 'reading page 4 of 10' } }).expect(200);

        const context = await world.signedIn(owner, viewport);
        const taskReads: string[] = [];
        context.on('request', (request) => {
          const url = new URL(request.url());
          if (/\/tasks\/[^/]+$/.test(url.pathname)) taskReads.push(`${url.pathname}${url.search}`);
        });
        const { page, report } = await world.openConsole(context, '#/events');
        const progress = row(page, 'task.progress', 'Summarise the report');
        await progress.waitFor();
        const link = progress.locator('.event-task');
        expect(await textOf(link)).toBe('Summarise the report');
        expect(await link.getAttribute('href')).toBe(`#/agents/${agent.id}/tasks/${task.id}`);
        const bar = progress.getByRole('progressbar', { name: 'Progress of “Summarise the report”' });
        expect(await bar.evaluate((element) => [element.tagName, (element as HTMLProgressElement).value, (element as HTMLProgressElement).max])).toEqual(['PROGRESS', 40, 100]);
        expect(await textOf(progress.locator('.event-progress'))).toBe('40% reading page 4 of 10');
        expect(await textOf(progress)).not.toMatch(/percent|progress:|\{/);
        expect(await textOf(row(page, 'task.leased', 'Summarise the report').locator('.event-task'))).toBe('Summarise the report');

        // The title-less events: named once their task is read, one read for its three events; the one that is gone keeps its short id.
        const untitled = rows(page).filter({ hasText: 'task.updated' });
        await page.waitForFunction(() => Array.from(document.querySelectorAll('.event-row')).filter((item) => item.textContent?.includes('task.updated') && item.textContent.includes('Older task')).length === 3, undefined, { timeout: 5000 }).catch(() => undefined);
        expect(await untitled.locator('.event-task').allInnerTexts()).toEqual(['Older task', 'Older task', 'Older task']);
        expect(await textOf(row(page, 'task.deleted', 'deleted').locator('.event-task'))).toBe(`task …${gone.slice(-8)}`);
        expect(taskReads.sort()).toEqual([`/api/v1/agents/${archive.id}/tasks/${gone}?fields=title`, `/api/v1/agents/${archive.id}/tasks/${old.id}?fields=title`].sort());

        // From the Pause button, Tab reaches the newest event's agent, then its task; Enter opens the task's page.
        expect(await textOf(rows(page).first())).toContain('task.progress');
        await page.getByRole('button', { name: 'Pause' }).focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`#/agents/${agent.id}`);
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`#/agents/${agent.id}/tasks/${task.id}`);
        expect(await scrollsSideways(page)).toBe(false);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${world.origin}/#/agents/${agent.id}/tasks/${task.id}`);
        await page.getByRole('heading', { level: 1, name: 'Summarise the report' }).waitFor();
        await page.getByRole('link', { name: 'progressing' }).waitFor();
        expect(await page.getByRole('link', { name: 'Fleet', exact: true }).getAttribute('aria-current')).toBe('page');
        // Chromium logs the 404 of the task that is gone; nothing else is reported.
        expect(report).toEqual({ ...CLEAN_REPORT, consoleErrors: ['Failed to load resource: the server responded with a status of 404 (Not Found)'] });
      },
    );

    it('when "Details" is pressed, then the event’s full JSON shows, as the API gives it, and pressing again hides it', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'detailed');
      const task = await world.createTask(owner, agent.id, { title: 'with input', input: { url: 'https://example.com/x', depth: 2 } });
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/events');
      const created = row(page, 'task.created', 'with input');
      const details = created.getByRole('button', { name: 'Details' });
      expect(await details.getAttribute('aria-expanded')).toBe('false');
      await details.click();
      expect(await details.getAttribute('aria-expanded')).toBe('true');
      const block = created.getByLabel(/^Event \d+ as JSON$/);
      const [expected] = (await eventsOf(owner)).filter((event) => event.type === 'task.created');
      expect(JSON.parse(await block.innerText())).toEqual(expected);
      expect(expected).toMatchObject({ task_id: task.id, data: { input: { url: 'https://example.com/x', depth: 2 } } });
      await details.click();
      expect(await details.getAttribute('aria-expanded')).toBe('false');
      expect(await block.count()).toBe(0);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when the feed is paused, then new events wait behind "N new events" and the list stays still; resuming shows them', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'pausable');
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/events');
      await row(page, 'agent.created', 'pausable').waitFor();

      await page.getByRole('button', { name: 'Pause' }).click();
      expect(await textOf(page.getByRole('status').filter({ hasText: 'Paused' }))).toBe('Paused: new events wait here.');
      await world.createTask(owner, agent.id, { title: 'held one' });
      await world.createTask(owner, agent.id, { title: 'held two' });
      const waiting = page.getByRole('button', { name: '2 new events: show' });
      await waiting.waitFor({ timeout: 2000 });
      expect(await rows(page).count()).toBe(1);
      expect(await page.getByText('held one').count()).toBe(0);

      await waiting.click();
      await row(page, 'task.created', 'held two').waitFor();
      expect(await rows(page).count()).toBe(3);
      expect(await textOf(rows(page).first())).toContain('“held two” created');
      expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(1);

      // "Resume" does the same as the button that counts them.
      await page.getByRole('button', { name: 'Pause' }).click();
      await world.createTask(owner, agent.id, { title: 'held three' });
      await page.getByRole('button', { name: '1 new event: show' }).waitFor({ timeout: 2000 });
      await page.getByRole('button', { name: 'Resume' }).click();
      await row(page, 'task.created', 'held three').waitFor();
      expect(await rows(page).count()).toBe(4);
      expect(report).toEqual(CLEAN_REPORT);
    });
  });

  describe('webhooks', () => {
    it('when a person has no webhooks, then the view explains them and offers the form', async () => {
      const owner = await world.testApp.signUp();
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/webhooks');
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Webhooks');
      expect(await textOf(page.locator('.empty'))).toContain('You have no webhooks yet');
      expect(await page.getByLabel('URL').count()).toBe(1);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when a webhook is added with the form, then its signing secret shows once, signs the deliveries, and is gone after "Done" and after a reload (not in the HTML, not in storage)', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'hooked');
      const endpoint = await receiver();
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/webhooks');

      await page.getByLabel('URL').fill(endpoint.url);
      await page.getByLabel('Description (optional)').fill('ops alerts');
      await page.getByLabel('Only the types chosen below').check();
      await page.getByLabel('task.created', { exact: true }).check();
      await page.getByLabel('task.failed', { exact: true }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();

      const box = page.getByRole('region', { name: 'Signing secret of your new webhook' });
      const secret = await box.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(await textOf(box)).toContain('it will not be shown again');
      expect(await focusedText(page, 'Signing secret of your new webhook')).toBe('Signing secret of your new webhook');

      const [listed] = (await owner.http.get('/api/v1/webhooks').expect(200)).body.data as Array<{ id: string; url: string; types: string[]; description: string; enabled: boolean }>;
      expect(listed).toMatchObject({ url: endpoint.url, types: ['task.created', 'task.failed'], description: 'ops alerts', enabled: true });
      const card = page.locator('.webhook-card');
      expect(await textOf(card)).toContain('task.created, task.failed');
      expect(await card.getByRole('link', { name: endpoint.url }).getAttribute('href')).toBe(`#/webhooks/${listed!.id}`);

      // The secret on the page is the one that signs: a delivery verifies with it.
      await world.createTask(owner, agent.id, { title: 'signed' });
      const delivered = await eventually(() => {
        expect(endpoint.received).toHaveLength(1);
        return endpoint.received[0]!;
      }, 10_000);
      expect(new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({ type: 'task.created', data: { title: 'signed' } });

      await box.getByRole('button', { name: 'Done' }).click();
      expect(await box.count()).toBe(0);
      await page.waitForFunction((href) => document.activeElement?.getAttribute('href') === href, `#/webhooks/${listed!.id}`, { timeout: 5000 }).catch(() => undefined);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`#/webhooks/${listed!.id}`);
      expect(await page.content()).not.toContain(secret);
      await page.reload();
      await page.locator('.webhook-card').waitFor();
      expect(await page.content()).not.toContain(secret);
      expect(await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href, history: history.state }))).not.toContain(secret);
      expect(JSON.stringify(await context.storageState())).not.toContain(secret);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when the service refuses the URL, then the form shows the service’s own message and nothing is created', async () => {
      const owner = await world.testApp.signUp();
      const context = await world.signedIn(owner, WIDTHS.phone);
      const { page, report } = await world.openConsole(context, '#/webhooks');
      const refused = 'http://user:secret@example.com/hook';
      const answer = await world.testApp.signUp().then((probe) => probe.http.post('/api/v1/webhooks').send({ url: refused }));
      expect(answer.status).toBe(400);

      await page.getByLabel('URL').fill(refused);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      expect(await textOf(page.getByRole('alert'))).toBe(answer.body.error.message);
      expect(answer.body.error.message).toContain('credentials');
      expect(await page.getByRole('region', { name: /Signing secret/ }).count()).toBe(0);
      expect((await owner.http.get('/api/v1/webhooks').expect(200)).body.data).toEqual([]);

      await page.getByLabel('URL').fill('https://example.com/hook');
      await page.getByLabel('Only the types chosen below').check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      expect(await textOf(page.getByRole('alert'))).toBe('Choose at least one event type, or every event.');
      expect((await owner.http.get('/api/v1/webhooks').expect(200)).body.data).toEqual([]);
      // Chromium logs each answer that is not a success; the refusal is the one expected, and nothing else is reported.
      expect(report).toEqual({ ...CLEAN_REPORT, consoleErrors: ['Failed to load resource: the server responded with a status of 400 (Bad Request)'] });
    });

    it('when a webhook is disabled, enabled and deleted from the list, then the API says so, and deleting takes a second, explicit click', async () => {
      const owner = await world.testApp.signUp();
      const endpoint = await receiver();
      const webhook = await createWebhook(owner, { url: `${endpoint.url}/toggled`, description: 'toggle me' });
      const kept = await createWebhook(owner, { url: `${endpoint.url}/kept` });
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, '#/webhooks');
      const card = page.locator('.webhook-card').filter({ hasText: 'toggle me' });
      const read = async () => (await owner.http.get(`/api/v1/webhooks/${webhook.id}`)).body.data as { enabled: boolean } | undefined;

      expect(await textOf(card.locator('.status'))).toBe('enabled');
      await card.getByRole('button', { name: 'Disable' }).click();
      await card.getByRole('button', { name: 'Enable' }).waitFor();
      expect(await textOf(card.locator('.status'))).toBe('disabled');
      expect(await read()).toMatchObject({ enabled: false });
      await card.getByRole('button', { name: 'Enable' }).click();
      await card.getByRole('button', { name: 'Disable' }).waitFor();
      expect(await read()).toMatchObject({ enabled: true });

      await card.getByRole('button', { name: 'Delete' }).click();
      const confirm = card.getByRole('button', { name: 'Confirm delete' });
      expect(await focusedText(page, 'Confirm delete')).toBe('Confirm delete');
      await card.getByRole('button', { name: /^Keep/ }).click();
      expect(await confirm.count()).toBe(0);
      await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(200);

      await card.getByRole('button', { name: 'Delete' }).click();
      await confirm.click();
      await card.waitFor({ state: 'detached' });
      await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(404);
      await owner.http.get(`/api/v1/webhooks/${kept.id}`).expect(200);
      expect(await page.locator('.webhook-card').count()).toBe(1);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when tasks change, then the webhook’s page lists its deliveries newest first with status, attempts and answers after "Refresh", without reading the log more than once meanwhile', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'delivering');
      const good = await receiver();
      good.answer((_req, res) => res.writeHead(200).end('ok'));
      const bad = await receiver();
      bad.answer((_req, res) => res.writeHead(500).end('down'));
      const fine = await createWebhook(owner, { url: good.url, types: ['task.created', 'task.succeeded'] });
      const failing = await createWebhook(owner, { url: bad.url, types: ['task.created'] });

      const context = await world.signedIn(owner);
      let logReads = 0;
      context.on('request', (request) => {
        if (request.url().includes('/deliveries')) logReads += 1;
      });
      const { page, report } = await world.openConsole(context, `#/webhooks/${fine.id}`);
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(`Webhook ${good.url}`);
      expect(await textOf(page.locator('.facts'))).toContain('task.created, task.succeeded');
      expect(await textOf(page.locator('.deliveries-section .empty'))).toContain('No deliveries yet');

      await world.createTask(owner, agent.id, { title: 'deliver me' });
      await world.startWorker(agent.id, async () => ({ ok: true }));
      await eventually(async () => {
        const deliveries = (await owner.http.get(`/api/v1/webhooks/${fine.id}/deliveries`).expect(200)).body.data as ApiDelivery[];
        expect(deliveries.map((delivery) => [delivery.event_type, delivery.status])).toEqual([
          ['task.succeeded', 'succeeded'],
          ['task.created', 'succeeded'],
        ]);
      }, 10_000);
      expect(logReads).toBe(1);
      await page.getByRole('button', { name: 'Refresh' }).click();
      const deliveries = page.locator('.delivery');
      await deliveries.nth(1).waitFor();
      expect(logReads).toBe(2);
      expect(await textOf(deliveries.nth(0))).toMatch(/^succeeded task\.succeeded event \d+ 1 attempt, last answer 200 /);
      expect(await textOf(deliveries.nth(1))).toMatch(/^succeeded task\.created event \d+ 1 attempt, last answer 200 /);

      // The failing endpoint: tried, retried after the schedule's 100 ms, then waiting an hour.
      await eventually(async () => {
        const [delivery] = (await owner.http.get(`/api/v1/webhooks/${failing.id}/deliveries`).expect(200)).body.data as ApiDelivery[];
        expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 500, next_attempt_at: expect.any(String) });
      }, 10_000);
      await page.goto(`${world.origin}/#/webhooks/${failing.id}`);
      const pending = page.locator('.delivery');
      await pending.first().waitFor();
      expect(await pending.count()).toBe(1);
      expect(await textOf(pending.locator('.status'))).toBe('pending');
      expect(await textOf(pending)).toContain('2 attempts, last answer 500');
      expect(await textOf(pending.locator('.delivery-error'))).toBe('Last error: answered 500: only 2xx is a success');
      expect(await textOf(pending.locator('.delivery-next'))).toMatch(/^Next attempt /);
      const log = pending.getByRole('button', { name: 'Attempt log (2)' });
      await log.click();
      expect(await log.getAttribute('aria-expanded')).toBe('true');
      const attempts = await pending.locator('.attempts li').allInnerTexts();
      expect(attempts).toHaveLength(2);
      for (const attempt of attempts) expect(attempt).toMatch(/: answered 500, in \d+ ms — answered 500: only 2xx is a success$/);
      expect(report).toEqual(CLEAN_REPORT);
    });

    it('when "Send again" is pressed on a delivery, from the keyboard, then the service sends it again with the same webhook-id and the log shows the new attempt; a refusal shows the service’s words', async () => {
      const owner = await world.testApp.signUp();
      const agent = await world.createAgent(owner, 'redelivering');
      const endpoint = await receiver();
      endpoint.answer((_req, res) => res.writeHead(500).end('down'));
      const webhook = await createWebhook(owner, { url: endpoint.url, types: ['task.created'] });
      await world.createTask(owner, agent.id, { title: 'send me again' });
      // Tried, retried after 100 ms, then waiting an hour.
      await eventually(async () => {
        const [delivery] = (await owner.http.get(`/api/v1/webhooks/${webhook.id}/deliveries`).expect(200)).body.data as ApiDelivery[];
        expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 500 });
      }, 10_000);
      endpoint.answer((_req, res) => res.writeHead(204).end());

      const context = await world.signedIn(owner, WIDTHS.phone);
      const sends: string[] = [];
      context.on('request', (request) => {
        if (request.url().endsWith('/attempts')) sends.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      const { page, report } = await world.openConsole(context, `#/webhooks/${webhook.id}`);
      const row = page.locator('.delivery');
      await row.waitFor();
      expect(await textOf(row)).toContain('2 attempts, last answer 500');

      // From the attempt log's button, Tab reaches "Send again", and Enter presses it.
      await row.getByRole('button', { name: 'Attempt log (2)' }).focus();
      await page.keyboard.press('Tab');
      const send = row.getByRole('button', { name: /^Send again: task\.created event \d+$/ });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send again');
      await page.keyboard.press('Enter');
      await row.getByRole('status').filter({ hasText: 'Sent again' }).waitFor();
      expect(sends).toHaveLength(1);
      expect(sends[0]).toMatch(new RegExp(`^POST /api/v1/webhooks/${webhook.id}/deliveries/[^/]+/attempts$`));
      // The page reads the log again for the attempt's outcome, without being asked.
      await row.locator('.status', { hasText: 'succeeded' }).waitFor({ timeout: 10_000 });
      expect(await textOf(row)).toContain('3 attempts, last answer 204');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send again');
      expect(new Set(endpoint.received.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
      expect(endpoint.received).toHaveLength(3);

      // Refused by the service (the endpoint was disabled meanwhile): its message, beside the button.
      await owner.http.patch(`/api/v1/webhooks/${webhook.id}`).send({ enabled: false }).expect(200);
      await send.click();
      expect(await textOf(row.getByRole('alert'))).toBe('The webhook is disabled and is sent nothing: enable it, then send the delivery again');
      expect(endpoint.received).toHaveLength(3);
      expect(await scrollsSideways(page)).toBe(false);
      expect(report).toEqual({ ...CLEAN_REPORT, consoleErrors: ['Failed to load resource: the server responded with a status of 409 (Conflict)'] });
    });

    it('when the webhook is not one of the person’s, then its page says so and links back to the list', async () => {
      const owner = await world.testApp.signUp();
      const other = await world.testApp.signUp();
      const endpoint = await receiver();
      const theirs = await createWebhook(other, { url: endpoint.url });
      const context = await world.signedIn(owner, WIDTHS.phone);
      const { page, report } = await world.openConsole(context, `#/webhooks/${theirs.id}`);
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('No such webhook');
      expect(await page.getByText(endpoint.url).count()).toBe(0);
      await page.getByRole('link', { name: 'See your webhooks' }).click();
      await page.waitForURL(`${world.origin}/#/webhooks`);
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Webhooks');
      // Chromium logs the 404 the page was answered; it is the only thing reported.
      expect(report).toEqual({ ...CLEAN_REPORT, consoleErrors: ['Failed to load resource: the server responded with a status of 404 (Not Found)'] });
    });

    it('when a webhook is deleted from its own page, then the page returns to the list', async () => {
      const owner = await world.testApp.signUp();
      const endpoint = await receiver();
      const webhook = await createWebhook(owner, { url: endpoint.url });
      const context = await world.signedIn(owner);
      const { page, report } = await world.openConsole(context, `#/webhooks/${webhook.id}`);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Confirm delete' }).click();
      await page.waitForURL(`${world.origin}/#/webhooks`);
      expect(await textOf(page.locator('.empty'))).toContain('You have no webhooks yet');
      await owner.http.get(`/api/v1/webhooks/${webhook.id}`).expect(404);
      expect(report).toEqual(CLEAN_REPORT);
    });
  });

  it.each(Object.entries(WIDTHS))('when the feed and the webhooks hold long names, URLs and JSON at the %s width, then nothing scrolls sideways', async (_name, viewport) => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, `an-agent-name-without-any-space-${'x'.repeat(60)}`);
    await world.createTask(owner, agent.id, { title: `a title that goes on ${'and on '.repeat(20)}`, input: { url: `https://example.com/${'very-long-segment/'.repeat(12)}` } });
    const endpoint = await receiver();
    const longUrl = `${endpoint.url}/${'a-long-path-segment-'.repeat(10)}?query=${'q'.repeat(80)}`;
    const webhook = await createWebhook(owner, { url: longUrl, description: `a description ${'d'.repeat(120)}`, types: ['task.created', 'task.succeeded', 'task.failed'] });
    const context = await world.signedIn(owner, viewport);
    const { page, report } = await world.openConsole(context, '#/events');

    await row(page, 'task.created', 'a title').getByRole('button', { name: 'Details' }).click();
    await page.getByLabel(/^Event \d+ as JSON$/).waitFor();
    expect({ view: 'events', sideways: await scrollsSideways(page) }).toEqual({ view: 'events', sideways: false });
    await page.getByRole('button', { name: 'Pause' }).click();
    expect({ view: 'events paused', sideways: await scrollsSideways(page) }).toEqual({ view: 'events paused', sideways: false });

    await page.goto(`${world.origin}/#/webhooks`);
    await page.locator('.webhook-card').waitFor();
    await page.getByLabel('Only the types chosen below').check();
    await page.locator('.webhook-card').getByRole('button', { name: 'Delete' }).click();
    expect({ view: 'webhooks', sideways: await scrollsSideways(page) }).toEqual({ view: 'webhooks', sideways: false });

    await page.goto(`${world.origin}/#/webhooks/${webhook.id}`);
    await page.locator('.facts').waitFor();
    expect({ view: 'webhook', sideways: await scrollsSideways(page) }).toEqual({ view: 'webhook', sideways: false });
    expect(report).toEqual(CLEAN_REPORT);
  });
});
