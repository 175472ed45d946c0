import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { components, operations } from '../../generated/api.js';
import { AgentFleetError } from './errors.js';
import { retryAfterMs } from './transport.js';

/** One change in the fleet, as `GET /api/v1/events` streams it. */
export type FleetEvent = components['schemas']['Event'];
export type FleetEventType = components['schemas']['EventType'];
type EventsQuery = NonNullable<operations['listEvents']['parameters']['query']>;
/** One line of a task's log, as `GET .../tasks/{task_id}/logs` streams it. */
export type LogLine = components['schemas']['LogLine'];

/** How a live stream (events, a task's log lines) reconnects and ends. */
export interface StreamOptions {
  /** Aborting it closes the connection and ends the iteration without an error, as `break` does. */
  signal?: AbortSignal;
  /** The wait before reconnecting until the service sends its own (`retry:`); default 1 000 ms. */
  reconnectDelayMs?: number;
  /** The longest wait between failed reconnects, which double from the reconnect delay (default 30 000 ms). */
  maxReconnectDelayMs?: number;
  /** A connection that sends nothing for this long (the service sends a comment every 15 s) is replaced (default 45 000 ms). */
  idleTimeoutMs?: number;
  /** Called before each wait to reconnect, e.g. to log it. */
  onReconnect?: (event: ReconnectEvent) => void;
  /** Called each time a connection is open and its events start to flow (after a reconnect too), e.g. to show the feed is live. */
  onOpen?: () => void;
}

export interface EventsOptions extends StreamOptions {
  /** Only this agent's events. */
  agentId?: string;
  /** Only events of these types. */
  types?: readonly FleetEventType[];
  /** Start after this event id, with every later event the service keeps (default: from now on). */
  after?: string;
}

export interface TaskLogsOptions extends StreamOptions {
  /** Only this attempt's lines (its `number`). */
  attempt?: number;
  /** Only lines at this level or above. */
  level?: LogLine['level'];
  /** Start after this line id (default: every line the task keeps). */
  after?: string;
}

export interface ReconnectEvent {
  /** 1 for the first reconnect after events last arrived. */
  attempt: number;
  delayMs: number;
  /** Sent as `Last-Event-ID`: the stream resumes after it. */
  lastEventId: string | undefined;
  /** The status that was answered, the network error that ended the attempt, or the stream's end. */
  cause: { status: number } | { error: unknown } | { closed: true };
}

