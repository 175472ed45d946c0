/**
 * The README's pictures of the console: `npm run screenshots` starts the service (as `npm start`
 * does, on a fresh SQLite file), gives one person a small fleet through the typed client (agents,
 * tasks that a worker finishes or fails, a key, a webhook with deliveries), and photographs each
 * view in Chromium at 1280 px and the fleet and an agent at 390 px, into docs/images/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createAgentFleetClient, createWorker, PermanentError, unwrap, type AgentFleetClient } from '../src/client';

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

async function giveAFleet(base: string, receiverUrl: string): Promise<{ person: AgentFleetClient; crawlerId: string; webhookId: string }> {
  const anonymous = createAgentFleetClient({ baseUrl: base });
  await unwrap(anonymous.POST('/api/v1/users', { body: PERSON }));
  const person = createAgentFleetClient({ baseUrl: base, auth: { username: PERSON.email, password: PERSON.password } });
  const agent = async (name: string, type: 'type_a' | 'type_b' | 'type_c') => (await unwrap(person.POST('/api/v1/agents', { body: { name, type } }))).data;
  const crawler = await agent('crawler', 'type_a');
  const summarizer = await agent('summarizer', 'type_b');
  const translator = await agent('translator', 'type_c');
  await agent('reviewer', 'type_b');
  const webhook = (await unwrap(person.POST('/api/v1/webhooks', { body: { url: receiverUrl, description: 'Ops alerts' } }))).data;
  await unwrap(person.POST('/api/v1/agents/{agent_id}/keys', { params: { path: { agent_id: crawler.id } }, body: { name: 'crawler on host-7' } }));

  const task = (agentId: string, title: string, input: Record<string, unknown>) =>
    unwrap(person.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: agentId } }, body: { title, input, max_attempts: 1 } }));
  for (const [n, page] of ['home', 'pricing', 'docs', 'blog', 'careers'].entries()) await task(crawler.id, `Crawl /${page}`, { url: `https://example.com/${page}`, depth: n % 3 });
  await task(crawler.id, 'Crawl /private', { url: 'https://example.com/private' });
  for (const doc of ['Q3 report', 'Incident 4121', 'Board minutes']) await task(summarizer.id, `Summarise ${doc}`, { document: doc.toLowerCase().replace(/ /g, '-') });
  await task(translator.id, 'Translate release notes to German', { language: 'de' });

  const service = createAgentFleetClient({ baseUrl: base, auth: { apiKey: SERVICE_KEY } });
  const workers = [crawler.id, summarizer.id].map((agentId) =>
    createWorker(service, {
      agentId,
      waitSeconds: 1,
      handler: async (work) => {
        await delay(150);
        if (work.title === 'Crawl /private') throw new PermanentError('403 Forbidden from https://example.com/private: the crawler has no credentials for it');
        return work.title.startsWith('Crawl') ? { pages: 12, links: 87, bytes: 418_204 } : { summary: 'Revenue grew 12 %; two risks named.', words: 212 };
      },
    }),
  );
  await Promise.all(workers.map((worker) => worker.start()));
  await delay(4000);
  await Promise.all(workers.map((worker) => worker.stop()));
  // Queued work left for the pictures, and one task a worker is on.
  await task(crawler.id, 'Crawl /changelog', { url: 'https://example.com/changelog' });
  await task(crawler.id, 'Crawl /status', { url: 'https://example.com/status' });
  await unwrap(service.POST('/api/v1/agents/{agent_id}/leases', { params: { path: { agent_id: translator.id } }, body: { ttl_seconds: 300 } }));
  return { person, crawlerId: crawler.id, webhookId: webhook.id };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-screenshots-'));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const service = await startService(port, dir);
  const receiver = await startReceiver();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const { crawlerId, webhookId } = await giveAFleet(base, receiver.url);
    mkdirSync(out, { recursive: true });
    const shots: Array<[string, string, number]> = [
      ['console-fleet', '#/', 1280],
      ['console-agent', `#/agents/${crawlerId}`, 1280],
      ['console-events', '#/events', 1280],
      ['console-webhook', `#/webhooks/${webhookId}`, 1280],
      ['console-fleet-phone', '#/', 390],
      ['console-agent-phone', `#/agents/${crawlerId}`, 390],
    ];
    for (const [name, hash, width] of shots) {
      const context = await browser.newContext({ viewport: { width, height: width > 400 ? 820 : 844 }, deviceScaleFactor: 1 });
      await context.request.post(`${base}/api/auth/login`, { data: { email: PERSON.email, password: PERSON.password }, headers: { Origin: base } });
      const page = await context.newPage();
      await page.goto(`${base}/${hash}`);
      // The event stream stays open: the view is ready when nothing says it is loading.
      await page.locator('.live-live').waitFor();
      await page.waitForFunction(() => document.querySelector('.loading') === null);
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
