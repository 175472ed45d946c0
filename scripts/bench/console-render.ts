/**
 * How fast the console shows a busy agent's task table: the service (dist/, as `npm start` runs
 * it, on a fresh SQLite file) with one person whose agent has `tasks` tasks, and Chromium opening
 * the agent's page in a new context (nothing cached) `runs` times. Each run measures, in the
 * page's own clock (milliseconds from the navigation's start):
 * - `tableMs`: the table's first page of rows in the document, read and no longer busy;
 * - `paintedMs`: the frame after it (the rows on screen);
 * - `tasksReadMs`: when the answer of the tasks' read had arrived (the rest is the page's own work).
 * `npm run bench` can call measureConsoleRender(); run alone it builds the service first
 * (`--no-build` skips that) and prints the figures (`--json` as JSON):
 *
 *   tsx scripts/bench/console-render.ts --tasks=500 --runs=5
 *
 * No figure here is asserted anywhere: a test only says the table renders, not how fast.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createAgentFleetClient, unwrap } from '../../src/client';
import { APPS, buildService, startApp, stopApp } from './apps';

export interface ConsoleRenderOptions {
  /** Tasks of the agent (default 500). */
  tasks?: number;
  /** Page loads measured (default 5). */
  runs?: number;
  /** Chromium's executable (default CHROMIUM_PATH, else /usr/bin/chromium). */
  chromiumPath?: string;
}

export interface ConsoleRenderRun {
  tableMs: number;
  paintedMs: number;
  tasksReadMs: number;
}

export interface ConsoleRenderResult {
  tasks: number;
  /** Rows the table's first page shows. */
  rows: number;
  runs: ConsoleRenderRun[];
  median: ConsoleRenderRun;
}

const PERSON = { name: 'Bench Person', email: 'bench@example.com', password: 'console render bench 2024' };
const API_KEY = 'console-render-bench-key-0123456789';
/** As the console's table: its first page. */
const PAGE_ROWS = 50;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Creates the person, the agent and its tasks through the API, `atOnce` requests at a time. */
async function seed(base: string, tasks: number, atOnce = 16): Promise<string> {
  await unwrap(createAgentFleetClient({ baseUrl: base }).POST('/api/v1/users', { body: PERSON }));
  const person = createAgentFleetClient({ baseUrl: base, auth: { username: PERSON.email, password: PERSON.password } });
  const agent = (await unwrap(person.POST('/api/v1/agents', { body: { name: 'busy agent', type: 'type_a' } }))).data;
  let next = 0;
  const lane = async () => {
    while (next < tasks) {
      const index = (next += 1);
      await unwrap(
        person.POST('/api/v1/agents/{agent_id}/tasks', {
          params: { path: { agent_id: agent.id } },
          body: { title: `task ${index}`, priority: index % 11, input: { url: `https://example.com/pages/${index}`, depth: index % 4 } },
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: atOnce }, lane));
  return agent.id;
}

/** Starts the service (built already: see buildService), seeds it, and measures `runs` first renders of the agent's task table. */
export async function measureConsoleRender(options: ConsoleRenderOptions = {}): Promise<ConsoleRenderResult> {
  const tasks = options.tasks ?? 500;
  const runs = options.runs ?? 5;
  const rows = Math.min(PAGE_ROWS, tasks);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-console-render-'));
  const app = await startApp(APPS.service, { dir, apiKey: API_KEY, env: { LOG_LEVEL: 'warn', RATE_LIMIT_API_MAX: '1000000', RATE_LIMIT_USER_MAX: '1000000', RATE_LIMIT_LOGIN_MAX: '1000000' } });
  const base = `http://127.0.0.1:${app.port}`;
  const browser = await chromium.launch({ executablePath: options.chromiumPath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const agentId = await seed(base, tasks);
    const measured: ConsoleRenderRun[] = [];
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const login = await context.request.post(`${base}/api/auth/login`, { data: { email: PERSON.email, password: PERSON.password }, headers: { Origin: base } });
      if (!login.ok()) throw new Error(`sign-in answered ${login.status()}`);
      // Runs before the page's own script: notes when the rows are in the document, then the frame after.
      await context.addInitScript((wanted: number) => {
        const marks = window as unknown as { tableAt?: number; paintedAt?: number };
        const observer = new MutationObserver(() => {
          if (document.querySelectorAll('.task-table[aria-busy="false"] tbody tr').length < wanted) return;
          observer.disconnect();
          marks.tableAt = performance.now();
          requestAnimationFrame(() => (marks.paintedAt = performance.now()));
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true });
      }, rows);
      const page = await context.newPage();
      await page.goto(`${base}/#/agents/${agentId}`);
      await page.waitForFunction(() => (window as unknown as { paintedAt?: number }).paintedAt !== undefined, undefined, { timeout: 30_000 });
      measured.push(
        await page.evaluate(() => {
          const marks = window as unknown as { tableAt: number; paintedAt: number };
          const read = performance.getEntriesByType('resource').find((entry) => /\/api\/v1\/agents\/[^/]+\/tasks\?/.test(entry.name)) as PerformanceResourceTiming | undefined;
          return { tableMs: marks.tableAt, paintedMs: marks.paintedAt, tasksReadMs: read?.responseEnd ?? Number.NaN };
        }),
      );
      await context.close();
    }
    return {
      tasks,
      rows,
      runs: measured,
      median: {
        tableMs: median(measured.map((run) => run.tableMs)),
        paintedMs: median(measured.map((run) => run.paintedMs)),
        tasksReadMs: median(measured.map((run) => run.tasksReadMs)),
      },
    };
  } finally {
    await browser.close();
    await stopApp(app);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures in a line a report can quote. */
export function renderConsoleRender(result: ConsoleRenderResult): string {
  const ms = (value: number) => `${Math.round(value)} ms`;
  return (
    `Console task table, ${result.tasks} tasks (first page of ${result.rows} rows), median of ${result.runs.length} cold loads: ` +
    `rows in the document ${ms(result.median.tableMs)} after navigation, on screen ${ms(result.median.paintedMs)}; the tasks' read answered at ${ms(result.median.tasksReadMs)}.`
  );
}

if (require.main === module) {
  const flag = (name: string): string | undefined => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const options: ConsoleRenderOptions = { tasks: Number(flag('tasks') ?? 500), runs: Number(flag('runs') ?? 5) };
  if (!process.argv.includes('--no-build')) buildService();
  measureConsoleRender(options).then(
    (result) => console.log(process.argv.includes('--json') ? JSON.stringify(result, null, 2) : renderConsoleRender(result)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