/** Opens one connection of a stream (`Accept: text/event-stream`, its body as a stream), resuming after `lastEventId` when set. */
export type OpenStream = (request: { lastEventId: string | undefined; signal: AbortSignal }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The query of one connection to the event log: `after` goes only with the first (Last-Event-ID would lose to it). */
export function eventsQuery(options: EventsOptions, lastEventId: string | undefined): EventsQuery {
  return {
    ...optional('agent_id', options.agentId),
    ...optional('types', options.types?.length === 0 ? undefined : options.types?.slice()),
    ...optional('after', lastEventId === undefined ? options.after : undefined),
  };
}

/** The query of one connection to a task's log, as eventsQuery. */
export function taskLogsQuery(options: TaskLogsOptions, lastEventId: string | undefined): { cursor?: string; attempt?: number; level?: LogLine['level'] } {
  return { ...optional('attempt', options.attempt), ...optional('level', options.level), ...optional('cursor', lastEventId === undefined ? options.after : undefined) };
}

/** Larger than any event the service sends; a stream that buffers more without a complete event is broken. */
const MAX_EVENT_CHARS = 1 << 20;
/** Ids already yielded, kept to skip a repeat after a reconnect; only the most recent ones matter. */
const REMEMBERED_IDS = 1024;

/**
 * A live stream's messages (the fleet's events, a task's log lines) as an async iterator over Server-Sent Events. The connection is
 * opened on the first `next()`, read only as fast as the caller iterates (at most one network
 * chunk of parsed events is held), and replaced after a drop, a server shutdown, a 408, 429 or
 * 5xx, resuming with `Last-Event-ID` after the last event yielded. Other refusals end the
 * iteration with an `AgentFleetError`.
 */
export async function* streamEvents<T extends { id: string } = FleetEvent>(open: OpenStream, options: StreamOptions = {}): AsyncGenerator<T, void, undefined> {
  const { signal } = options;
  const maxDelayMs = options.maxReconnectDelayMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  const yielded = new RecentIds(REMEMBERED_IDS);
  let retryMs = options.reconnectDelayMs ?? 1000;
  let lastEventId: string | undefined;
  let failures = 0;

  /** One connection: yields its events, and returns why it ended (undefined when the caller aborted). */
  async function* follow(connection: AbortSignal): AsyncGenerator<T, Ended | undefined, undefined> {
    let answer: Awaited<ReturnType<OpenStream>>;
    try {
      answer = await open({ lastEventId, signal: connection });
    } catch (error) {
      return isAborted(signal) ? undefined : { cause: { error } };
    }
    const { response, data } = answer;
    if (!response.ok) {
      if (!isTransient(response.status)) throw new AgentFleetError(response, answer.error);
      return { cause: { status: response.status }, ...optional('retryAfterMs', retryAfterMs(response.headers.get('Retry-After'))) };
    }
    if (!(data instanceof ReadableStream) || !/^text\/event-stream\b/i.test(response.headers.get('Content-Type') ?? '')) {
      if (data instanceof ReadableStream) await data.cancel().catch(() => undefined);
      throw new AgentFleetError(response, `${response.status}: the answer is not an event stream`);
    }
    notify(options.onOpen);
    try {
      for await (const message of messagesOf(data as ReadableStream<Uint8Array>, connection, idleTimeoutMs, (ms) => (retryMs = ms))) {
        const event = JSON.parse(message.data) as T;
        const id = message.id ?? String(event.id);
        if (yielded.has(id)) continue;
        yielded.add(id);
        lastEventId = id;
        failures = 0;
        yield event;
      }
    } catch (error) {
      // A malformed event would come again after a reconnect: it ends the iteration.
      if (isAborted(signal)) return undefined;
      if (error instanceof SyntaxError || isParseError(error)) throw error;
      return { cause: { error } };
    }
    return isAborted(signal) ? undefined : { cause: { closed: true } };
  }

  while (!isAborted(signal)) {
    const connection = new AbortController();
    const hangUp = (): void => connection.abort(signal?.reason);
    signal?.addEventListener('abort', hangUp, { once: true });
    let ended: Ended | undefined;
    try {
      ended = yield* follow(connection.signal);
    } finally {
      signal?.removeEventListener('abort', hangUp);
      connection.abort();
    }
    if (ended === undefined || isAborted(signal)) return;

    const backedOff = Math.max(retryMs, Math.min(maxDelayMs, retryMs * 2 ** failures));
    const delayMs = Math.max(ended.retryAfterMs ?? 0, backedOff) * (1 + Math.random() / 4);
    failures += 1;
    notify(options.onReconnect, { attempt: failures, delayMs, lastEventId, cause: ended.cause });
    if (!(await sleep(delayMs, signal))) return;
  }
}

/** A listener's failure is not the stream's. */
function notify<A extends unknown[]>(listener: ((...args: A) => void) | undefined, ...args: A): void {
  try {
    listener?.(...args);
  } catch {
    // ignored: see above
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

type Ended = { cause: ReconnectEvent['cause']; retryAfterMs?: number };

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Statuses after which the same request may succeed later. */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function isParseError(error: unknown): error is ParseError {
  return error instanceof Error && error.name === 'ParseError';
}

/**
 * The messages of one connection, parsed as the caller asks for them. Ends when the stream ends,
 * when `signal` aborts, or when nothing arrives for `idleTimeoutMs`; cancelling it (a `break`)
 * closes the connection.
 */
async function* messagesOf(body: ReadableStream<Uint8Array>, signal: AbortSignal, idleTimeoutMs: number, onRetry: (ms: number) => void): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: EventSourceMessage[] = [];
  let failure: ParseError | undefined;
  const parser = createParser({
    onEvent: (message) => parsed.push(message),
    onRetry,
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const close = (): void => void reader.cancel().catch(() => undefined);
  let idle: ReturnType<typeof setTimeout> = setTimeout(close, idleTimeoutMs);
  signal.addEventListener('abort', close, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      clearTimeout(idle);
      idle = setTimeout(close, idleTimeoutMs);
      parser.feed(decoder.decode(value, { stream: true }));
      if (failure !== undefined) throw failure;
      while (parsed.length > 0) yield parsed.shift() as EventSourceMessage;
    }
  } finally {
    clearTimeout(idle);
    signal.removeEventListener('abort', close);
    close();
  }
}

/** Waits `ms`; false when `signal` aborted first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (isAborted(signal)) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      resolve(false);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A set of the last `size` ids added. */
class RecentIds {
  readonly #ids = new Set<string>();
  constructor(readonly size: number) {}
  has(id: string): boolean {
    return this.#ids.has(id);
  }
  add(id: string): void {
    this.#ids.add(id);
    if (this.#ids.size > this.size) this.#ids.delete(this.#ids.values().next().value as string);
  }
}
