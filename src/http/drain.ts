import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface Drain {
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Stops listening and lets every connection end by itself; resolves once the last one has. Until
   * then each response says `Connection: close`, so a kept-alive client opens its next request
   * elsewhere instead of on a socket that is about to go.
   */
  start(): Promise<void>;
}

/**
 * A drain that never resets a kept-alive connection. Node's `server.close()` also closes every idle
 * keep-alive socket at once, and a client that chose one of them for its next request a moment
 * earlier sees a reset (about 1% of requests under steady load). Here an idle socket is left to
 * the keep-alive timeout the client was told of (`Keep-Alive: timeout=N`, which fetch and Node's
 * agent honour by retiring the socket first), or answers its next request with `Connection: close`.
 */
export function prepareDrain(server: Server): Drain {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    inFlight: () => inFlight.size,
    start: () => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      // net.Server's close: stop accepting, and call back once every connection has ended.
      return new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    },
  };
}
