import type { Page } from 'playwright-core';
import supertest from 'supertest';
import { createStore } from '../../src/data/store';
import { fireDueSchedules } from '../../src/domain/schedules';
import { CLEAN_REPORT, describeInBrowser, type PageReport } from '../support/browser';
import { focusedText, scrollsSideways, textOf, useConsoleWorld, WIDTHS } from '../support/console';
import type { SignedInUser } from '../support/harness';

/** Each test opens a browser context and waits for real reads: more than jest's default on a busy machine. */
const SLOW_MS = 90_000;

interface ApiTask {
  id: string;
  title: string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: string | null;
  available_at: string;
  timeout_seconds: number | null;
  schedule_id: string | null;
}
interface ApiSchedule {
  id: string;
  name: string | null;
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
  template: { title: string; priority?: number; timeout_seconds?: number };
  paused: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_task_id: string | null;
  last_error: string | null;
}

/** What Chromium notes by itself in the console when the page's request is answered with `status`: the one console error a refusal shown to the person may leave. */
const refusedNote = (status: string): PageReport => ({ ...CLEAN_REPORT, consoleErrors: [`Failed to load resource: the server responded with a status of ${status}`] });

describeInBrowser('steering the queue from the console in Chromium: bulk retry and cancel, retry on a task’s page, schedules, max concurrency, run at and timeout', () => {
  const world = useConsoleWorld('sqlite');

  const taskOf = async (user: SignedInUser, agentId: string, taskId: string): Promise<ApiTask> => (await user.http.get(`/api/v1/agents/${agentId}/tasks/${taskId}`).expect(200)).body.data;
  const schedulesOf = async (user: SignedInUser, agentId: string): Promise<ApiSchedule[]> => (await user.http.get(`/api/v1/agents/${agentId}/schedules`).expect(200)).body.data;
  const taskRow = (page: Page, title: string) => page.locator('.task-table tbody tr').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  /** Presses `key` on the element, by keyboard. */
  const press = async (page: Page, locator: ReturnType<Page['locator']>, key: string) => {
    await locator.focus();
    await page.keyboard.press(key);
  };
  /** Presses Tab until the focused element's accessible label or text begins with `name` (at most 40 times); fails otherwise. */
  const tabTo = async (page: Page, name: string) => {
    for (let presses = 0; presses < 40; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
      if (focused.startsWith(name)) return;
    }
    throw new Error(`Tab never reached “${name}”`);
  };

  /** An agent key of `agentId` working its leases over HTTP: claims the next task, and ends a lease. */
  const workerKey = async (owner: SignedInUser, agentId: string) => {
    const key = await owner.http.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'worker' }).expect(201);
    const secret = key.body.data.secret as string;
    const http = () => supertest(world.testApp.app);
    const claim = async (): Promise<{ id: string; task_id: string }> => {
      for (let tries = 0; tries < 50; tries += 1) {
        const res = await http().post(`/api/v1/agents/${agentId}/leases`).set('X-API-Key', secret).send({ ttl_seconds: 300 });
        if (res.status === 201) return res.body.data;
        expect(res.status).toBe(204);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('no task became claimable');
    };
    const end = (leaseId: string, body: Record<string, unknown>) => http().patch(`/api/v1/agents/${agentId}/leases/${leaseId}`).set('X-API-Key', secret).send(body);
    /** Claims the next task and fails it for good (its only attempt). */
    const fail = async (error: string) => {
      const lease = await claim();
      await end(lease.id, { status: 'failed', error }).expect(200);
      return lease.task_id;
    };
    return { claim, end, fail };
  };

  it('when two failed rows and a queued one are retried together, then one batch request retries the failed two, the report names the refused one in the service’s words, and the API has them queued; cancelled together, the same', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'retrier');
    const first = await world.createTask(owner, agent.id, { title: 'fails first', max_attempts: 1 });
    const second = await world.createTask(owner, agent.id, { title: 'fails second', max_attempts: 1 });
    const worker = await workerKey(owner, agent.id);
    expect(await worker.fail('the site was down')).toBe(first.id);
    expect(await worker.fail('the site was down')).toBe(second.id);
    const waiting = await world.createTask(owner, agent.id, { title: 'waiting' });

    const context = await world.signedIn(owner, WIDTHS.laptop);
    const changes: string[] = [];
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() !== 'GET' && url.pathname.startsWith('/api/v1/agents/')) changes.push(`${request.method()} ${url.pathname.replace(agent.id, '{agent}')}`);
    });
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    await taskRow(page, 'waiting').waitFor();
    expect(await textOf(taskRow(page, 'fails first').locator('.status'))).toBe('failed');
    for (const title of ['fails first', 'fails second', 'waiting']) await page.getByRole('checkbox', { name: `Select ${title}` }).check();
    expect(await textOf(page.locator('.bulk-count'))).toBe('3 selected: 1 can be cancelled, 2 retried');

    await page.getByRole('button', { name: /^Retry selected/ }).click();
    const retried = page.getByRole('region', { name: /retried/ });
    await retried.waitFor();
    expect(await textOf(retried.getByRole('heading'))).toBe('2 of 3 retried; 1 refused');
    const lines = (await retried.locator('li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(lines.sort()).toEqual(
      ['Retried: fails first (failed → queued)', 'Retried: fails second (failed → queued)', 'Refused: waiting (A queued task cannot be retried: only a failed or cancelled one)'].sort(),
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bulk-report-title');
    expect(await textOf(taskRow(page, 'fails first').locator('.status'))).toBe('queued');
    expect(await textOf(taskRow(page, 'fails second').locator('.status'))).toBe('queued');
    expect(await page.locator('.task-table tbody input:checked').count()).toBe(0);
    // One request for the three, and no task's own.
    expect(changes).toEqual(['POST /api/v1/agents/{agent}/task-batches']);
    // Queued again, with one more attempt allowed (their only one was spent); the refused one as it was.
    for (const id of [first.id, second.id]) expect(await taskOf(owner, agent.id, id)).toMatchObject({ status: 'queued', attempts: 1, max_attempts: 2 });
    expect(await taskOf(owner, agent.id, waiting.id)).toMatchObject({ status: 'queued', attempts: 0, max_attempts: 3 });

    // The three, now all queued, cancelled together: asked twice, one request again.
    for (const title of ['fails first', 'fails second', 'waiting']) await page.getByRole('checkbox', { name: `Select ${title}` }).check();
    expect(await textOf(page.locator('.bulk-count'))).toBe('3 selected: 3 can be cancelled');
    await page.getByRole('button', { name: /^Cancel selected/ }).click();
    await page.getByRole('button', { name: /^Confirm cancel of 3/ }).click();
    const cancelled = page.getByRole('region', { name: /cancelled/ });
    await cancelled.waitFor();
    expect(await textOf(cancelled.getByRole('heading'))).toBe('3 of 3 cancelled');
    expect((await cancelled.locator('li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()).sort()).toEqual(
      ['Cancelled: fails first (queued → cancelled)', 'Cancelled: fails second (queued → cancelled)', 'Cancelled: waiting (queued → cancelled)'].sort(),
    );
    expect(changes).toEqual(['POST /api/v1/agents/{agent}/task-batches', 'POST /api/v1/agents/{agent}/task-batches']);
    for (const id of [first.id, second.id, waiting.id]) expect((await taskOf(owner, agent.id, id)).status).toBe('cancelled');
    expect(report).toEqual(CLEAN_REPORT);
  }, SLOW_MS);

  it('when a task timed out at its deadline, then at 390 px its page says so in words, and by keyboard alone Retry shows the 409’s words while the agent is paused, then queues it again (the page and the API agree)', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'deadlined');
    const task = await world.createTask(owner, agent.id, { title: 'slow crawl', max_attempts: 1, timeout_seconds: 1 });
    const worker = await workerKey(owner, agent.id);
    const lease = await worker.claim();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // Too late: the service fails the task at its deadline, and the worker hears that its lease is lost.
    expect((await worker.end(lease.id, { status: 'succeeded', result: { late: true } })).status).toBe(409);
    const timedOut = await taskOf(owner, agent.id, task.id);
    expect(timedOut).toMatchObject({ status: 'failed', timeout_seconds: 1 });
    await owner.http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);

    const context = await world.signedIn(owner, WIDTHS.phone);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}/tasks/${task.id}`);
    expect(await textOf(page.locator('.task-header .status'))).toBe('failed');
    const facts = await textOf(page.locator('.task-facts'));
    expect(facts).toContain('Timeout 1 s');
    expect(facts).toMatch(/Deadline \S/);
    await page.locator('.timeline-attempt').first().waitFor();
    expect(await textOf(page.locator('.attempt-title'))).toBe('Attempt 1 · timed out');
    expect((await textOf(page.locator('.moment-end'))).replace(/\d\d:\d\d:\d\d\.\d{3}/, 'T')).toBe('T Ended: timed out (the task passed its deadline) deadline exceeded');
    expect(await page.locator('.moment-end .status-timed_out').count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);

    // By keyboard from the heading: Tab to Retry, Enter. The agent is paused: the service's 409 shows, and nothing changed.
    await page.getByRole('heading', { level: 1 }).focus();
    await tabTo(page, 'Retry task');
    await page.keyboard.press('Enter');
    expect(await textOf(page.locator('.task-actions .problem'))).toBe('Agent is paused and accepts no new task');
    expect((await taskOf(owner, agent.id, task.id)).status).toBe('failed');

    // Resumed: Space on the same button (it kept the focus) queues the task again.
    await owner.http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'idle' }).expect(200);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Retry task: slow crawl');
    await page.keyboard.press('Space');
    await page.locator('.task-header .status-queued').waitFor();
    expect(await focusedText(page, 'Queued again.')).toBe('Queued again.');
    expect(await page.getByRole('button', { name: /^Retry task/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Cancel task/ }).count()).toBe(1);
    expect(await textOf(page.locator('.task-facts'))).toContain('Attempts 1 of 2');
    expect(await textOf(page.locator('.last-error'))).toContain('Last error deadline exceeded');
    expect(await taskOf(owner, agent.id, task.id)).toMatchObject({ status: 'queued', attempts: 1, max_attempts: 2 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(report).toEqual(refusedNote('409 (Conflict)'));
  }, SLOW_MS);

  it('when a schedule is made by keyboard, then an invalid cron shows the service’s words beside the field; a cron in Asia/Tokyo shows its next run, paused shows it paused, resumed its next run again, and delete asks twice; the API agrees at each step', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'scheduler');
    const context = await world.signedIn(owner, WIDTHS.laptop);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    const section = page.locator('.agent-schedules');
    expect(await textOf(section.locator('.empty'))).toContain('No schedules. A schedule queues a task on this agent at set times');

    const open = section.getByRole('button', { name: 'New schedule' });
    await press(page, open, 'Enter');
    expect(await open.getAttribute('aria-expanded')).toBe('true');
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.waitFor();
    // From the button, every field by Tab, in order.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent)).toMatch(/^Schedule name/);
    await page.keyboard.type('Morning report');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('cron');
    await page.keyboard.press('Tab');
    await page.keyboard.type('0 0 31 2 *');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Asia/Tokyo');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Morning report');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('7');
    await page.keyboard.press('Tab');
    await page.keyboard.type('600');
    await page.keyboard.press('Enter');

    // 31 February never comes: the service says so, beside the cron field, which takes the focus.
    const cronField = form.getByLabel(/^Cron expression/);
    await form.locator('#new-schedule-cron-problem').waitFor();
    expect(await textOf(form.locator('#new-schedule-cron-problem'))).toBe('never fires (no date matches it)');
    expect(await cronField.getAttribute('aria-invalid')).toBe('true');
    expect(await cronField.getAttribute('aria-describedby')).toBe('new-schedule-cron-problem');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'))).toBe('new-schedule-cron-problem');
    expect(await form.locator('.problem').count()).toBe(0);
    expect(await schedulesOf(owner, agent.id)).toEqual([]);

    await page.keyboard.press('Control+a');
    await page.keyboard.type('30 9 * * *');
    await page.keyboard.press('Enter');
    const item = section.locator('.schedule', { has: page.getByRole('heading', { name: 'Morning report' }) });
    await item.waitFor();
    expect(await textOf(section.locator('.schedules-said'))).toBe('Added the schedule “Morning report”.');
    expect(await form.locator('.field-problem').count()).toBe(0);
    const [created] = await schedulesOf(owner, agent.id);
    expect(created).toMatchObject({ name: 'Morning report', cron: '30 9 * * *', timezone: 'Asia/Tokyo', interval_seconds: null, paused: false, template: { title: 'Morning report', priority: 7, timeout_seconds: 600 } });
    expect(created?.next_run_at).toEqual(expect.any(String));
    expect(await textOf(item.locator('.status'))).toBe('active');
    expect(await textOf(item.locator('.schedule-timing'))).toBe('30 9 * * * in Asia/Tokyo');
    expect(await textOf(item.locator('.schedule-template'))).toBe('“Morning report”, priority 7, timeout 10 min');
    expect(await textOf(item.locator('.schedule-last'))).toBe('never');
    // Its next run as the service has it, and 09:30 in Tokyo, whatever the browser's own zone.
    expect(await item.locator('.schedule-next time').getAttribute('datetime')).toBe(created?.next_run_at);
    expect(await textOf(item.locator('.schedule-next'))).toMatch(/\(in \d+ (s|min|h); [A-Z][a-z]{2} 09:30 in Asia\/Tokyo\)$/);

    // Pause, by keyboard: paused on the page and in the API; the same button (still focused) now resumes.
    await press(page, item.getByRole('button', { name: 'Pause: schedule Morning report' }), 'Enter');
    await item.locator('.status-paused').waitFor();
    expect(await textOf(item.locator('.schedule-next'))).toBe('paused: it fires nothing until resumed');
    expect((await schedulesOf(owner, agent.id))[0]).toMatchObject({ paused: true, next_run_at: null });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Resume: schedule Morning report');
    await page.keyboard.press('Space');
    await item.locator('.status-active').waitFor();
    const [resumed] = await schedulesOf(owner, agent.id);
    expect(resumed).toMatchObject({ paused: false, next_run_at: expect.any(String) });
    expect(await item.locator('.schedule-next time').getAttribute('datetime')).toBe(resumed?.next_run_at);

    // Delete: Tab to it, Enter, and Enter again on "Confirm delete" (which takes the focus).
    await tabTo(page, 'Delete: schedule Morning report');
    await page.keyboard.press('Enter');
    expect(await focusedText(page, 'Confirm delete')).toBe('Confirm delete');
    expect(await textOf(item.locator('.confirm-warning'))).toBe('It will fire no more; the tasks it created stay.');
    await page.keyboard.press('Enter');
    await item.waitFor({ state: 'detached' });
    expect(await textOf(section.locator('.schedules-said'))).toBe('Deleted the schedule “Morning report”.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('schedules-title');
    expect(await schedulesOf(owner, agent.id)).toEqual([]);
    expect(report).toEqual(refusedNote('400 (Bad Request)'));
  }, SLOW_MS);

  it('when a schedule has fired and then been refused (its agent paused), then at 390 px its last run links to the task it made and its last error shows; that task’s page names the schedule, and nothing (the forms opened in place included) scrolls sideways', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'swept');
    const made = await owner.http
      .post(`/api/v1/agents/${agent.id}/schedules`)
      .send({ name: 'Hourly sweep of every mirror in the fleet', interval_seconds: 3600, overlap: 'allow', template: { title: 'sweep the mirrors', priority: 3, timeout_seconds: 120 } })
      .expect(201);
    const schedule = made.body.data as ApiSchedule;
    // The service's own firing, as its poll would run it at the schedule's next run.
    const fire = (at: string) => fireDueSchedules(createStore(world.testApp.database.db), { quotas: world.testApp.config.quotas }, at);
    expect(await fire(schedule.next_run_at as string)).toBe(1);
    const [fired] = await schedulesOf(owner, agent.id);
    expect(fired?.last_task_id).toEqual(expect.any(String));
    await owner.http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
    expect(await fire(fired?.next_run_at as string)).toBe(1);
    const [refused] = await schedulesOf(owner, agent.id);
    expect(refused).toMatchObject({ last_task_id: fired?.last_task_id, last_error: expect.stringContaining('paused') });

    const context = await world.signedIn(owner, WIDTHS.phone);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    const item = page.locator('.schedule', { has: page.getByRole('heading', { name: 'Hourly sweep of every mirror in the fleet' }) });
    await item.waitFor();
    expect(await textOf(item.locator('.schedule-timing'))).toBe('every 1 h');
    expect(await textOf(item.locator('.schedule-template'))).toBe('“sweep the mirrors”, priority 3, timeout 2 min');
    expect(await textOf(item.locator('.task-facts'))).toContain('While its last task runs fires all the same');
    expect(await item.locator('.schedule-last time').getAttribute('datetime')).toBe(refused?.last_run_at);
    expect(await textOf(item.locator('.schedule-error'))).toBe(`Its last firing made no task: ${refused?.last_error}`);
    const link = item.getByRole('link', { name: 'its last task' });
    expect(await link.getAttribute('href')).toBe(`#/agents/${agent.id}/tasks/${fired?.last_task_id}`);
    expect(await scrollsSideways(page)).toBe(false);
    // The forms that open in place fit too: a schedule's (both timings) and the concurrency's.
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel(/^Cron expression/).fill('0 0 31 2 *');
    await form.getByLabel(/^Title of each task/).fill('never');
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await form.locator('.field-problem').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await form.getByRole('radio', { name: 'At an interval' }).check();
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('button', { name: 'Change max concurrency' }).click();
    expect(await scrollsSideways(page)).toBe(false);

    await link.click();
    await page.getByRole('heading', { level: 1, name: 'sweep the mirrors' }).waitFor();
    const facts = page.locator('.task-facts');
    expect(await textOf(facts)).toContain('Timeout 2 min from its first lease');
    await facts.getByRole('link', { name: 'Hourly sweep of every mirror in the fleet' }).waitFor();
    expect(await facts.getByRole('link', { name: 'Hourly sweep of every mirror in the fleet' }).getAttribute('href')).toBe(`#/agents/${agent.id}`);
    expect(await textOf(facts)).toContain('Created by schedule Hourly sweep of every mirror in the fleet');
    expect(await taskOf(owner, agent.id, fired?.last_task_id as string)).toMatchObject({ schedule_id: schedule.id, timeout_seconds: 120 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(report).toEqual(refusedNote('400 (Bad Request)'));
  }, SLOW_MS);

  it('when max concurrency is changed on the agent’s page, then it reads back from the API (a number, then no limit); a task added to run later with a timeout is scheduled for that time, counted as scheduled, and a time too far ahead is refused beside its field', async () => {
    const owner = await world.testApp.signUp();
    const agent = await world.createAgent(owner, 'limited');
    const context = await world.signedIn(owner, WIDTHS.laptop);
    const { page, report } = await world.openConsole(context, `#/agents/${agent.id}`);
    const fact = page.locator('.concurrency');
    expect(await textOf(fact)).toBe('Max concurrency no limit Change');

    await fact.getByRole('button', { name: 'Change max concurrency' }).click();
    const limit = fact.getByLabel(/^Tasks at once/);
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent)).toMatch(/^Tasks at once/);
    await limit.fill('3');
    await fact.getByRole('button', { name: 'Save' }).click();
    await fact.locator('.concurrency-value').waitFor();
    expect(await textOf(fact.locator('.concurrency-value'))).toBe('at most 3 at once');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Change max concurrency');
    expect((await owner.http.get(`/api/v1/agents/${agent.id}`).expect(200)).body.data.max_concurrency).toBe(3);

    await page.keyboard.press('Enter');
    expect(await limit.inputValue()).toBe('3');
    await limit.fill('');
    await page.keyboard.press('Enter');
    await fact.locator('.concurrency-value').waitFor();
    expect(await textOf(fact.locator('.concurrency-value'))).toBe('no limit');
    expect((await owner.http.get(`/api/v1/agents/${agent.id}`).expect(200)).body.data.max_concurrency).toBeNull();

    // A time two years ahead: the service refuses it, beside the field, and nothing is queued.
    const form = page.getByRole('form', { name: 'Add a task' });
    const localIn = (ms: number) =>
      page.evaluate((ahead) => {
        const at = new Date(Date.now() + ahead);
        at.setSeconds(0, 0);
        const pad = (value: number) => String(value).padStart(2, '0');
        return { field: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`, iso: at.toISOString() };
      }, ms);
    const tooFar = await localIn(2 * 365 * 86_400_000);
    await form.getByLabel('Title', { exact: true }).fill('nightly digest');
    await form.getByLabel(/^Run at/).fill(tooFar.field);
    await form.getByRole('button', { name: 'Add task' }).click();
    await form.locator('#new-task-run-at-problem').waitFor();
    expect(await textOf(form.locator('#new-task-run-at-problem'))).toBe('must be at most a minute in the past and at most 365 days ahead');
    expect(await form.getByLabel(/^Run at/).getAttribute('aria-invalid')).toBe('true');
    expect((await owner.http.get(`/api/v1/agents/${agent.id}/tasks`).expect(200)).body.data).toEqual([]);

    const later = await localIn(2 * 3_600_000);
    await form.getByLabel(/^Run at/).fill(later.field);
    await form.getByLabel(/^Timeout \(s\)/).fill('90');
    await form.getByRole('button', { name: 'Add task' }).click();
    await taskRow(page, 'nightly digest').waitFor();
    expect(await form.locator('.field-problem').count()).toBe(0);
    const [queued] = (await owner.http.get(`/api/v1/agents/${agent.id}/tasks`).expect(200)).body.data as ApiTask[];
    expect(queued).toMatchObject({ title: 'nightly digest', status: 'queued', run_at: later.iso, available_at: later.iso, timeout_seconds: 90 });
    // The overview counts it as scheduled at its next read (every 10 s).
    await page.waitForFunction(() => document.querySelector('.agent-overview .figures')?.textContent?.includes('+1 scheduled or backing off'), undefined, { timeout: 15_000 });
    expect(await textOf(page.locator('.agent-overview .figure').first())).toBe('Queued 0 +1 scheduled or backing off');

    await taskRow(page, 'nightly digest').getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'nightly digest' }).waitFor();
    const facts = page.locator('.task-facts');
    expect(await textOf(facts)).toMatch(/Scheduled for .+ \(in 2 h\)/);
    expect(await facts.locator('time').filter({ hasText: /\S/ }).evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))).toContain(later.iso);
    expect(await textOf(facts)).toContain('Timeout 90 s from its first lease');
    expect(report).toEqual(refusedNote('400 (Bad Request)'));
  }, SLOW_MS);
});
