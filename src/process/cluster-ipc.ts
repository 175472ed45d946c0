/**
 * Requests and answers over the IPC channel between the cluster primary and a worker. Each
 * message names a channel, so that several kinds (the sign-in throttle, metrics) and other users
 * of the same link (node:cluster itself, @express-rate-limit/cluster-memory-store) pass each other.
 */

/** One end of an IPC link: a worker's `process`, or the primary's `cluster.Worker`. */
export interface IpcLink {
  send(message: unknown, sendHandle?: undefined, options?: undefined, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

interface IpcRequest {
  ipc: string;
  id: number;
  body: unknown;
}

interface IpcReply {
  ipc: string;
  id: number;
  result?: unknown;
  error?: string;
}

/** The other end did not answer in time, or the link is gone. */
export class IpcUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpcUnavailableError';
  }
}

const isMessageOf = (message: unknown, channel: string): message is Record<string, unknown> =>
  typeof message === 'object' && message !== null && (message as { ipc?: unknown }).ipc === channel && typeof (message as { id?: unknown }).id === 'number';

/**
 * A function that sends `body` on `channel` and resolves with the answer; it rejects with
 * IpcUnavailableError when none comes within `timeoutMs`, or when the link fails or closes.
 */
export function createIpcCaller<Body, Result>(link: IpcLink, channel: string, timeoutMs: number): (body: Body) => Promise<Result> {
  const replyChannel = `${channel}:reply`;
  const pending = new Map<number, { resolve: (result: Result) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let nextId = 0;
  const settle = (id: number, outcome: { result?: unknown; error?: Error }) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    clearTimeout(waiting.timer);
    if (outcome.error) waiting.reject(outcome.error);
    else waiting.resolve(outcome.result as Result);
  };
  link.on('message', (message) => {
    if (!isMessageOf(message, replyChannel)) return;
    const reply = message as unknown as IpcReply;
    settle(reply.id, reply.error === undefined ? { result: reply.result } : { error: new Error(reply.error) });
  });
  link.on('disconnect', () => {
    for (const id of [...pending.keys()]) settle(id, { error: new IpcUnavailableError(`${channel}: the IPC channel closed`) });
  });
  return (body) =>
    new Promise<Result>((resolve, reject) => {
      const id = nextId++;
      // Timers run before I/O in each turn of the event loop: after this process was itself blocked
      // (a first request compiling its validators, a starved machine) the answer may be waiting
      // unread. setImmediate runs after that I/O, so only an answer that truly did not come fails.
      const timer = setTimeout(() => setImmediate(() => settle(id, { error: new IpcUnavailableError(`${channel}: no answer within ${timeoutMs} ms`) })), timeoutMs);
      pending.set(id, { resolve, reject, timer });
      const request: IpcRequest = { ipc: channel, id, body };
      try {
        link.send(request, undefined, undefined, (error) => {
          if (error) settle(id, { error: new IpcUnavailableError(`${channel}: ${error.message}`) });
        });
      } catch (error) {
        settle(id, { error: new IpcUnavailableError(`${channel}: ${error instanceof Error ? error.message : String(error)}`) });
      }
    });
}

/** Answers the requests arriving on `channel` with what `handle` resolves to (or its error's message). */
export function answerIpc(link: IpcLink, channel: string, handle: (body: unknown) => Promise<unknown>): void {
  const replyChannel = `${channel}:reply`;
  const reply = (message: IpcReply) => {
    try {
      // A link that closed meanwhile: the asker is gone, and nobody waits for the answer.
      link.send(message, undefined, undefined, () => undefined);
    } catch {
      // As above.
    }
  };
  link.on('message', (message) => {
    if (!isMessageOf(message, channel)) return;
    const { id, body } = message as unknown as IpcRequest;
    handle(body).then(
      (result) => reply({ ipc: replyChannel, id, result }),
      (error: unknown) => reply({ ipc: replyChannel, id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In a cluster worker: its link to the primary. */
export function primaryLink(): IpcLink {
  const link = process;
  if (typeof link.send !== 'function') throw new Error('not a cluster worker: no IPC channel to a primary');
  return link as IpcLink;
}
