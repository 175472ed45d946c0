import type { Page } from 'playwright-core';
import { PermanentError, type TaskHandler, type Worker } from '../../src/client';
import { CLEAN_REPORT, describeInBrowser, type PageReport } from '../support/browser';
import { focusedText, scrollsSideways, textOf, useConsoleWorld, WIDTHS } from '../support/console';
import type { SignedInUser } from '../support/harness';

type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Each test starts a browser context and a worker and waits for real events: more than jest's default on a busy machine. */
const SLOW_MS = 60_000;

describeInBrowser('the agent view of the console in Chromium', () => {
  const world = useConsoleWorld('sqlite');
  let worker: Worker | undefined;

  afterEach(async () => {
    await worker?.stop({ graceful: false }).catch(() => undefined);
    worker = undefined;
  });

  /** The table's row of the task titled `title`. */
  const taskRow = (page: Page, title: string) => page.locator('.task-table tbody tr').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  const shownTitles = (page: Page) => page.locator('.task-table tbody .col-title a').allInnerTexts();
  const keyItem = (page: Page, name: string) => page.locator('.agent-key').filter({ has: page.getByRole('heading', { name, exact: true }) });

  /** The task's status as the API has it now. */
  const statusOf = async (user: SignedInUser, agentId: string, taskId: string): Promise<TaskStatus> => {
    const res = await user.http.get(`/api/v1/agents/${agentId}/tasks/${taskId}`).expect(200);
    return res.body.data.status as TaskStatus;
  };
  /** Waits until the API has every task in the status named. */
  const untilStatuses = async (user: SignedInUser, agentId: string, wanted: Record<string, TaskStatus>) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = Object.fromEntries(await Promise.all(Object.keys(wanted).map(async (id) => [id, await statusOf(user, agentId, id)] as const)));
      if (Object.entries(wanted).every(([id, status]) => now[id] === status)) return;
      if (Date.now() > deadline) throw new Error(`tasks never reached ${JSON.stringify(wanted)}: ${JSON.stringify(now)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** A worker (service key) that fails tasks titled "fails…", holds "held…" until stopped, and succeeds with `result` otherwise. */
  const startWorker = async (agentId: string, result: (title: string) => unknown = () => ({ words: 3 })): Promise<Worker> => {
    const handler: TaskHandler = async (task, { signal, progress }) => {
      if (task.title.startsWith('fails')) throw new PermanentError(`the model refused ${task.title}`);
      if (task.title.startsWith('held')) {
        await progress({ percent: 40, message: 'reading page 4 of 10' });
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      }
      return result(task.title);
    };
    worker = await world.startWorker(agentId, handler);
    return worker;
  };

  it('when an agent has tasks in every state, then each row shows its status word and facts, a failed task its error, and a task’s page its error or its input and result', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'crawler');
    const succeeds = await world.createTask(owner, agent.id, { title: 'succeeds', priority: 10, input: { url: 'https://example.com/a' } });
    const fails = await world.createTask(owner, agent.id, { title: 'fails loudly', priority: 9, max_attempts: 1 });
    const held = await world.createTask(owner, agent.id, { title: 'held by a worker', priority: 8, description: 'takes a while' });
    const waiting = await world.createTask(owner, agent.id, { title: 'waiting', priority: 0, max_attempts: 4 });
    const cancelled = await world.createTask(owner, agent.id, { title: 'called off', priority: 0 });
    await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${cancelled.id}`).send({ status: 'cancelled' }).expect(200);
    await startWorker(agent.id, () => ({ words: 42, summary: 'all good' }));
    await untilStatuses(owner, agent.id, { [succeeds.id]: 'succeeded', [fails.id]: 'failed', [held.id]: 'running', [waiting.id]: 'queued' });

    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('crawler');
    expect(await textOf(page.locator('.agent-header .status'))).toBe('running');
    expect(await textOf(page.locator('.agent-facts'))).toContain('type_a');
    expect(await page.getByRole('link', { name: 'Your fleet' }).getAttribute('href')).toBe('#/');

    const titles = await shownTitles(page);
    expect(titles).toEqual(['called off', 'waiting', 'held by a worker', 'fails loudly', 'succeeds']);
    const expected: Record<string, TaskStatus> = { succeeds: 'succeeded', 'fails loudly': 'failed', 'held by a worker': 'running', waiting: 'queued', 'called off': 'cancelled' };
    for (const [title, status] of Object.entries(expected)) {
      expect({ title, status: await textOf(taskRow(page, title).locator('.status')) }).toEqual({ title, status });
    }
    expect(await textOf(taskRow(page, 'waiting').locator('.col-priority'))).toBe('0');
    expect(await textOf(taskRow(page, 'waiting').locator('.col-attempts'))).toBe('0/4');
    expect(await textOf(taskRow(page, 'succeeds').locator('.col-attempts'))).toBe('1/3');
    expect(await textOf(taskRow(page, 'fails loudly').locator('.row-error'))).toBe('the model refused fails loudly');
    expect(await taskRow(page, 'succeeds').locator('.row-error').count()).toBe(0);

    // A task's page: the failed one's error, then (by its link, with Enter) the succeeded one's input and result.
    await taskRow(page, 'fails loudly').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'fails loudly' }).waitFor();
    expect(await textOf(page.locator('.last-error'))).toBe('Error the model refused fails loudly');
    expect(await textOf(page.locator('.task-side'))).toContain('No result.');
    expect(await page.getByRole('button', { name: /^Cancel task/ }).count()).toBe(0);
    await page.goBack();
    await taskRow(page, 'succeeds').getByRole('link').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'succeeds' }).waitFor();
    expect(JSON.parse(await page.getByLabel('Result of succeeds').innerText())).toEqual({ words: 42, summary: 'all good' });
    expect(JSON.parse(await page.getByLabel('Input of succeeds').innerText())).toEqual({ url: 'https://example.com/a' });
    expect(await page.locator('.last-error').count()).toBe(0);
    await page.goBack();
    await taskRow(page, 'held by a worker').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'held by a worker' }).waitFor();
    expect(await textOf(page.locator('.task-description'))).toBe('takes a while');
    expect(await textOf(page.locator('.task-view > .task-progress'))).toBe('40% reading page 4 of 10');
    // Cancel is offered only while a task can still be cancelled.
    expect(await page.getByRole('button', { name: /^Cancel task/ }).count()).toBe(1);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when a worker takes and finishes tasks while the agent is open, then each new status shows within 2 s of the handler’s return, without a reload', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'worked');
    await world.createTask(owner, agent.id, { title: 'fine', priority: 9 });
    await world.createTask(owner, agent.id, { title: 'fails at once', priority: 1, max_attempts: 1 });
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    expect(await textOf(taskRow(page, 'fine').locator('.status'))).toBe('queued');
    expect(await textOf(taskRow(page, 'fails at once').locator('.status'))).toBe('queued');
    // The overview reads its figures every 10 s by itself: what counts here is the tasks' reads.
    const taskReads = () => page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/tasks')).length);
    const requestsBefore = await taskReads();

    const returned: Record<string, number> = {};
    worker = await world.startWorker(agent.id, async (task) => {
      // Stamped as the handler returns (or throws): from here the worker reports the outcome.
      returned[task.title] = Date.now();
      if (task.title === 'fails at once') throw new PermanentError('no such page');
      return { ok: true };
    });
    const shows = (title: string, status: string) =>
      page.waitForFunction(
        ([wantedTitle, wantedStatus]) =>
          Array.from(document.querySelectorAll('.task-table tbody tr')).some((row) => row.querySelector('.col-title a')?.textContent === wantedTitle && row.querySelector('.status')?.textContent === wantedStatus),
        [title, status] as const,
        { timeout: 10_000, polling: 20 },
      );
    await shows('fine', 'succeeded');
    expect(Date.now() - (returned['fine'] ?? 0)).toBeLessThan(2000);
    await shows('fails at once', 'failed');
    expect(Date.now() - (returned['fails at once'] ?? 0)).toBeLessThan(2000);
    expect(await textOf(taskRow(page, 'fails at once').locator('.row-error'))).toBe('no such page');
    expect(await textOf(page.locator('.agent-header .status'))).toMatch(/^(idle|running)$/);
    // The statuses came from the event stream: the page read nothing new for them.
    expect(await taskReads()).toBe(requestsBefore);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when a task is added with the form, then it shows once at the top and the API has it; input that is not JSON is refused with a message and nothing is sent', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'form filler');
    await world.createTask(owner, agent.id, { title: 'older' });
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    await taskRow(page, 'older').waitFor();

    await page.getByLabel('Title', { exact: true }).fill('bad input');
    await page.getByRole('textbox', { name: /^Input/ }).fill('{"url": "https://example.com",}');
    await page.getByRole('button', { name: 'Add task' }).click();
    expect(await textOf(page.locator('.field-problem'))).toMatch(/^Input is not valid JSON \(.+\)\. Nothing was sent\.$/);
    expect(await page.getByRole('textbox', { name: /^Input/ }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('bad input');
    await page.getByRole('textbox', { name: /^Input/ }).fill('[1, 2]');
    await page.getByRole('button', { name: 'Add task' }).click();
    expect(await textOf(page.locator('.field-problem'))).toBe('Input must be a JSON object, such as {"url": "https://example.com"}. Nothing was sent.');
    const afterRefusals = await owner.http.get(`/api/v1/agents/${agent.id}/tasks`).expect(200);
    expect(afterRefusals.body.data.map((task: { title: string }) => task.title)).toEqual(['older']);

    await page.getByLabel('Title', { exact: true }).fill('summarise the news');
    await page.getByLabel('Description').fill('three bullet points');
    await page.getByRole('textbox', { name: /^Input/ }).fill('{"url": "https://example.com/news", "bullets": 3}');
    await page.getByLabel('Priority').fill('7');
    await page.getByLabel('Max attempts').fill('2');
    await page.getByRole('button', { name: 'Add task' }).click();
    await taskRow(page, 'summarise the news').waitFor();
    expect(await page.locator('.field-problem').count()).toBe(0);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: /^Input/ }).inputValue()).toBe('');
    // Its task.created event arrives too: the task still shows once.
    await page.waitForTimeout(800);
    expect(await shownTitles(page)).toEqual(['summarise the news', 'older']);
    expect(await textOf(taskRow(page, 'summarise the news').locator('.col-priority'))).toBe('7');
    expect(await textOf(taskRow(page, 'summarise the news').locator('.col-attempts'))).toBe('0/2');

    const listed = await owner.http.get(`/api/v1/agents/${agent.id}/tasks`).expect(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data[0]).toMatchObject({
      title: 'summarise the news',
      description: 'three bullet points',
      input: { url: 'https://example.com/news', bullets: 3 },
      priority: 7,
      max_attempts: 2,
      status: 'queued',
    });
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when a queued task is cancelled from its page, then "Keep" changes nothing, "Confirm cancel" cancels it, and the API agrees', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'canceller');
    const task = await world.createTask(owner, agent.id, { title: 'not needed after all' });
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}/tasks/${task.id}`);
    const item = page.locator('.task-view');

    await item.getByRole('button', { name: /^Cancel task/ }).click();
    const keep = item.getByRole('button', { name: /^Keep/ });
    expect(await focusedText(page, 'Confirm cancel')).toBe('Confirm cancel');
    await keep.click();
    expect(await item.getByRole('button', { name: /^Confirm cancel/ }).count()).toBe(0);
    expect(await statusOf(owner, agent.id, task.id)).toBe('queued');

    await item.getByRole('button', { name: /^Cancel task/ }).click();
    await item.getByRole('button', { name: /^Confirm cancel/ }).click();
    await item.locator('.task-header .status-cancelled').waitFor();
    expect(await textOf(item.locator('.task-header .status'))).toBe('cancelled');
    expect(await item.getByRole('button', { name: /^Cancel task/ }).count()).toBe(0);
    expect(await focusedText(page, 'Cancelled.')).toBe('Cancelled.');
    expect(await statusOf(owner, agent.id, task.id)).toBe('cancelled');
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when a key is created from the page, then its secret shows once and works, is never stored, is gone after "Done" and a reload; revoked from the page, the key no longer authenticates', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'keyed');
    await world.createTask(owner, agent.id, { title: 'for the key to read' });
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    expect(await textOf(page.locator('.agent-keys .empty'))).toContain('No keys yet. A key lets this agent’s own worker sign in as this agent');

    await page.getByLabel('Name', { exact: true }).fill('worker on build-01');
    await page.getByRole('checkbox', { name: /tasks:write/ }).uncheck();
    await page.getByLabel('Expires in days').fill('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const box = page.getByRole('region', { name: 'Copy the secret of “worker on build-01” now' });
    await box.waitFor();
    expect(await textOf(box)).toContain('It will not be shown again');
    const secret = await box.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^afk_[A-Za-z0-9_-]{8}[A-Za-z0-9_-]{43}$/);
    expect(await box.getByLabel('Secret').getAttribute('readonly')).not.toBeNull();
    await box.getByRole('button', { name: 'Copy secret' }).waitFor();
    const keyId = (await textOf(box.locator('code').last())).trim();

    const item = keyItem(page, 'worker on build-01');
    expect(await textOf(item.locator('.status'))).toBe('active');
    expect(await textOf(item.locator('.task-facts'))).toContain(`Prefix ${secret.slice(0, 12)}… Scopes tasks:read, tasks:work`);
    expect(await textOf(item.locator('.task-facts'))).toMatch(/Expires \S.* Last used never/);

    // The secret works: as X-API-Key, and exchanged for a bearer token.
    const tasksUrl = `${world.origin}/api/v1/agents/${agent.id}/tasks`;
    const withKey = await fetch(tasksUrl, { headers: { 'X-API-Key': secret } });
    expect(withKey.status).toBe(200);
    expect((await withKey.json()).data.map((task: { title: string }) => task.title)).toEqual(['for the key to read']);
    const token = await fetch(`${world.origin}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect((await fetch(tasksUrl, { headers: { Authorization: `Bearer ${accessToken}` } })).status).toBe(200);

    const stored = () =>
      page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, url: location.href, cookies: document.cookie, html: document.documentElement.outerHTML }));
    const whileShown = await stored();
    expect({ local: whileShown.local, session: whileShown.session, inUrl: whileShown.url.includes(secret), inCookies: whileShown.cookies.includes(secret) }).toEqual({
      local: 0,
      session: 0,
      inUrl: false,
      inCookies: false,
    });
    expect((await context.cookies()).some((cookie) => cookie.value.includes(secret))).toBe(false);

    await box.getByRole('button', { name: 'Done' }).click();
    expect(await box.count()).toBe(0);
    expect((await stored()).html.includes(secret)).toBe(false);

    await page.reload();
    await page.locator('.live-live').waitFor();
    await keyItem(page, 'worker on build-01').waitFor();
    const afterReload = await stored();
    expect({ local: afterReload.local, session: afterReload.session, inHtml: afterReload.html.includes(secret), prefixShown: afterReload.html.includes(secret.slice(0, 12)) }).toEqual({
      local: 0,
      session: 0,
      inHtml: false,
      prefixShown: true,
    });

    const reloadedItem = keyItem(page, 'worker on build-01');
    await reloadedItem.getByRole('button', { name: /^Revoke/ }).click();
    await reloadedItem.getByRole('button', { name: /^Keep/ }).click();
    expect(await textOf(reloadedItem.locator('.status'))).toBe('active');
    await reloadedItem.getByRole('button', { name: /^Revoke/ }).click();
    await reloadedItem.getByRole('button', { name: /^Confirm revoke/ }).click();
    await reloadedItem.locator('.status-revoked').waitFor();
    expect(await textOf(reloadedItem.locator('.status'))).toBe('revoked');
    expect(await textOf(reloadedItem.locator('.task-facts'))).toContain('Revoked');
    expect(await reloadedItem.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);

    expect((await fetch(tasksUrl, { headers: { Authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    expect((await fetch(tasksUrl, { headers: { 'X-API-Key': secret } })).status).toBe(403);
    const again = await fetch(`${world.origin}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: keyId, client_secret: secret }).toString(),
    });
    expect(again.status).toBe(401);
    const listed = await owner.http.get(`/api/v1/agents/${agent.id}/keys`).expect(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: keyId, revoked_at: expect.any(String) })]);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when the URL names another user’s agent, then the view says there is no such agent, links to the fleet, and shows none of its tasks or keys', async () => {
    const owner = await world.testApp.signUp();
    const other = await world.testApp.signUp();
    const theirs = await world.createAgent(other, 'their private agent');
    await world.createTask(other, theirs.id, { title: 'their secret plans' });
    const context = await world.signedIn(owner);
    const requested: string[] = [];
    context.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const { page, report } = await world.openConsole(context, `#/agents/${theirs.id}`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('No such agent');
    expect(await textOf(page.locator('.empty'))).toContain('There is no agent of yours with this id');
    const html = await page.content();
    expect({ name: html.includes('their private agent'), task: html.includes('their secret plans') }).toEqual({ name: false, task: false });
    expect(await page.locator('.task, .agent-key, form').count()).toBe(0);
    expect(requested.filter((path) => path.startsWith('/api/v1/agents'))).toEqual([`/api/v1/agents/${theirs.id}`]);
    // The agent's read answers 404, which Chromium notes in the console by itself: that note is the only one.
    expect(report).toEqual({ ...CLEAN_REPORT, consoleErrors: ['Failed to load resource: the server responded with a status of 404 (Not Found)'] } satisfies PageReport);

    await page.getByRole('link', { name: 'Go to your fleet' }).click();
    await page.waitForURL(`${world.origin}/#/`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('Your fleet');
  }, SLOW_MS);

  it('when an agent has no tasks, then the view says how to add one and how workers take them; tasks created meanwhile appear live, within the status filter', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'fresh');
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    const empty = page.locator('.agent-tasks .empty');
    expect(await textOf(empty)).toContain('No tasks yet. Add one with the form below');
    expect(await textOf(empty)).toContain('a worker signed in with one of this agent’s keys claims it');
    expect(await empty.getByRole('link', { name: 'client README' }).getAttribute('href')).toBe('/client');

    const first = await world.createTask(owner, agent.id, { title: 'arrives live' });
    await taskRow(page, 'arrives live').waitFor({ timeout: 2000 });
    expect(await empty.count()).toBe(0);

    await page.getByLabel('Filter by status').selectOption('succeeded');
    expect(await textOf(page.locator('.agent-tasks .empty'))).toBe('This agent has no succeeded tasks. Choose “All” to see every task.');
    await world.createTask(owner, agent.id, { title: 'hidden by the filter' });
    await page.getByLabel('Filter by status').selectOption('queued');
    await taskRow(page, 'hidden by the filter').waitFor();
    expect(await shownTitles(page)).toEqual(['hidden by the filter', 'arrives live']);
    await world.createTask(owner, agent.id, { title: 'queued live' });
    await taskRow(page, 'queued live').waitFor({ timeout: 2000 });
    await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${first.id}`).send({ status: 'cancelled' }).expect(200);
    await taskRow(page, 'arrives live').waitFor({ state: 'detached', timeout: 2000 });
    expect(await shownTitles(page)).toEqual(['queued live', 'hidden by the filter']);

    await page.getByLabel('Filter by status').selectOption('all');
    await taskRow(page, 'arrives live').waitFor();
    expect(await textOf(taskRow(page, 'arrives live').locator('.status'))).toBe('cancelled');
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when an agent has more tasks than a page, then the newest 50 show, "Next" shows the rest and can go no further, "Previous" comes back', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'busy');
    for (let index = 1; index <= 53; index += 1) await world.createTask(owner, agent.id, { title: `task ${index}` });
    const context = await world.signedIn(owner);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    await taskRow(page, 'task 53').waitFor();
    expect(await page.locator('.task-table tbody tr').count()).toBe(50);
    expect((await shownTitles(page)).at(-1)).toBe('task 4');
    expect(await page.getByRole('button', { name: 'Previous' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: 'Next' }).click();
    await taskRow(page, 'task 1').waitFor();
    expect(await shownTitles(page)).toEqual(['task 3', 'task 2', 'task 1']);
    expect(await page.getByRole('button', { name: 'Next' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: 'Previous' }).click();
    await taskRow(page, 'task 53').waitFor();
    expect(await page.locator('.task-table tbody tr').count()).toBe(50);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when the view and a task’s page are opened at 390 px with long names, long titles, long errors and big JSON, then nothing scrolls sideways', async () => {
    const owner = await world.testApp.signUp();
    const longWord = 'x'.repeat(180);
    const agent = await world.createAgent(owner, `an-agent-name-without-any-spaces-${'y'.repeat(60)}`);
    const big = { url: `https://example.com/${'segment/'.repeat(40)}`, nested: { list: Array.from({ length: 30 }, (_, index) => ({ index, text: longWord })) } };
    const done = await world.createTask(owner, agent.id, { title: `succeeds ${longWord}`, description: `${longWord} ${longWord}`, input: big, priority: 10 });
    const failed = await world.createTask(owner, agent.id, { title: `fails ${longWord}`, max_attempts: 1, priority: 9 });
    await world.createTask(owner, agent.id, { title: `held ${longWord}`, priority: 8 });
    await world.createTask(owner, agent.id, { title: longWord, input: big });
    await startWorker(agent.id, () => big);
    await untilStatuses(owner, agent.id, { [done.id]: 'succeeded', [failed.id]: 'failed' });

    const context = await world.signedIn(owner, WIDTHS.phone);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    await page.locator('.task-table tbody tr').nth(3).waitFor();
    await page.getByRole('textbox', { name: /^Input/ }).fill(JSON.stringify(big));
    await page.getByLabel('Name', { exact: true }).fill(longWord);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: /^Copy the secret/ }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    for (const task of [done, failed]) {
      await page.goto(`${world.origin}/#/agents/${agent.id}/tasks/${task.id}`);
      await page.locator('.timeline-attempt').first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
    }
    expect(await page.locator('.last-error').count()).toBe(1);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);
});
