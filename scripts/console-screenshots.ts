/**
 * The README's pictures of the console: `npm run screenshots` starts the service (as `npm start`
 * does, on a fresh SQLite file), gives one person a small fleet through the typed client (agents,
 * tasks that workers finish, retry or fail with log lines and usage, a worker holding a task, a
 * key, schedules, a limit on concurrency, a webhook with deliveries), and photographs each view in
 * Chromium at 1280 px (an agent's overview, its task table, its schedules and a task's page among
 * them) and the fleet and an agent at 390 px,
 * into docs/images/. It needs no network: Chromium and the service run on this machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createAgentFleetClient, createWorker, PermanentError, unwrap, type AgentFleetClient, type components } from '../src/client';

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'docs', 'images');
const SERVICE_KEY = 'screenshots-service-key-0123456789';
const PERSON = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine 1843' };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startService(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/process/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATABASE_URL: `sqlite://${path.join(dir, 'fleet.sqlite')}`,
      API_KEYS: SERVICE_KEY,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // A retried task is claimable again at once, so that the pictured task has two attempts.
      LEASE_RETRY_BASE_MS: '100',
      LEASE_RETRY_MAX_MS: '200',
      RATE_LIMIT_API_MAX: '100000',
      RATE_LIMIT_USER_MAX: '100000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const ready = await fetch(`http://localhost:${port}/health/ready`).then((res) => res.ok, () => false);
    if (ready) return child;
    await delay(200);
  }
  child.kill();
  throw new Error('the service did not become ready');
}

/** A webhook receiver on loopback: answers 200, or 500 to every third delivery (a retry to show). */
async function startReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    count += 1;
    res.writeHead(count % 3 === 0 ? 500 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/fleet`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function giveAFleet(base: string, receiverUrl: string): Promise<{ person: AgentFleetClient; crawlerId: string; webhookId: string; retriedId: string }> {
  const anonymous = createAgentFleetClient({ baseUrl: base });
  await unwrap(anonymous.POST('/api/v1/users', { body: PERSON }));
  const person = createAgentFleetClient({ baseUrl: base, auth: { username: PERSON.email, password: PERSON.password } });
  const agent = async (name: string, type: 'type_a' | 'type_b' | 'type_c') => (await unwrap(person.POST('/api/v1/agents', { body: { name, type } }))).data;
  const crawler = await agent('crawler', 'type_a');
  const summarizer = await agent('summarizer', 'type_b');
  const translator = await agent('translator', 'type_c');
  await agent('reviewer', 'type_b');
  const webhook = (await unwrap(person.POST('/api/v1/webhooks', { body: { url: receiverUrl, description: 'Ops alerts' } }))).data;
  const crawlerKey = (await unwrap(person.POST('/api/v1/agents/{agent_id}/keys', { params: { path: { agent_id: crawler.id } }, body: { name: 'crawler on host-7' } }))).data;
  await unwrap(person.PATCH('/api/v1/agents/{agent_id}', { params: { path: { agent_id: crawler.id } }, body: { max_concurrency: 4 } }));
  // Its schedules: one on weekday mornings in Paris, one at an interval, one paused.
  const schedule = (body: components['schemas']['ScheduleCreate']) => unwrap(person.POST('/api/v1/agents/{agent_id}/schedules', { params: { path: { agent_id: crawler.id } }, body }));
  await schedule({ name: 'Morning sweep', cron: '30 6 * * MON-FRI', timezone: 'Europe/Paris', template: { title: 'Crawl the whole site', priority: 7, timeout_seconds: 1800 } });
  await schedule({ name: 'Status check', interval_seconds: 900, template: { title: 'Crawl /status', priority: 10, timeout_seconds: 60 } });
  await schedule({ name: 'Weekly archive', cron: '0 3 * * SUN', timezone: 'UTC', paused: true, template: { title: 'Archive last week’s pages', priority: 2 } });

  const task = (agentId: string, title: string, input: Record<string, unknown>, more: { max_attempts?: number; priority?: number } = {}) =>
    unwrap(person.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: agentId } }, body: { title, input, max_attempts: 1, ...more } }));
  for (const [n, page] of ['home', 'pricing', 'docs', 'blog', 'careers'].entries()) await task(crawler.id, `Crawl /${page}`, { url: `https://example.com/${page}`, depth: n % 3 });
  await task(crawler.id, 'Crawl /private', { url: 'https://example.com/private' });
  // Fails its first attempt (the site is busy), succeeds its second: the task page's picture.
  const retried = (await task(crawler.id, 'Crawl /changelog', { url: 'https://example.com/changelog', depth: 2 }, { max_attempts: 3, priority: 9 })).data;
  for (const doc of ['Q3 report', 'Incident 4121', 'Board minutes']) await task(summarizer.id, `Summarise ${doc}`, { document: doc.toLowerCase().replace(/ /g, '-') });
  await task(translator.id, 'Translate release notes to German', { language: 'de' });

  const service = createAgentFleetClient({ baseUrl: base, auth: { apiKey: SERVICE_KEY } });
  // The crawler's worker signs in with the crawler's own key: the console names it by the key's name.
  const crawlerWorker = createAgentFleetClient({ baseUrl: base, auth: { apiKey: crawlerKey.secret } });
  const workers = [
    [crawlerWorker, crawler.id],
    [service, summarizer.id],
  ].map(([client, agentId]) =>
    createWorker(client as AgentFleetClient, {
      agentId: agentId as string,
      waitSeconds: 1,
      logs: { flushMs: 50 },
      handler: async (work, { log, usage, progress }) => {
        const url = (work.input as { url?: string } | null)?.url ?? work.title;
        log.info(`fetching ${url}`);
        await delay(60);
        log.debug('robots.txt allows it', { rules: 14, crawl_delay_s: 1 });
        await progress({ percent: 50, message: 'parsing the page' });
        usage({ input_tokens: 1_800 + work.title.length * 40, output_tokens: 240, cost_usd: 0.0042, model: 'fleet-small-2' });
        await delay(90);
        if (work.title === 'Crawl /private') {
          log.error('403 Forbidden', { status: 403 });
          throw new PermanentError('403 Forbidden from https://example.com/private: the crawler has no credentials for it');
        }
        if (work.title === 'Crawl /changelog' && work.attempts === 1) {
          log.warn('503 Service Unavailable: the site asks to come back in a minute', { status: 503, retry_after_s: 60 });
          throw new Error('503 Service Unavailable from https://example.com/changelog');
        }
        log.info('done', { links: 87 });
        return work.title.startsWith('Crawl') ? { pages: 12, links: 87, bytes: 418_204 } : { summary: 'Revenue grew 12 %; two risks named.', words: 212 };
      },
    }),
  );
  await Promise.all(workers.map((worker) => worker.start()));
  await delay(4000);
  await Promise.all(workers.map((worker) => worker.stop()));
  // Queued work left for the pictures (one called off), and a task a worker is on, halfway.
  for (const [n, post] of ['launch', 'pricing-change', 'hiring', 'q3-results', 'security-update', 'roadmap', 'outage-review', 'new-office'].entries()) {
    const queued = (await task(crawler.id, `Crawl /blog/${post}`, { url: `https://example.com/blog/${post}` }, { priority: (n * 3) % 11 })).data;
    if (post === 'hiring') await unwrap(person.PATCH('/api/v1/agents/{agent_id}/tasks/{task_id}', { params: { path: { agent_id: crawler.id, task_id: queued.id } }, body: { status: 'cancelled' } }));
  }
  await task(crawler.id, 'Crawl /status', { url: 'https://example.com/status' }, { priority: 10 });
  const claimed = await unwrap(crawlerWorker.POST('/api/v1/agents/{agent_id}/leases', { params: { path: { agent_id: crawler.id } }, body: { ttl_seconds: 300 } }));
  if (!claimed) throw new Error('the crawler had no task to hold');
  const held = claimed.data;
  await unwrap(
    crawlerWorker.PATCH('/api/v1/agents/{agent_id}/leases/{lease_id}', {
      params: { path: { agent_id: crawler.id, lease_id: held.id } },
      body: { progress: { percent: 40, message: 'page 4 of 10' }, usage: { input_tokens: 2_400, output_tokens: 310, cost_usd: 0.0051, model: 'fleet-small-2' } },
    }),
  );
  await unwrap(service.POST('/api/v1/agents/{agent_id}/leases', { params: { path: { agent_id: translator.id } }, body: { ttl_seconds: 300 } }));
  return { person, crawlerId: crawler.id, webhookId: webhook.id, retriedId: retried.id };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-screenshots-'));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const service = await startService(port, dir);
  const receiver = await startReceiver();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const { crawlerId, webhookId, retriedId } = await giveAFleet(base, receiver.url);
    mkdirSync(out, { recursive: true });
    // Each picture: its name, the view, the width, and the part of the view to scroll to (its top when none).
    const shots: Array<[string, string, number, string?]> = [
      ['console-fleet', '#/', 1280],
      ['console-agent', `#/agents/${crawlerId}`, 1280],
      ['console-tasks', `#/agents/${crawlerId}`, 1280, '.agent-tasks'],
      ['console-schedules', `#/agents/${crawlerId}`, 1280, '.agent-schedules'],
      ['console-task', `#/agents/${crawlerId}/tasks/${retriedId}`, 1280],
      ['console-events', '#/events', 1280],
      ['console-webhook', `#/webhooks/${webhookId}`, 1280],
      ['console-fleet-phone', '#/', 390],
      ['console-agent-phone', `#/agents/${crawlerId}`, 390],
    ];
    for (const [name, hash, width, part] of shots) {
      const context = await browser.newContext({ viewport: { width, height: width > 400 ? 820 : 844 }, deviceScaleFactor: 1 });
      await context.request.post(`${base}/api/auth/login`, { data: { email: PERSON.email, password: PERSON.password }, headers: { Origin: base } });
      const page = await context.newPage();
      await page.goto(`${base}/${hash}`);
      // The event stream stays open: the view is ready when nothing says it is loading.
      await page.locator('.live-live').waitFor();
      await page.waitForFunction(() => document.querySelector('.loading') === null);
      if (part) await page.locator(part).evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await delay(300);
      await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: false });
      await context.close();
      console.log(`docs/images/${name}.png`);
    }
  } finally {
    await browser.close();
    await receiver.close();
    service.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
