/** The routes the benchmark drives, and one autocannon run against one app. */
import autocannon from 'autocannon';
import type { RunningApp } from './apps';
import { cpuMillisBetween, sampleCpu } from './process-tree';

export type RouteKey = 'get-one' | 'list' | 'post' | 'post-task' | 'post-logs' | 'heartbeat' | 'heartbeat-usage';

export interface Route {
  key: RouteKey;
  name: string;
  /** What the route needs before its load (leases to log through), after the app is seeded. */
  prepare?(app: RunningApp, apiKey: string): Promise<void>;
  requests(app: RunningApp): autocannon.Request[];
}

/** Leases the `post-logs` and heartbeat routes go through, round robin: each takes at most 10,000 / 100 batches before its task's log is trimmed. */
const LOG_LEASES = 400;
const logLeases: string[] = [];
let logBody = '';

/** Queues LOG_LEASES tasks on the first seeded agent and claims each for an hour. */
async function claimLeases(app: RunningApp, apiKey: string): Promise<void> {
  const agent = app.ids[0] as string;
  logLeases.length = 0;
  for (let n = 0; n < LOG_LEASES; n++) await callJson(app, apiKey, 'POST', `/api/v1/agents/${agent}/tasks`, { title: `leased ${n}` }, 201);
  for (let n = 0; n < LOG_LEASES; n++) logLeases.push((await callJson(app, apiKey, 'POST', `/api/v1/agents/${agent}/leases`, { ttl_seconds: 3600, wait_seconds: 0 }, 201)).data.id);
}

/** A heartbeat through one of the claimed leases, round robin: the same body every time. */
function heartbeatRoute(key: 'heartbeat' | 'heartbeat-usage', usage: boolean): Route {
  return {
    key,
    name: `PATCH /api/v1/agents/{id}/leases/{id} (a heartbeat${usage ? ' with usage' : ''})`,
    prepare: claimLeases,
    requests: (app) => {
      let next = 0;
      const body = JSON.stringify({ ttl_seconds: 3600, ...(usage ? { usage: { input_tokens: 1200, output_tokens: 350, cost_usd: 0.004215, model: 'bench-model-1' } } : {}) });
      return [{ method: 'PATCH', setupRequest: (request) => ({ ...request, path: `/api/v1/agents/${app.ids[0]}/leases/${logLeases[next++ % logLeases.length]}`, body }) }];
    },
  };
}

async function callJson(app: RunningApp, apiKey: string, method: string, route: string, body: unknown, expected: number): Promise<{ data: { id: string } }> {
  const res = await fetch(`http://127.0.0.1:${app.port}${route}`, { method, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify(body) });
  if (res.status !== expected) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { data: { id: string } };
}

