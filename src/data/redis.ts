import { createClient } from 'redis';
import type { Logger } from '../logger';

export interface RedisConnection {
  sendCommand(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Connects to Redis (shared rate-limit counters). A connection lost later is retried in the background. */
export async function connectRedis(url: string, logger: Pick<Logger, 'warn'>): Promise<RedisConnection> {
  const client = createClient({ url, socket: { connectTimeout: 5000 } });
  // Without a listener, node-redis would crash the process on a dropped connection.
  client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection problem'));
  await client.connect();
  return {
    sendCommand: (args) => client.sendCommand(args),
    close: async () => {
      await client.close();
    },
  };
}
