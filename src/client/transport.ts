import type { Credentials } from './auth.js';
import type { CachedResponse, EtagCache } from './etag-cache.js';
import { randomKey } from './random-key.js';

export type Fetch = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Further attempts after the first (default 2). */
  retries?: number;
  /** The longest wait the client accepts; a longer `Retry-After` returns the answer instead (default 60 000 ms). */
  maxDelayMs?: number;
  /** First back-off when the service gives no `Retry-After` (default 500 ms, doubling, with jitter). */
  baseDelayMs?: number;
  /**
   * Methods that are retried (default GET, HEAD, OPTIONS, PUT, DELETE and POST). A POST is sent
   * with an `Idempotency-Key` (a fresh one per call, the same on each of its attempts; a key of
   * your own wins), so that the service runs it once however often it is sent, and is also retried
   * on 409 `IDEMPOTENCY_KEY_IN_USE` (the first attempt is still running). A form-encoded POST
   * (`/token`) is a sign-in, not a create: it is never retried.
   */
  methods?: readonly string[];
  /** Statuses that are retried (default 429 and 503). */
  statuses?: readonly number[];
  /** Called before each wait, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  method: string;
  url: string;
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** The status that was answered, or the network error or timeout that ended the attempt. */
  cause: { status: number } | { error: unknown };
}

export interface TransportOptions {
  fetch: Fetch;
  credentials: Credentials | undefined;
  retry: RetryOptions | false;
  cache: EtagCache | undefined;
  timeoutMs: number | undefined;
}

/** Idempotent by definition, and POST made so by its `Idempotency-Key`. */
const RETRIED = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST'];
/** Request headers that select a different representation: the cache keeps one answer per combination. */
const KEYED_HEADERS = ['authorization', 'x-api-key', 'api-version', 'accept'];
/** Headers of the stored answer that do not describe the replayed body. */
const UNREPLAYED_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie']);
const MAX_CACHED_BODY_CHARS = 1 << 20;

/**
 * The fetch that openapi-fetch calls: sets the credentials, revalidates cached GETs with
 * `If-None-Match`, retries what is safe to retry, and applies the per-attempt timeout. The caller's
 * own `AbortSignal` cancels it at any point, waits included.
 */
export function createTransport(options: TransportOptions): Fetch {
  const retry = options.retry === false ? undefined : options.retry;
  const retries = retry === undefined ? 0 : Math.max(0, retry.retries ?? 2);
  const methods = new Set((retry?.methods ?? RETRIED).map((method) => method.toUpperCase()));
  const statuses = new Set(retry?.statuses ?? [429, 503]);
  const maxDelayMs = retry?.maxDelayMs ?? 60_000;
  const baseDelayMs = retry?.baseDelayMs ?? 500;

  return async (original) => {
    const signal = original.signal;
    const idempotencyKey = retries > 0 && methods.has(original.method) ? idempotencyKeyOf(original) : undefined;
    const retryable = methods.has(original.method) && (original.method !== 'POST' || idempotencyKey !== undefined);
    const cache = original.method === 'GET' && !isConditional(original.headers) ? options.cache : undefined;
    let refused: string | undefined;
    let renewed = false;

    for (let attempt = 0; ; attempt += 1) {
      const headers = new Headers(original.headers);
      if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKey);
      const credential = options.credentials !== undefined && !hasCredential(original.headers) ? await options.credentials.apply(headers, refused) : undefined;
      const key = cache === undefined ? undefined : cacheKey(original.url, headers);
      const cached = key === undefined ? undefined : await cache?.get(key);
      if (cached !== undefined) headers.set('If-None-Match', cached.etag);

      const deadline = deadlineFor(signal, options.timeoutMs);
      // A clone: the body is sent again if the attempt is retried.
      const request = new Request(original.clone(), { headers, signal: deadline.signal });
      let response: Response;
      try {
        response = await options.fetch(request);
        keepFollowing(response, original, request);
      } catch (error) {
        deadline.clear();
        if (signal.aborted) throw signal.reason;
        if (!retryable || attempt >= retries) throw error;
        await pause(backoff(baseDelayMs, maxDelayMs, attempt), { method: original.method, url: original.url, attempt: attempt + 1, cause: { error } }, retry, signal);
        continue;
      }
      deadline.clear();

      if (response.status === 401 && credential !== undefined && options.credentials?.renewable === true && !renewed) {
        // A renewable token was refused (expired or revoked): fetch a fresh one once and resend.
        renewed = true;
        refused = credential;
        attempt -= 1;
        await discard(response);
        continue;
      }
      if (retryable && attempt < retries && (statuses.has(response.status) || (idempotencyKey !== undefined && (await isKeyInUse(response))))) {
        const delayMs = retryAfterMs(response.headers.get('Retry-After')) ?? backoff(baseDelayMs, maxDelayMs, attempt);
        if (delayMs <= maxDelayMs) {
          await discard(response);
          await pause(delayMs, { method: original.method, url: original.url, attempt: attempt + 1, cause: { status: response.status } }, retry, signal);
          continue;
        }
      }
      if (cache === undefined || key === undefined) return response;
      if (response.status === 304 && cached !== undefined) {
        await discard(response);
        return replay(cached, response.headers);
      }
      if (response.status === 200) await remember(cache, key, response);
      else if (response.status === 404 || response.status === 410) await cache.delete(key);
      return response;
    }
  };
}

