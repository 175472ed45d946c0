import type { Page } from 'playwright-core';
import supertest from 'supertest';
import { CLEAN_REPORT, describeInBrowser } from '../support/browser';
import { scrollsSideways, startConsoleWorld, textOf, WIDTHS, type ConsoleWorld } from '../support/console';
import { testConfig, type SignedInUser } from '../support/harness';

/** Each test opens a browser context and waits for real reads and streams: more than jest's default on a busy machine. */
const SLOW_MS = 90_000;
const TASKS = 500;
/** Every 25th task is an invoice: 20 of them, for the title search. */
const isInvoice = (index: number) => index % 25 === 0;
const titleOf = (index: number) => (isInvoice(index) ? `Send invoice ${String(index).padStart(3, '0')}` : `task ${String(index).padStart(3, '0')}`);

interface Row {
  id: string;
  title: string;
  status: string;
  priority: number;
}

describeInBrowser('the operator’s views of the console in Chromium: the task table, a task’s page, an agent’s overview', () => {
  let world: ConsoleWorld;
  let owner: SignedInUser;
  let busy: { id: string; name: string };
  /** The busy agent's tasks the test cancelled before any page opened. */
  let cancelledBefore: string[];

  beforeAll(async () => {
    const base = testConfig();
    // A retried task is claimable again within milliseconds, so that a test can walk two attempts.
    world = await startConsoleWorld('sqlite', { leases: { ...base.leases, retryBaseMs: 1, retryMaxMs: 5 } });
    owner = await world.testApp.signUp();
    busy = await world.createAgent(owner, 'busy crawler');
    // 500 tasks through the API, 25 at a time (each batch holds one invoice, so the invoices' order is known).
    const ids: string[] = [];
    for (let start = 1; start <= TASKS; start += 25) {
      const batch = Array.from({ length: Math.min(25, TASKS - start + 1) }, (_, offset) => start + offset);
      await Promise.all(batch.map(async (index) => (ids[index] = (await world.createTask(owner, busy.id, { title: titleOf(index), priority: index % 11 })).id)));
    }
    cancelledBefore = [ids[3], ids[7], ids[498]].filter((id): id is string => id !== undefined);
    await Promise.all(cancelledBefore.map((id) => owner.http.patch(`/api/v1/agents/${busy.id}/tasks/${id}`).send({ status: 'cancelled' }).expect(200)));
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });
  afterEach(async () => {
    await world?.closeContexts();
  });

  /** A page of the busy agent's tasks as the API gives it (the table's source of truth). */
  const apiRows = async (query: string): Promise<Row[]> => {
    const res = await owner.http.get(`/api/v1/agents/${busy.id}/tasks?limit=50&${query}`).expect(200);
    return res.body.data as Row[];
  };
  const allTasks = async (agentId: string): Promise<Row[]> => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const res: supertest.Response = await owner.http.get(`/api/v1/agents/${agentId}/tasks?limit=100${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      rows.push(...(res.body.data as Row[]));
      cursor = res.body.meta.hasMore ? res.body.meta.nextCursor : null;
    } while (cursor);
    return rows;
  };
  const table = (page: Page) => page.locator('.task-table');
  /** The titles the table shows, once it has read what it was asked for. */
  const shownTitles = async (page: Page): Promise<string[]> => {
    await page.locator('.task-table[aria-busy="false"]').waitFor();
    return page.locator('.task-table tbody .col-title a').allInnerTexts();
  };
  /** Waits until the table shows `titles`, in order. */
  const untilTitles = async (page: Page, titles: string[]) => {
    await page
      .waitForFunction((wanted) => JSON.stringify(Array.from(document.querySelectorAll('.task-table[aria-busy="false"] tbody .col-title a')).map((link) => link.textContent)) === wanted, JSON.stringify(titles), {
        timeout: 10_000,
      })
      .catch(() => undefined);
    return shownTitles(page);
  };
  /** Presses `key` on the element, by keyboard. */
  const press = async (page: Page, locator: ReturnType<Page['locator']>, key: string) => {
    await locator.focus();
    await page.keyboard.press(key);
  };

  it.each(Object.entries(WIDTHS))(
    'when an agent has 500 tasks at the %s width, then the table shows the newest 50 without scrolling sideways, and by keyboard it pages, sorts by priority, filters by status and finds titles by any part of them',
    async (_name, viewport) => {
      const context = await world.signedIn(owner, viewport);
      const { page, report } = await world.openConsole(context, `#/agents/${busy.id}`);
      const newest = await apiRows('sort=-created_at');
      expect(await shownTitles(page)).toEqual(newest.map((row) => row.title));
      expect(await table(page).locator('tbody tr').count()).toBe(50);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await textOf(page.locator('.pager-where'))).toBe('Page 1 · tasks 1–50');

      // Next and Previous, by keyboard: the rows are the API's second page, then the first again.
      const next = page.getByRole('button', { name: 'Next' });
      await press(page, next, 'Enter');
      const second = await apiRows(`sort=-created_at&cursor=${encodeURIComponent((await owner.http.get(`/api/v1/agents/${busy.id}/tasks?limit=50`)).body.meta.nextCursor)}`);
      expect(await untilTitles(page, second.map((row) => row.title))).toEqual(second.map((row) => row.title));
      expect(await textOf(page.locator('.pager-where'))).toBe('Page 2 · tasks 51–100');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Next');
      await press(page, page.getByRole('button', { name: 'Previous' }), 'Enter');
      expect(await untilTitles(page, newest.map((row) => row.title))).toEqual(newest.map((row) => row.title));

      // Sorting by priority, by keyboard: highest first, then lowest first.
      const priority = page.getByRole('button', { name: /^Priority/ });
      await press(page, priority, 'Enter');
      const highest = await apiRows('sort=-priority');
      expect(await untilTitles(page, highest.map((row) => row.title))).toEqual(highest.map((row) => row.title));
      expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain('Priority');
      const priorities = (await table(page).locator('tbody .col-priority').allInnerTexts()).map((text) => Number(text.replace(/\D/g, '')));
      expect(priorities[0]).toBe(10);
      expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
      await press(page, priority, 'Enter');
      const lowest = await apiRows('sort=priority');
      expect(await untilTitles(page, lowest.map((row) => row.title))).toEqual(lowest.map((row) => row.title));
      expect(await page.locator('th[aria-sort="ascending"]').innerText()).toContain('Priority');
      expect(await scrollsSideways(page)).toBe(false);

      // The status filter, by keyboard: End picks the last status (cancelled), Home “All”.
      await press(page, page.getByLabel('Filter by status'), 'End');
      const cancelled = await apiRows('sort=priority&status=cancelled');
      expect(cancelled.length).toBeGreaterThanOrEqual(cancelledBefore.length);
      expect(await untilTitles(page, cancelled.map((row) => row.title))).toEqual(cancelled.map((row) => row.title));
      expect(await page.locator('.pager').count()).toBe(0);
      await press(page, page.getByLabel('Filter by status'), 'Home');
      await untilTitles(page, lowest.map((row) => row.title));

      // The title search: the service finds the 20 invoices among the 500 (any part of the title, any case), newest first once sorted so.
      await page.getByRole('button', { name: /^Created/ }).click();
      await page.getByLabel('Search titles').focus();
      await page.keyboard.type('INVOICE');
      const invoices = Array.from({ length: TASKS }, (_, index) => index + 1)
        .filter(isInvoice)
        .reverse()
        .map(titleOf);
      expect(await untilTitles(page, invoices)).toEqual(invoices);
      expect(invoices).toHaveLength(20);
      await page.keyboard.press('Control+a');
      await page.keyboard.type('nothing like it');
      await page.locator('.agent-tasks .empty').waitFor();
      expect(await textOf(page.locator('.agent-tasks .empty'))).toContain('This agent has no tasks with “nothing like it” in the title');
      expect(await scrollsSideways(page)).toBe(false);
      expect(report).toEqual(CLEAN_REPORT);
    },
    SLOW_MS,
  );

  it('when two queued rows and a cancelled one are selected by keyboard and cancelled, then one batch request cancels exactly those two, and the report tells each task’s outcome (the refusal in the service’s words)', async () => {
    const context = await world.signedIn(owner, WIDTHS.laptop);
    const changes: string[] = [];
    context.on('request', (request) => {
      if (request.method() !== 'GET') changes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    const { page, report } = await world.openConsole(context, `#/agents/${busy.id}`);
    await shownTitles(page);
    const before = await allTasks(busy.id);
    // The newest 50 (the first page) hold the two newest queued tasks and one cancelled before the page opened.
    const queued = before.filter((row) => row.status === 'queued').slice(0, 2);
    const cancelled = before.slice(0, 50).find((row) => row.status === 'cancelled');
    expect(queued).toHaveLength(2);
    expect(cancelled && cancelledBefore.includes(cancelled.id)).toBe(true);
    const checkbox = (title: string | undefined) => page.getByRole('checkbox', { name: `Select ${title}` });

    for (const row of queued) await press(page, checkbox(row.title), 'Space');
    expect(await textOf(page.locator('.bulk-count'))).toBe('2 selected: 2 can be cancelled');
    // Another order shows other rows: the choice goes with the rows it was made among.
    await page.getByRole('button', { name: /^Created/ }).click();
    await untilTitles(page, (await apiRows('sort=created_at')).map((row) => row.title));
    expect(await page.locator('.bulk-actions').count()).toBe(0);
    await page.getByRole('button', { name: /^Created/ }).click();
    await untilTitles(page, (await apiRows('sort=-created_at')).map((row) => row.title));

    for (const row of queued) await press(page, checkbox(row.title), 'Space');
    await press(page, checkbox(cancelled?.title), 'Space');
    expect(await textOf(page.locator('.bulk-count'))).toBe('3 selected: 2 can be cancelled, 1 retried');

    await press(page, page.getByRole('button', { name: /^Cancel selected/ }), 'Enter');
    expect(await textOf(page.locator('.confirm-warning'))).toBe('1 of them is not queued or running: the service will refuse it.');
    await press(page, page.getByRole('button', { name: /^Confirm cancel of 3/ }), 'Enter');
    const outcome = page.getByRole('region', { name: /cancelled/ });
    await outcome.waitFor();
    expect(await textOf(outcome.getByRole('heading'))).toBe('2 of 3 cancelled; 1 refused');
    const lines = (await outcome.locator('li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    // In the table's order, which among tasks created at once is the service's.
    expect(lines.sort()).toEqual(
      [
        `Cancelled: ${queued[0]?.title} (queued → cancelled)`,
        `Cancelled: ${queued[1]?.title} (queued → cancelled)`,
        `Refused: ${cancelled?.title} (A cancelled task never changes)`,
      ].sort(),
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bulk-report-title');
    for (const row of queued) {
      expect(await textOf(table(page).locator('tr', { has: page.getByRole('link', { name: row.title, exact: true }) }).locator('.status'))).toBe('cancelled');
    }
    expect(await page.locator('.task-table tbody input:checked').count()).toBe(0);

    // The three in one request: none of the tasks' own.
    expect(changes).toEqual([`POST /api/v1/agents/${busy.id}/task-batches`]);
    const after = await allTasks(busy.id);
    const changed = after.filter((row) => before.find((old) => old.id === row.id)?.status !== row.status);
    expect(changed.map((row) => [row.id, row.status]).sort()).toEqual(queued.map((row) => [row.id, 'cancelled']).sort());
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  /** An agent key named `name` and a client that works the agent's leases with it. */
  const workerKey = async (agentId: string, name: string) => {
    const key = await owner.http.post(`/api/v1/agents/${agentId}/keys`).send({ name }).expect(201);
    const secret = key.body.data.secret as string;
    const http = () => supertest(world.testApp.app);
    const claim = async () => {
      for (let tries = 0; tries < 50; tries += 1) {
        const res = await http().post(`/api/v1/agents/${agentId}/leases`).set('X-API-Key', secret).send({ ttl_seconds: 300 });
        if (res.status === 201) return res.body.data as { id: string; task_id: string };
        expect(res.status).toBe(204);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('no task became claimable');
    };
    const log = (leaseId: string, lines: Array<{ level: string; message: string; data?: unknown }>) =>
      http().post(`/api/v1/agents/${agentId}/leases/${leaseId}/logs`).set('X-API-Key', secret).send({ lines }).expect(204);
    const update = (leaseId: string, body: Record<string, unknown>) => http().patch(`/api/v1/agents/${agentId}/leases/${leaseId}`).set('X-API-Key', secret).send(body).expect(200);
    return { claim, log, update };
  };

  it('when a task took two attempts (the first failed and was retried), then its page shows both with their worker, times, errors and log lines in order, the usage of each and in total, and its input and result as text', async () => {
    const agent = await world.createAgent(owner, 'summariser');
    const task = await world.createTask(owner, agent.id, { title: 'summarise the report', input: { url: 'https://example.com/report', note: '<b>not bold</b>' }, max_attempts: 3, priority: 4 });
    const worker = await workerKey(agent.id, 'build-01');
    const first = await worker.claim();
    expect(first.task_id).toBe(task.id);
    await worker.log(first.id, [
      { level: 'info', message: 'fetching https://example.com/report' },
      { level: 'debug', message: 'got 41 kB', data: { bytes: 41_213 } },
    ]);
    await worker.update(first.id, { progress: { percent: 30, message: 'reading' }, usage: { input_tokens: 1200, output_tokens: 0, cost_usd: 0.0036, model: 'small-model' } });
    await worker.log(first.id, [{ level: 'error', message: 'the model answered 429 <img src=x>' }]);
    await worker.update(first.id, { status: 'failed', error: 'rate limited by the model', retry: true, usage: { input_tokens: 0, output_tokens: 10, cost_usd: 0.0001 } });
    const second = await worker.claim();
    expect(second.task_id).toBe(task.id);
    await worker.log(second.id, [{ level: 'info', message: 'retrying with the larger model' }]);
    await worker.update(second.id, { status: 'succeeded', result: { summary: 'Revenue grew; <script>alert(1)</script>', words: 212 }, usage: { input_tokens: 3000, output_tokens: 450, cost_usd: 0.05, model: 'large-model' } });

    const context = await world.signedIn(owner, WIDTHS.laptop);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}/tasks/${task.id}`);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe('summarise the report');
    expect(await textOf(page.locator('.task-header .status'))).toBe('succeeded');
    expect(await textOf(page.locator('.task-facts'))).toContain('Attempts 2 of 3');
    expect(await textOf(page.locator('.task-facts'))).toContain('Last worker build-01 (agent key)');
    expect(await textOf(page.locator('.last-error'))).toContain('Last error rate limited by the model');
    expect(await page.getByRole('link', { name: 'summariser' }).getAttribute('href')).toBe(`#/agents/${agent.id}`);
    // Input and result as the API has them, in text: no markup of theirs became elements.
    expect(JSON.parse(await page.getByLabel('Input of summarise the report').innerText())).toEqual({ url: 'https://example.com/report', note: '<b>not bold</b>' });
    expect(JSON.parse(await page.getByLabel('Result of summarise the report').innerText())).toEqual({ summary: 'Revenue grew; <script>alert(1)</script>', words: 212 });
    expect(await page.locator('.task-view b, .task-view script, .task-view img').count()).toBe(0);

    const usage = page.locator('.task-usage');
    expect((await usage.locator('tbody tr').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(['1 small-model 1,200 10 $0.0037', '2 large-model 3,000 450 $0.05']);
    expect(await textOf(usage.locator('tfoot'))).toBe('Task 2 attempts 4,200 460 $0.0537');

    const attempts = page.locator('.timeline-attempt');
    await page.locator('.log-line').nth(3).waitFor();
    expect(await attempts.count()).toBe(2);
    const one = (await attempts.nth(0).locator('.moments > li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').replace(/\d\d:\d\d:\d\d\.\d{3}/g, 'T').trim());
    expect(one).toEqual([
      'T Claimed by build-01 (agent key) · model small-model',
      'T INFO fetching https://example.com/report',
      'T DEBUG got 41 kB {"bytes":41213}',
      expect.stringMatching(/^T (Last heartbeat 30% reading|ERROR the model answered 429 <img src=x>)$/),
      expect.stringMatching(/^T (Last heartbeat 30% reading|ERROR the model answered 429 <img src=x>)$/),
      'T Ended: failed rate limited by the model',
    ]);
    expect(await textOf(attempts.nth(0).locator('.attempt-title'))).toBe('Attempt 1 · failed');
    const two = (await attempts.nth(1).locator('.moments > li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').replace(/\d\d:\d\d:\d\d\.\d{3}/g, 'T').trim());
    expect(two).toEqual(['T Claimed by build-01 (agent key) · model large-model', 'T INFO retrying with the larger model', 'T Ended: succeeded']);
    expect(await textOf(page.locator('.timeline-finished'))).toMatch(/Finished: succeeded$/);

    // The filters are the service's: errors only, then the second attempt only.
    await page.getByLabel('Log level').selectOption('error');
    await page.waitForFunction(() => document.querySelectorAll('.log-line').length === 1);
    expect(await textOf(page.locator('.log-line'))).toMatch(/ERROR the model answered 429 <img src=x>$/);
    await page.getByLabel('Log level').selectOption('all');
    await page.getByRole('combobox', { name: /^Attempt\b/ }).selectOption('2');
    await page.waitForFunction(() => document.querySelectorAll('.log-line').length === 1);
    expect(await textOf(page.locator('.log-line'))).toMatch(/INFO retrying with the larger model$/);
    expect(await textOf(attempts.nth(0))).toContain('Its lines are hidden by the filter.');
    expect(await page.getByRole('button', { name: /^Cancel task/ }).count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it.each(Object.entries(WIDTHS))('when a worker logs while its task’s page is open at the %s width, then each line appears live, without a reload; Cancel by keyboard cancels the running task', async (_name, viewport) => {
    const agent = await world.createAgent(owner, `live logger ${viewport.width}`);
    const task = await world.createTask(owner, agent.id, { title: 'crawl the changelog', input: { url: `https://example.com/${'very-long-segment/'.repeat(20)}` } });
    const worker = await workerKey(agent.id, 'gpu-worker-1');
    const lease = await worker.claim();
    await worker.log(lease.id, [{ level: 'info', message: 'started' }]);

    const context = await world.signedIn(owner, viewport);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}/tasks/${task.id}`);
    await page.locator('.log-line').first().waitFor();
    await page.locator('.log-state.live-live').waitFor();
    const requestsBefore = await page.evaluate(() => performance.getEntriesByType('resource').length);
    await worker.log(lease.id, [{ level: 'warn', message: `page 2 of 3 is slow ${'x'.repeat(120)}`, data: { ms: 5400, url: `https://example.com/${'a'.repeat(150)}` } }]);
    await page.getByText(/page 2 of 3 is slow/).waitFor({ timeout: 3000 });
    expect(await page.locator('.log-line').count()).toBe(2);
    // The line came on the open stream: the page sent no request for it.
    expect(await page.evaluate(() => performance.getEntriesByType('resource').length)).toBe(requestsBefore);
    expect(await scrollsSideways(page)).toBe(false);

    const cancel = page.getByRole('button', { name: /^Cancel task/ });
    await press(page, cancel, 'Enter');
    await press(page, page.getByRole('button', { name: /^Confirm cancel/ }), 'Enter');
    await page.locator('.task-header .status-cancelled').waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancelled.');
    expect((await owner.http.get(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.data.status).toBe('cancelled');
    await page.waitForFunction(() => document.querySelector('.timeline-attempt .attempt-title')?.textContent?.includes('cancelled'), undefined, { timeout: 5000 });
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it.each(Object.entries(WIDTHS))('when an agent has a worker on a task, at the %s width, then the overview charts its queue and throughput (SVG with a summary), its wait and run times, the worker with its lease and progress, and its usage', async (_name, viewport) => {
    const agent = await world.createAgent(owner, `overseen ${viewport.width}`);
    const worker = await workerKey(agent.id, 'gpu-worker-1');
    for (const title of ['done quickly', 'fails for good', 'held by the worker', 'waiting']) await world.createTask(owner, agent.id, { title, max_attempts: 1 });
    const done = await worker.claim();
    await worker.update(done.id, { status: 'succeeded', result: { ok: true }, usage: { input_tokens: 500, output_tokens: 120, cost_usd: 0.002, model: 'small-model' } });
    const failed = await worker.claim();
    await worker.update(failed.id, { status: 'failed', error: 'no such page' });
    const held = await worker.claim();
    await worker.update(held.id, { progress: { percent: 40, message: 'reading page 4 of 10' }, usage: { input_tokens: 100, output_tokens: 0, cost_usd: 0.0005 } });

    const context = await world.signedIn(owner, viewport);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    const overview = page.locator('.agent-overview');
    const depth = overview.getByRole('img', { name: /^Queue depth over the last hour/ });
    await depth.waitFor();
    expect(await depth.evaluate((node) => node.tagName.toLowerCase())).toBe('svg');
    expect(await depth.getAttribute('aria-label')).toMatch(/^Queue depth over the last hour: 1 queued at the end, highest \d+ at \d\d:\d\d, lowest 0\.$/);
    const finished = overview.getByRole('img', { name: /^Tasks finished per minute over the last hour/ });
    expect(await finished.getAttribute('aria-label')).toMatch(/1 succeeded and 1 failed in all, 4 created; busiest \d at \d\d:\d\d\.$/);
    expect(await overview.locator('.chart rect.chart-ok').count()).toBeGreaterThanOrEqual(1);
    // The figures the charts draw are in a table for screen readers: 60 minutes.
    expect(await overview.locator('.visually-hidden table tbody tr').count()).toBe(60);
    const figures = await textOf(overview.locator('.figures'));
    expect(figures).toMatch(/^Queued 1 claimable now Running 1 Succeeded 1 last hour Failed 1 last hour Throughput [\d.]+\/min finished Wait .+ p50 · p95 .+ Run time .+ p50 · p95 .+$/);

    const workerItem = page.locator('.worker', { has: page.getByRole('heading', { name: 'gpu-worker-1' }) });
    expect(await textOf(workerItem)).toContain('agent key');
    expect(await textOf(workerItem.locator('.worker-facts'))).toMatch(/1 succeeded, 1 failed in the last hour$/);
    const lease = workerItem.locator('.lease');
    expect(await lease.getByRole('link', { name: 'held by the worker' }).getAttribute('href')).toBe(`#/agents/${agent.id}/tasks/${held.task_id}`);
    expect(await textOf(lease.locator('.lease-facts'))).toMatch(/^expires in \d+ min · heartbeat (now|\d+ s ago)$/);
    expect(await lease.getByRole('progressbar', { name: 'Progress of held by the worker' }).getAttribute('value')).toBe('40');
    expect(await textOf(lease.locator('.task-progress'))).toBe('40% reading page 4 of 10');

    const usage = page.locator('.agent-usage');
    expect(await textOf(usage.locator('.figures'))).toBe('Input tokens 600 Output tokens 120 Cost $0.0025');
    expect(await usage.getByRole('img', { name: /^Tokens per hour/ }).getAttribute('aria-label')).toContain('600 input and 120 output in all, costing $0.0025');
    expect(await textOf(usage.locator('.usage-table tbody'))).toMatch(/^\d\d:\d\d 600 120 \$0\.0025( .+)?$/);
    expect(await scrollsSideways(page)).toBe(false);

    // The window, by keyboard: the day, in 96 buckets of 15 minutes.
    await press(page, page.getByRole('radio', { name: 'Last day' }), 'Space');
    await overview.getByRole('img', { name: /^Queue depth over the last day/ }).waitFor();
    expect(await overview.locator('.visually-hidden table tbody tr').count()).toBe(96);
    expect(await scrollsSideways(page)).toBe(false);
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);
});
