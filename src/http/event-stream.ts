import type { Request, Response } from 'express';
import type { EventRecord } from '../data/records';
import type { Store } from '../data/store';
import type { Principal } from '../domain/access';
import type { EventFeed, EventSubscriber } from '../domain/event-feed';
import { assertResumable, inScope, presentEvent, type EventScope } from '../domain/events';
import { rateLimited } from '../errors';

export interface EventStreamSettings {
  heartbeatMs: number;
  streamsPerPrincipal: number;
  /** What `retry:` tells an EventSource to wait before it reconnects. */
  retryMs?: number;
  /** A reader that lets this many events wait unsent is closed (it resumes with Last-Event-ID). */
  maxWaitingEvents?: number;
  /** Or this many bytes. */
  maxWaitingBytes?: number;
  /** How long a reader past either bound has to drain before it is closed. */
  drainGraceMs?: number;
}

const DEFAULT_RETRY_MS = 3000;
const DEFAULT_MAX_WAITING_EVENTS = 1000;
const DEFAULT_MAX_WAITING_BYTES = 1024 * 1024;
/**
 * Past a bound is not yet too slow: events read in one go are written in one tick, and Node holds
 * what one tick writes (it corks the response) until the next, so that a burst waits in full
 * however fast its reader is, until the kernel has taken it.
 */
const DEFAULT_DRAIN_GRACE_MS = 1000;
/** Events read from the database per page while a stream catches up. */
const HISTORY_PAGE = 500;
/** How long a reader refused for too many streams should wait. */
const RETRY_AFTER_SECONDS = 5;

/** Whether the client asked for the stream rather than a page (an EventSource sends exactly this). */
export function wantsEventStream(req: Pick<Request, 'accepts'>): boolean {
  return req.accepts(['application/json', 'text/event-stream']) === 'text/event-stream';
}

