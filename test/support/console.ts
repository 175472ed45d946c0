import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Config } from '../../src/config/config';
import { createAgentFleetClient, createWorker, type TaskHandler, type Worker } from '../../src/client';
import { freePort, launchChromium, serveOverHttp, watchedPage, type PageReport, type ServedApp } from './browser';
import { startTestApp, testConfig, TEST_API_KEY, type DatabaseKind, type SignedInUser, type TestApp } from './harness';

/** The two widths the console is made for: a phone and a laptop. */
export const WIDTHS = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } } as const;

export interface ConsoleWorld {
  testApp: TestApp;
  served: ServedApp;
  /** `http://127.0.0.1:<port>`: the service's PUBLIC_URL, so the page's changes pass the Origin check. */
  origin: string;
  browser: Browser;
  /** A new browser context signed in as `user` (the session cookie, as the sign-in form sets it); closed by `closeContexts`. */
  signedIn(user: SignedInUser, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** A new browser context signed in as nobody; closed by `closeContexts`. */
  newContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** Closes every context `signedIn` and `newContext` made (after each test). */
  closeContexts(): Promise<void>;
  /** Opens the console at `hash` in `context`, watching for foreign requests, CSP violations and errors; waits until its event stream is live. */
  openConsole(context: BrowserContext, hash?: string): Promise<{ page: Page; report: PageReport }>;
  /** Creates an agent owned by `user` through the API. */
  createAgent(user: SignedInUser, name: string): Promise<{ id: string; name: string }>;
  /** Creates a task for an agent through the API. */
  createTask(user: SignedInUser, agentId: string, body: Record<string, unknown>): Promise<{ id: string; title: string }>;
  /** A worker of the typed client (service key) taking the agent's tasks over real HTTP. */
  startWorker(agentId: string, handler: TaskHandler): Promise<Worker>;
  close(): Promise<void>;
}

/** The service on a real loopback port and Chromium, for the console's suites; `overrides` change its configuration (its origin stays the one trusted). */
export async function startConsoleWorld(kind: DatabaseKind = 'sqlite', overrides: Partial<Config> = {}): Promise<ConsoleWorld> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const base = testConfig();
  const testApp = await startTestApp(kind, { ...overrides, publicUrl: origin, auth: { ...(overrides.auth ?? base.auth), trustedOrigins: [origin] } });
  const served = await serveOverHttp(testApp.app, port);
  const browser = await launchChromium();
  const workers: Worker[] = [];
  const contexts = new Set<BrowserContext>();

  const newContext: ConsoleWorld['newContext'] = async (viewport = WIDTHS.laptop) => {
    const context = await browser.newContext({ viewport });
    contexts.add(context);
    return context;
  };
  const closeContexts = async () => {
    const open = [...contexts];
    contexts.clear();
    await Promise.all(open.map((context) => context.close()));
  };
  const signedIn: ConsoleWorld['signedIn'] = async (user, viewport = WIDTHS.laptop) => {
    const context = await newContext(viewport);
    const answer = await context.request.post(`${origin}/api/auth/login`, { data: { email: user.user.email, password: user.password }, headers: { Origin: origin } });
    if (answer.status() !== 200) throw new Error(`sign-in answered ${answer.status()}: ${await answer.text()}`);
    return context;
  };
  const openConsole: ConsoleWorld['openConsole'] = async (context, hash = '#/') => {
    const watched = await watchedPage(context, origin);
    await watched.page.goto(`${origin}/${hash}`);
    await watched.page.locator('.live-live:not(.log-state)').waitFor();
    // The view's first read done: a loaded machine can keep its loading state past the stream's start.
    await watched.page.waitForFunction(() => document.querySelector('.loading') === null, undefined, { timeout: 15_000 });
    return watched;
  };
  const createAgent: ConsoleWorld['createAgent'] = async (user, name) => {
    const res = await user.http.post('/api/v1/agents').send({ name, type: 'type_a' });
    if (res.status !== 201) throw new Error(`create agent answered ${res.status}`);
    return res.body.data as { id: string; name: string };
  };
  const createTask: ConsoleWorld['createTask'] = async (user, agentId, body) => {
    const res = await user.http.post(`/api/v1/agents/${agentId}/tasks`).send(body);
    if (res.status !== 201) throw new Error(`create task answered ${res.status}: ${res.text}`);
    return res.body.data as { id: string; title: string };
  };
  const startWorker: ConsoleWorld['startWorker'] = async (agentId, handler) => {
    const client = createAgentFleetClient({ baseUrl: origin, auth: { apiKey: TEST_API_KEY } });
    const worker = createWorker(client, { agentId, handler, waitSeconds: 1 });
    workers.push(worker);
    return worker.start();
  };
  return {
    testApp,
    served,
    origin,
    browser,
    signedIn,
    newContext,
    closeContexts,
    openConsole,
    createAgent,
    createTask,
    startWorker,
    close: async () => {
      await Promise.all(workers.map((worker) => worker.stop({ graceful: false }).catch(() => undefined)));
      await closeContexts();
      await browser.close();
      await served.close();
      await testApp.close();
    },
  };
}

/**
 * The suite's console world, started before its tests and closed after them; the browser contexts
 * a test opens through it close after that test. Read it only inside tests and hooks.
 */
export function useConsoleWorld(kind: DatabaseKind = 'sqlite', overrides: Partial<Config> = {}): ConsoleWorld {
  let started: ConsoleWorld | undefined;
  beforeAll(async () => {
    started = await startConsoleWorld(kind, overrides);
  }, 60_000);
  afterEach(async () => {
    await started?.closeContexts();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as ConsoleWorld, {
    get: (_target, key) => {
      if (!started) throw new Error('the console world starts in beforeAll: read it inside a test or hook');
      return Reflect.get(started, key);
    },
  });
}

/**
 * Waits until the view has read what it shows (no loading message left). The console's event
 * stream keeps one request open for good, so Playwright's `networkidle` never comes.
 */
export async function settled(page: Page): Promise<void> {
  await page.locator('.live-live:not(.log-state)').waitFor();
  await page.waitForFunction(() => document.querySelector('.loading') === null);
}

/** Whether anything on the page overflows the viewport sideways (the page would scroll horizontally). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** The text of a locator once it is visible, white space collapsed. */
export async function textOf(locator: Locator): Promise<string> {
  await locator.first().waitFor();
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * The text of the focused element once it reads `expected`, else whatever it reads after 5 s: a
 * view moves focus in the render after the one that shows the element, and a loaded machine can
 * put a frame between them.
 */
export async function focusedText(page: Page, expected: string): Promise<string | undefined> {
  await page.waitForFunction((text) => document.activeElement?.textContent === text, expected, { timeout: 5000 }).catch(() => undefined);
  return page.evaluate(() => document.activeElement?.textContent ?? undefined);
}
