import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An open `GET /api/v1/events` stream read with Node's fetch and eventsource-parser. */
export interface EventStreamReader {
  status: number;
  headers: Headers;
  /** `retry:` values seen so far. */
  retries: number[];
  /** Comment lines seen so far. */
  comments: string[];
  messages: EventSourceMessage[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a stream; answers the reader, or throws with the status and body when the answer is no stream. */
export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStreamReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const reader: EventStreamReader = {
    status: res.status,
    headers: res.headers,
    retries: [],
    comments: [],
    messages: [],
    waitFor: async () => [],
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!res.body || !String(res.headers.get('content-type')).startsWith('text/event-stream')) {
    const text = await res.text();
    throw Object.assign(new Error(`no stream: ${res.status} ${text}`), { status: res.status, body: text, headers: res.headers });
  }
  const waiters: Array<() => void> = [];
  const parser = createParser({
    onEvent: (message) => {
      reader.messages.push(message);
      for (const wake of waiters.splice(0)) wake();
    },
    onRetry: (ms) => reader.retries.push(ms),
    onComment: (comment) => {
      reader.comments.push(comment);
      for (const wake of waiters.splice(0)) wake();
    },
  });
  const body = res.body;
  reader.ended = (async () => {
    const decoder = new TextDecoder();
    const chunks = body.getReader();
    try {
      for (;;) {
        const { done, value } = await chunks.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted by the test, or cut off by the server
    }
    for (const wake of waiters.splice(0)) wake();
  })();
  reader.waitFor = async (count, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (reader.messages.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} events within ${timeoutMs} ms, got ${reader.messages.length}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return reader.messages.slice(0, count);
  };
  return reader;
}
