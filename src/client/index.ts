import createClient, { type HeadersOptions, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../generated/api.js';
import { credentialsOf, type Auth, type RequestToken, type TokenRequest } from './auth.js';
import { AgentFleetError } from './errors.js';
import { MemoryEtagCache, type EtagCache } from './etag-cache.js';
import { eventsQuery, streamEvents, taskLogsQuery, type EventsOptions, type FleetEvent, type LogLine, type TaskLogsOptions } from './events.js';
import { serializeQuery } from './query.js';
import { createTransport, type Fetch, type RetryOptions } from './transport.js';
import type { CollectionPath, InitParam, ItemOf, Method, SuccessBody } from './types.js';

export type { components, operations, paths } from '../../generated/api.js';
export type { Auth, OAuthError, TokenRequest, TokenResponse, TokenSource } from './auth.js';
export { AgentFleetError, unwrap, type DataOf, type ErrorOf } from './errors.js';
export { MemoryEtagCache, type CachedResponse, type EtagCache } from './etag-cache.js';
export type { EventsOptions, FleetEvent, FleetEventType, LogLine, ReconnectEvent, StreamOptions, TaskLogsOptions } from './events.js';
export { serializeQuery } from './query.js';
export type { Fetch, RetryEvent, RetryOptions } from './transport.js';
export type { CollectionPath, ErrorBody, FieldsOf, HttpMethod, ItemOf, PathsWith, Sparse, SuccessBody } from './types.js';
export {
  LeaseLostError,
  PermanentError,
  createWorker,
  type Lease,
  type LeaseLostReason,
  type StopOptions,
  type Task,
  type TaskContext,
  type TaskHandler,
  type TaskProgress,
  type Worker,
  type WorkerEvent,
  type WorkerOperation,
  type WorkerOptions,
} from './worker.js';

/** The error body of everything under `/api` (the conventions surface). */
export type ApiError = components['schemas']['ApiError'];
/** The error body of the root surface (`/agents`, `/protected`, ...). */
export type RootError = components['schemas']['Error'];

export interface AgentFleetClientOptions {
  /** Where the service is, e.g. `https://fleet.example.com` (no trailing path). */
  baseUrl: string;
  auth?: Auth;
  /** Retries on 429, 503 and network errors of idempotent requests and of POSTs (sent with an `Idempotency-Key`); `false` turns them off. */
  retry?: RetryOptions | false;
  /** Revalidate repeated GETs with `If-None-Match`: `true` for an in-memory cache, or your own. */
  cache?: boolean | EtagCache;
  /** How long one attempt may wait for the answer's headers (default 30 000 ms). */
  timeoutMs?: number;
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** The fetch to send requests with (default `globalThis.fetch`). */
  fetch?: Fetch;
}

export interface AgentFleetClient {
  GET: Method<'get'>;
  POST: Method<'post'>;
  PUT: Method<'put'>;
  PATCH: Method<'patch'>;
  DELETE: Method<'delete'>;
  HEAD: Method<'head'>;
  OPTIONS: Method<'options'>;
  /** Every item of a collection, page after page (cursor, page or skip, as the collection pages). */
  paginate<P extends CollectionPath, I extends MaybeOptionalInit<paths[P], 'get'>>(url: P, ...init: InitParam<I>): AsyncGenerator<ItemOf<SuccessBody<P, 'get', I>>, void, undefined>;
  /** Every page of a collection, with its `meta`. */
  pages<P extends CollectionPath, I extends MaybeOptionalInit<paths[P], 'get'>>(url: P, ...init: InitParam<I>): AsyncGenerator<SuccessBody<P, 'get', I>, void, undefined>;
  /**
   * The fleet's events, live (`GET /api/v1/events` as Server-Sent Events): `for await (const event
   * of client.events({ agentId }))`. Reconnects by itself and resumes after the last event it
   * yielded; ends with an `AgentFleetError` when the service refuses the stream for good (401, 403,
   * 404, 410), and without one when `signal` aborts or the loop breaks.
   */
  events(options?: EventsOptions): AsyncGenerator<FleetEvent, void, undefined>;
  /**
   * A task's log lines, live (`GET .../tasks/{task_id}/logs` as Server-Sent Events): the lines it
   * keeps first, then each new one. Reconnects and resumes as `events` does.
   */
  taskLogs(agentId: string, taskId: string, options?: TaskLogsOptions): AsyncGenerator<LogLine, void, undefined>;
  /** `POST /token`, form-encoded as RFC 6749 requires. */
  requestToken: RequestToken;
  /** The ETag cache in use, if any. */
  readonly cache: EtagCache | undefined;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}

/** A typed client for the agent fleet API: every path, parameter and body checked by the compiler. */
export function createAgentFleetClient(options: AgentFleetClientOptions): AgentFleetClient {
  const send: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const plain = createClient<paths>({ baseUrl, fetch: send, headers: options.headers, querySerializer: serializeQuery });
  const requestToken: RequestToken = (body: TokenRequest) =>
    plain.POST('/token', {
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      bodySerializer: (fields) => new URLSearchParams(Object.entries(fields ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string')).toString(),
    }) as ReturnType<RequestToken>;
  const cache = options.cache === true ? new MemoryEtagCache() : options.cache === false ? undefined : options.cache;
  const credentials = credentialsOf(options.auth, requestToken);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const transport = createTransport({ fetch: send, credentials, retry: options.retry ?? {}, cache, timeoutMs });
  const client = createClient<paths>({ baseUrl, fetch: transport, headers: options.headers, querySerializer: serializeQuery });
  // Event streams reconnect by themselves (with Last-Event-ID) and are never cached.
  const streams = createClient<paths>({
    baseUrl,
    fetch: createTransport({ fetch: send, credentials, retry: false, cache: undefined, timeoutMs }),
    headers: options.headers,
    querySerializer: serializeQuery,
  });
  const GET = client.GET as unknown as Method<'get'>;

  const resumeFrom = (lastEventId: string | undefined) => (lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId });

  async function* pages(url: string, init?: { params?: { query?: Record<string, unknown> } }): AsyncGenerator<unknown, void, undefined> {
    let query: Record<string, unknown> = { ...init?.params?.query };
    for (;;) {
      const result = await (GET as (url: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(url, {
        ...init,
        params: { ...init?.params, query },
      });
      if (result.error !== undefined || !result.response.ok) throw new AgentFleetError(result.response, result.error);
      yield result.data;
      const next = nextPageQuery(query, result.data);
      if (next === undefined) return;
      query = next;
    }
  }

  return {
    GET,
    POST: client.POST as unknown as Method<'post'>,
    PUT: client.PUT as unknown as Method<'put'>,
    PATCH: client.PATCH as unknown as Method<'patch'>,
    DELETE: client.DELETE as unknown as Method<'delete'>,
    HEAD: client.HEAD as unknown as Method<'head'>,
    OPTIONS: client.OPTIONS as unknown as Method<'options'>,
    pages: pages as AgentFleetClient['pages'],
    paginate: async function* (url: string, init?: object) {
      for await (const page of pages(url, init)) yield* itemsOf(page);
    } as AgentFleetClient['paginate'],
    events: (eventsOptions = {}) =>
      streamEvents<FleetEvent>(
        ({ lastEventId, signal }) =>
          streams.GET('/api/v1/events', {
            params: { query: eventsQuery(eventsOptions, lastEventId), header: resumeFrom(lastEventId) },
            headers: { Accept: 'text/event-stream' },
            parseAs: 'stream',
            signal,
          }),
        eventsOptions,
      ),
    taskLogs: (agentId, taskId, logsOptions = {}) =>
      streamEvents<LogLine>(
        ({ lastEventId, signal }) =>
          streams.GET('/api/v1/agents/{agent_id}/tasks/{task_id}/logs', {
            params: { path: { agent_id: agentId, task_id: taskId }, query: taskLogsQuery(logsOptions, lastEventId), header: resumeFrom(lastEventId) },
            headers: { Accept: 'text/event-stream' },
            parseAs: 'stream',
            signal,
          }),
        logsOptions,
      ),
    requestToken,
    cache,
    use: (...middleware) => {
      client.use(...middleware);
      streams.use(...middleware);
    },
    eject: (...middleware) => {
      client.eject(...middleware);
      streams.eject(...middleware);
    },
  };
}

function itemsOf(page: unknown): unknown[] {
  if (Array.isArray(page)) return page;
  const data = (page as { data?: unknown }).data;
  return Array.isArray(data) ? data : [];
}

/**
 * The query of the page after this one, or undefined after the last. Cursor collections say
 * `meta.hasMore`; page collections `meta.total`. Skip collections (the root surface) can answer
 * fewer items than `limit` before the end (a page of tasks is cut to the response budget), so
 * only an empty page ends them.
 */
function nextPageQuery(query: Record<string, unknown>, page: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(page)) return page.length === 0 ? undefined : { ...query, skip: Number(query['skip'] ?? 0) + page.length };
  const { data, meta } = page as { data: unknown[]; meta: Record<string, unknown> };
  if (typeof meta['hasMore'] === 'boolean') {
    return meta['hasMore'] === true && typeof meta['nextCursor'] === 'string' ? { ...query, cursor: meta['nextCursor'] } : undefined;
  }
  if (typeof meta['total'] === 'number' && typeof meta['page'] === 'number' && typeof meta['limit'] === 'number') {
    return data.length > 0 && meta['page'] * meta['limit'] < meta['total'] ? { ...query, page: meta['page'] + 1 } : undefined;
  }
  return undefined;
}