/**
 * A Request follows the signal it was given through a weak reference to its own AbortController,
 * which only the Request itself holds (undici; browsers keep theirs alive by other means). fetch
 * sends a copy of the Request it is given, and keeps only that copy: once the caller's Request and
 * the one built here are garbage, an abort no longer reaches the copy, and a request cancelled
 * after a garbage collection runs to its end (Node's fetch, undici issue 4068). Both are kept
 * reachable for as long as the answer is: through the wait for its headers and the reading of
 * its body, which the caller's signal cancels too.
 */
const FOLLOWED = new WeakMap<Response, readonly Request[]>();
function keepFollowing(response: Response, ...requests: Request[]): void {
  FOLLOWED.set(response, requests);
}

/**
 * The key that makes a POST safe to send again: the caller's own, or a fresh one. A form-encoded
 * POST is a sign-in (`/token`), which a key does not make safe to repeat: it has none.
 */
function idempotencyKeyOf(request: Request): string | undefined {
  if (request.method !== 'POST') return undefined;
  const own = request.headers.get('Idempotency-Key');
  if (own !== null) return own;
  if (/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('Content-Type') ?? '')) return undefined;
  return randomKey();
}

/**
 * A 409 that says the first request with this key is still running: the same request may succeed
 * a little later.
 */
async function isKeyInUse(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  return isKeyInUseBody(await response.clone().json().catch(() => undefined));
}

/** An error body of `IDEMPOTENCY_KEY_IN_USE`: `error.code` under `/api`, `error` (in lower case) on the root surface. */
export function isKeyInUseBody(body: unknown): boolean {
  const error = (body as { error?: unknown } | undefined)?.error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : error;
  return typeof code === 'string' && code.toUpperCase() === 'IDEMPOTENCY_KEY_IN_USE';
}

function isConditional(headers: Headers): boolean {
  return headers.has('If-None-Match') || headers.has('If-Modified-Since');
}

function hasCredential(headers: Headers): boolean {
  return headers.has('Authorization') || headers.has('X-API-Key');
}

function cacheKey(url: string, headers: Headers): string {
  return [url, ...KEYED_HEADERS.map((name) => headers.get(name) ?? '')].join('\n');
}

async function remember(cache: EtagCache, key: string, response: Response): Promise<void> {
  const etag = response.headers.get('ETag');
  if (etag === null || /no-store/i.test(response.headers.get('Cache-Control') ?? '')) return;
  const body = await response.clone().text();
  if (body.length > MAX_CACHED_BODY_CHARS) return;
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!UNREPLAYED_HEADERS.has(name)) headers.push([name, value]);
  });
  await cache.set(key, { etag, status: response.status, statusText: response.statusText, headers, body });
}

/** The stored answer, with the headers of the 304 (new request id, rate-limit state, validators) over its own. */
function replay(cached: CachedResponse, fresh: Headers): Response {
  const headers = new Headers(cached.headers);
  fresh.forEach((value, name) => {
    if (!UNREPLAYED_HEADERS.has(name)) headers.set(name, value);
  });
  return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers });
}

/** Seconds or an HTTP date (RFC 9110 section 10.2.3), as milliseconds from now. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off from `baseDelayMs`, capped at `maxDelayMs`, jittered into its upper half. */
export function backoff(baseDelayMs: number, maxDelayMs: number, attempt: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function pause(delayMs: number, event: Omit<RetryEvent, 'delayMs'>, retry: RetryOptions | undefined, signal: AbortSignal): Promise<void> {
  retry?.onRetry?.({ ...event, delayMs });
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The caller's signal, and a timeout for this attempt until the answer's headers arrive. The
 * caller's signal stays linked afterwards, so that it also cancels reading the body.
 */
function deadlineFor(signal: AbortSignal, timeoutMs: number | undefined): { signal: AbortSignal; clear: () => void } {
  if (timeoutMs === undefined) return { signal, clear: () => undefined };
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
