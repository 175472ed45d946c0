import type { Client, ClientConfig } from 'pg';
import type { Logger } from '../logger';
import { isPostgres, type Database } from './database';
import { EVENTS_CHANNEL } from './event-writes';
import type { RedisConnection } from './redis';

/** Starts waking `wake` on notifications; answers how to stop. */
export type EventWakeSource = (wake: () => void) => Promise<() => Promise<void>>;

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * PostgreSQL's NOTIFY of committed events (see insertEventsAndCommitSql), heard on a connection of its own
 * outside the pool, connected again whenever it is lost. Every (re)connection wakes the feed too: a
 * notification sent while it was away is not delivered later.
 */
export function postgresEventListener(db: Database, logger: Pick<Logger, 'warn' | 'debug'>): EventWakeSource | undefined {
  if (!isPostgres(db)) return undefined;
  const connection = db.client.config.connection as ClientConfig;
  // Loaded here: a process on SQLite never needs the driver (about 4 MB resident).
  const { Client: ListenClient } = require('pg') as typeof import('pg');
  return async (wake) => {
    let stopped = false;
    let client: Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const again = () => {
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, RECONNECT_MS);
      retry.unref();
    };
    const connect = async () => {
      if (stopped) return;
      // A notification names no schema: instances on other schemas of the database only wake this one.
      const listener = new ListenClient(connection);
      listener.on('notification', () => wake());
      listener.on('error', (error) => logger.debug({ err: error.message }, 'event notifications: connection problem'));
      listener.on('end', () => {
        if (client === listener) client = undefined;
        if (!stopped) {
          logger.warn('event notifications: the LISTEN connection was lost; connecting again');
          again();
        }
      });
      try {
        await listener.connect();
        await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
        if (stopped) {
          await listener.end();
          return;
        }
        client = listener;
        wake();
      } catch (error) {
        logger.debug({ err: error instanceof Error ? error.message : String(error) }, 'event notifications: LISTEN failed');
        await listener.end().catch(() => undefined);
        again();
      }
    };
    void connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    };
  };
}

/** The Redis channel that announces committed events to every instance (REDIS_URL). */
export const REDIS_EVENTS_CHANNEL = 'agent-fleet:events';

/** Redis pub/sub of committed events: heard on a subscriber connection of its own. */
export function redisEventListener(redis: Pick<RedisConnection, 'subscribe'> | undefined): EventWakeSource | undefined {
  if (!redis) return undefined;
  return (wake) => redis.subscribe(REDIS_EVENTS_CHANNEL, wake);
}

/** Tells every instance that events up to `lastId` were committed; a lost message is found by their poll. */
export function publishEventCommit(redis: Pick<RedisConnection, 'sendCommand'>, lastId: string): void {
  redis.sendCommand(['PUBLISH', REDIS_EVENTS_CHANNEL, lastId]).catch(() => undefined);
}