/** One Server-Sent Events message: `data:` is the event's JSON, which never holds a raw line break. */
export function frameEvent(event: EventRecord): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(presentEvent(event))}\n\n`;
}

/** Who a stream counts against: a user, a service key, an agent key. */
function principalKey(principal: Principal): string {
  if (principal.kind === 'user') return `user:${principal.user.id}`;
  if (principal.kind === 'service') return `service:${principal.keyNumber}`;
  return `agent-key:${principal.keyId}`;
}

export interface EventStreams {
  /**
   * Answers the request with a stream of the scope's events after `after` (live from now when
   * absent). `stillAuthenticated` is asked at every heartbeat: the stream ends once it says no.
   */
  open(
    req: Pick<Request, 'method' | 'socket'>,
    res: Response,
    principal: Principal,
    scope: EventScope,
    after: string | undefined,
    stillAuthenticated: () => Promise<boolean>,
  ): Promise<void>;
}

/**
 * Server-Sent Events over the process's event feed. A stream registers with the feed first (live
 * events wait in its buffer), replays the log after its cursor from the database until caught up,
 * then sends what waited, skipping what it already sent: every event once, in id order. A reader
 * whose socket does not drain within a grace while events pile up past a bound is closed (with a
 * reset); so is every stream when the feed closes (the process drains). The first history page is
 * read before the answer starts, so that a pruned cursor is still a 410.
 */
export function createEventStreams(store: Store, feed: EventFeed, settings: EventStreamSettings): EventStreams {
  const retryMs = settings.retryMs ?? DEFAULT_RETRY_MS;
  const maxWaitingEvents = settings.maxWaitingEvents ?? DEFAULT_MAX_WAITING_EVENTS;
  const maxWaitingBytes = settings.maxWaitingBytes ?? DEFAULT_MAX_WAITING_BYTES;
  const drainGraceMs = settings.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS;
  const openPerPrincipal = new Map<string, number>();

  return {
    async open(req, res, principal, scope, after, stillAuthenticated) {
      const key = principalKey(principal);
      const open = openPerPrincipal.get(key) ?? 0;
      if (open >= settings.streamsPerPrincipal) {
        throw rateLimited(RETRY_AFTER_SECONDS, `At most ${settings.streamsPerPrincipal} event streams may be open at once`);
      }
      openPerPrincipal.set(key, open + 1);
      let counted = true;
      const uncount = () => {
        if (!counted) return;
        counted = false;
        const left = (openPerPrincipal.get(key) ?? 1) - 1;
        if (left > 0) openPerPrincipal.set(key, left);
        else openPerPrincipal.delete(key);
      };

      let lastSent = -1n;
      let catchingUp = true;
      let waiting: EventRecord[] = [];
      /** Events written that the socket has not yet handed to the kernel. */
      let unsent = 0;
      /** Set while the reader is past a bound: it is closed unless it drains first. */
      let overdue: NodeJS.Timeout | undefined;
      let ended = false;
      let heartbeat: NodeJS.Timeout | undefined;
      let leave: () => void = () => undefined;

      const finish = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(overdue);
        leave();
        uncount();
      };
      /** A reader too slow to keep up: cut off, it reconnects and resumes from what it received. */
      const cutOff = () => {
        finish();
        // A reset, not a close: a close queues its FIN behind the megabytes the kernel still holds
        // for this reader, which keeps them (for minutes, if it never reads) and tells the reader
        // nothing until it has read through them. A reset frees them at once, and the reader's next
        // read fails, so that it resumes with Last-Event-ID now.
        const socket = res.socket;
        if (socket !== null && !socket.destroyed) socket.resetAndDestroy();
        else res.destroy();
      };
      const isBehind = () => unsent > maxWaitingEvents || res.writableLength > maxWaitingBytes;
      const send = (event: EventRecord) => {
        const id = BigInt(event.id);
        if (ended || id <= lastSent) return;
        lastSent = id;
        unsent += 1;
        res.write(frameEvent(event), () => {
          unsent -= 1;
        });
        if (overdue === undefined && isBehind()) {
          overdue = setTimeout(() => {
            overdue = undefined;
            if (!ended && isBehind()) cutOff();
          }, drainGraceMs);
          overdue.unref();
        }
      };
      const subscriber: EventSubscriber = {
        accepts: (event) => inScope(scope, event),
        deliver: (event) => {
          if (!catchingUp) return send(event);
          waiting.push(event);
          if (waiting.length > maxWaitingEvents) cutOff();
        },
        end: () => {
          if (ended) return;
          finish();
          // The client reconnects, elsewhere: this connection is not kept alive for another request.
          res.once('finish', () => res.socket?.end());
          res.end();
        },
      };

      res.once('close', finish);
      res.on('drain', () => {
        clearTimeout(overdue);
        overdue = undefined;
      });
      try {
        if (feed.closed) {
          // The process drains: an empty stream tells the client to reconnect (elsewhere).
          res.status(200).set(STREAM_HEADERS).end(`retry: ${retryMs}\n\n`);
          return finish();
        }
        const subscription = await feed.subscribe(subscriber);
        leave = subscription.leave;
        if (ended) return leave();
        let cursor = after ?? subscription.liveAfter;
        let page = after === undefined ? [] : await store.events.list({ ...scope, after: cursor, limit: HISTORY_PAGE });
        await assertResumable(store, after);

        res.status(200).set(STREAM_HEADERS);
        if (req.method === 'HEAD') return void res.end();
        res.flushHeaders();
        req.socket.setNoDelay(true);
        res.write(`retry: ${retryMs}\n\n`);
        lastSent = BigInt(cursor);
        let checking = false;
        heartbeat = setInterval(() => {
          res.write(': keep-alive\n\n');
          if (checking) return;
          checking = true;
          // A signed-out session, an expired token or a revoked key ends the stream within one
          // heartbeat: its reader reconnects and is refused as any request would be. When the check
          // cannot be made (the database is away), the stream goes on.
          stillAuthenticated()
            .then(
              (valid) => {
                if (!valid) subscriber.end();
              },
              () => undefined,
            )
            .finally(() => {
              checking = false;
            });
        }, settings.heartbeatMs);
        heartbeat.unref();

        for (;;) {
          for (const event of page) send(event);
          if (ended || page.length < HISTORY_PAGE) break;
          if (res.writableNeedDrain) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
          cursor = lastSent.toString();
          page = await store.events.list({ ...scope, after: cursor, limit: HISTORY_PAGE });
        }
        catchingUp = false;
        const held = waiting;
        waiting = [];
        for (const event of held) send(event);
      } catch (error) {
        finish();
        // Before the answer started, the error handler answers (410, 503); after, the stream just ends.
        if (!res.headersSent) throw error;
        res.destroy();
      }
    },
  };
}

export const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  // nginx and its kin buffer responses unless told not to: a stream must reach its reader as it is written.
  'X-Accel-Buffering': 'no',
};