export const ROUTES: Route[] = [
  {
    key: 'get-one',
    name: 'GET /agents/{id}',
    requests: (app) => {
      let next = 0;
      return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/agents/${app.ids[next++ % app.ids.length]}` }) }];
    },
  },
  { key: 'list', name: 'GET /agents?limit=100', requests: () => [{ method: 'GET', path: '/agents?limit=100' }] },
  {
    key: 'post',
    name: 'POST /agents',
    requests: () => {
      let next = 0;
      return [{ method: 'POST', path: '/agents', setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `bench-${next++}`, type: 'type_b' }) }) }];
    },
  },
];

/** Routes only the service has, for `bench:profile`: the comparison apps do not serve them. */
export const SERVICE_ROUTES: Route[] = [
  {
    key: 'post-task',
    name: 'POST /api/v1/agents/{id}/tasks',
    requests: (app) => {
      let next = 0;
      return [{ method: 'POST', path: `/api/v1/agents/${app.ids[0]}/tasks`, setupRequest: (request) => ({ ...request, body: JSON.stringify({ title: `bench ${next++}`, input: { n: next } }) }) }];
    },
  },
  {
    // A worker's batch of 100 log lines (the work loop's lines: level, message, at, a small data), through one of many active leases.
    key: 'post-logs',
    name: 'POST /api/v1/agents/{id}/leases/{id}/logs (100 lines)',
    async prepare(app, apiKey) {
      await claimLeases(app, apiKey);
      const at = new Date().toISOString();
      logBody = JSON.stringify({
        lines: Array.from({ length: 100 }, (_, n) => ({
          level: n % 10 === 9 ? 'warn' : 'info',
          message: `step ${n + 1} of 100: processed item 0-${n} and wrote its result to the scratch store`,
          at,
          data: { step: n + 1, of: 100, item: `0-${n}`, ms: n % 37 },
        })),
      });
    },
    requests: (app) => {
      let next = 0;
      return [{ method: 'POST', setupRequest: (request) => ({ ...request, path: `/api/v1/agents/${app.ids[0]}/leases/${logLeases[next++ % logLeases.length]}/logs`, body: logBody }) }];
    },
  },
  heartbeatRoute('heartbeat', false),
  heartbeatRoute('heartbeat-usage', true),
];

export function findRoute(key: string): Route {
  const route = [...ROUTES, ...SERVICE_ROUTES].find((candidate) => candidate.key === key);
  if (!route) throw new Error(`unknown route "${key}": use ${[...ROUTES, ...SERVICE_ROUTES].map((candidate) => candidate.key).join(', ')}`);
  return route;
}

export const REQUEST_TIMEOUT_S = 30;

export interface LoadOptions {
  connections: number;
  seconds: number;
  apiKey: string;
}

export function drive(app: RunningApp, route: Route, options: LoadOptions): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${app.port}`,
    connections: options.connections,
    duration: options.seconds,
    // As long as the service lets a request take (HTTP_REQUEST_TIMEOUT_MS): a slow answer is
    // measured in the latencies, not dropped from them as autocannon's 10 s default would.
    timeout: REQUEST_TIMEOUT_S,
    headers: { 'x-api-key': options.apiKey, 'content-type': 'application/json' },
    requests: route.requests(app),
  });
}

/** Statuses other than 2xx, timeouts and other connection errors, by name: `{"429": 120, "timeouts": 3}`. */
export function failuresOf(result: autocannon.Result): Record<string, number> {
  const failures: Record<string, number> = {};
  for (const [status, { count = 0 }] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith('2') && count > 0) failures[status] = count;
  }
  if (result.non2xx > 0 && Object.keys(failures).length === 0) failures['non-2xx'] = result.non2xx;
  // autocannon's errors include its timeouts.
  if (result.timeouts > 0) failures.timeouts = result.timeouts;
  if (result.errors > result.timeouts) failures['connection errors'] = result.errors - result.timeouts;
  return failures;
}

/** One timed autocannon run of an app, after its warm-up: req/s of 2xx, the app's CPU per answered request, the p99, and what failed. */
export interface TimedRun {
  perSecond: number;
  cpuMicrosPerRequest: number;
  p99Ms: number;
  problems: string[];
}

/** Warms `app` up with `run`, then times `durationS` seconds of it, sampling the app's CPU either side. */
export async function timeRun(app: RunningApp, run: (seconds: number) => Promise<autocannon.Result>, options: { warmupS: number; durationS: number }): Promise<TimedRun> {
  if (options.warmupS > 0) await run(options.warmupS);
  const before = sampleCpu(app.pid);
  const result = await run(options.durationS);
  const after = sampleCpu(app.pid);
  const answered = result['2xx'] + result.non2xx;
  const failures = failuresOf(result);
  return {
    perSecond: result['2xx'] / result.duration,
    cpuMicrosPerRequest: answered > 0 ? (cpuMillisBetween(before, after) * 1000) / answered : Number.NaN,
    p99Ms: result.latency.p99,
    problems: Object.keys(failures).length > 0 ? [JSON.stringify(failures)] : [],
  };
}
