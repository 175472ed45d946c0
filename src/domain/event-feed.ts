import type { EventRecord } from '../data/records';
import type { Store } from '../data/store';
import type { Logger } from '../logger';

/** One open stream, as the feed sees it. */
export interface EventSubscriber {
  /** Whether this reader may and wants to see the event (its scope and filters). */
  accepts(event: EventRecord): boolean;
  /** A new event, in id order; called synchronously, so it must only queue. */
  deliver(event: EventRecord): void;
  /** The feed closes (the process drains): the stream ends so that its client reconnects elsewhere. */
  end(): void;
}

/** Something that wakes the feed when events were committed elsewhere; answers how to stop it. */
export type WakeSource = (wake: () => void) => Promise<() => Promise<void>> | (() => Promise<void>);

export interface EventFeedOptions {
  store: Store;
  logger: Pick<Logger, 'warn' | 'debug'>;
  /** How often the feed reads anyway while streams are open (EVENTS_POLL_MS): notifications can be lost. */
  pollMs: number;
  /** Started while at least one stream is open (PostgreSQL LISTEN, Redis pub/sub). */
  sources?: WakeSource[];
}

export interface EventFeed {
  /**
   * Adds a reader. Once this resolves, every event committed later (and every one after the id it
   * returns) reaches `deliver`; the reader catches up on older ones from the database itself.
   * Answers the id live delivery starts after, and how to leave.
   */
  subscribe(subscriber: EventSubscriber): Promise<{ liveAfter: string; leave: () => void }>;
  /** Events were committed (here, or elsewhere): read them now. */
  wake(): void;
  /** Ends every stream and stops reading; later subscriptions are refused. */
  close(): Promise<void>;
  readonly closed: boolean;
  /** Open streams (a gauge). */
  size(): number;
}

/** How many events one read of the feed takes; it reads again at once while pages come back full. */
const BATCH = 500;

/**
 * One reader of the event log per process, however many streams are open: woken after each local
 * commit and by the wake sources (and, while streams are open, every `pollMs`), it reads the events
 * after the last one it saw, in id order, and hands each to the streams that accept it. Nothing
 * reads while no stream is open.
 */
export function createEventFeed({ store, logger, pollMs, sources = [] }: EventFeedOptions): EventFeed {
  const subscribers = new Set<EventSubscriber>();
  /** The highest id handed out; undefined while no stream is open. */
  let last: bigint | undefined;
  let starting: Promise<void> | undefined;
  /** Changes each time the feed goes idle: a read begun before then hands nothing out. */
  let generation = 0;
  let reading = false;
  let again = false;
  let closed = false;
  let stops: Array<Promise<() => Promise<void>>> = [];
  let poll: NodeJS.Timeout | undefined;

  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const readingFor = generation;
        while (last !== undefined && subscribers.size > 0 && readingFor === generation) {
          const page = await store.events.list({ after: last.toString(), limit: BATCH });
          if (readingFor !== generation) break;
          for (const event of page) {
            const id = BigInt(event.id);
            if (last !== undefined && id <= last) continue;
            last = id;
            for (const subscriber of subscribers) if (subscriber.accepts(event)) subscriber.deliver(event);
          }
          if (page.length < BATCH) break;
        }
      } while (again && !closed);
    } catch (error) {
      // The next wake-up or poll reads again from the same place.
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'reading new events failed');
    } finally {
      reading = false;
    }
  };
  const wake = () => {
    if (!closed && subscribers.size > 0 && last !== undefined) void read();
  };

  const activate = () => {
    poll = setInterval(wake, pollMs);
    poll.unref();
    stops = sources.map((source) =>
      Promise.resolve(source(wake)).catch((error: unknown) => {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'an event wake-up source did not start');
        return async () => undefined;
      }),
    );
  };
  const deactivate = async () => {
    clearInterval(poll);
    poll = undefined;
    last = undefined;
    generation += 1;
    const stopping = stops;
    stops = [];
    await Promise.all(stopping.map(async (stop) => (await stop)().catch(() => undefined)));
  };

  const leave = (subscriber: EventSubscriber) => {
    if (!subscribers.delete(subscriber)) return;
    if (subscribers.size === 0 && !closed) void deactivate();
  };

  return {
    async subscribe(subscriber) {
      if (closed) throw new Error('the event feed is closed');
      const first = subscribers.size === 0;
      subscribers.add(subscriber);
      if (first) activate();
      try {
        if (last === undefined) {
          starting ??= store.events
            .latestId()
            .then((id) => {
              if (subscribers.size > 0 && last === undefined) last = BigInt(id);
            })
            .finally(() => {
              starting = undefined;
            });
          await starting;
        }
      } catch (error) {
        leave(subscriber);
        throw error;
      }
      // A reader that came and went during the read above: nothing was started for it.
      if (last === undefined) {
        leave(subscriber);
        throw new Error('the event feed is closed');
      }
      return { liveAfter: last.toString(), leave: () => leave(subscriber) };
    },
    wake,
    async close() {
      if (closed) return;
      closed = true;
      const open = [...subscribers];
      subscribers.clear();
      for (const subscriber of open) subscriber.end();
      await deactivate();
    },
    get closed() {
      return closed;
    },
    size: () => subscribers.size,
  };
}
