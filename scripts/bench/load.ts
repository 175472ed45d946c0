/** The routes the benchmark drives, and one autocannon run against one app. */
import autocannon from 'autocannon';
import type { RunningApp } from './apps';

export type RouteKey = 'get-one' | 'list' | 'post' | 'post-task';

export interface Route {
  key: RouteKey;
  name: string;
  requests(app: RunningApp): autocannon.Request[];
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
