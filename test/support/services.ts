import { execFile } from 'node:child_process';
import { Client } from 'pg';
import { createClient } from 'redis';
import { connectRedis, type RedisConnection, type RedisConfig } from '../../src/data/redis';

export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Redis settings for a test's own connection: a generous deadline (the suites share two cores). */
export function redisTestConfig(url: string = REDIS_TEST_URL, overrides: Partial<RedisConfig> = {}): RedisConfig {
  return { url, commandTimeoutMs: 2000, breakerFailures: 3, probeIntervalMs: 200, ...overrides };
}

/** A logger that keeps quiet. */
export const SILENT = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/**
 * Two connections to the test Redis, as two instances of the service hold them: opened before the
 * describe block that calls this, closed after it.
 */
export function useRedisPair(): { readonly a: RedisConnection; readonly b: RedisConnection } {
  let pair: [RedisConnection, RedisConnection] | undefined;
  beforeAll(async () => {
    pair = [await connectRedis(redisTestConfig(), SILENT), await connectRedis(redisTestConfig(), SILENT)];
  });
  afterAll(async () => {
    for (const connection of pair ?? []) await connection.close();
  });
  const opened = (): [RedisConnection, RedisConnection] => {
    if (!pair) throw new Error('useRedisPair: the connections open in beforeAll');
    return pair;
  };
  return {
    get a() {
      return opened()[0];
    },
    get b() {
      return opened()[1];
    },
  };
}

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export async function postgresReachable(): Promise<string | undefined> {
  const client = new Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function redisReachable(): Promise<string | undefined> {
  const client = createClient({ url: REDIS_TEST_URL, socket: { connectTimeout: 3000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    if (client.isOpen) await client.close().catch(() => undefined);
  }
}

/** Runs the browser once (`--version`): a path that exists but cannot start counts as missing. */
export function chromiumRunnable(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(CHROMIUM_PATH, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      if (error) resolve(error.message);
      else if (!/chrom/i.test(stdout)) resolve(`unexpected --version output: ${stdout.trim() || '(none)'}`);
      else resolve(undefined);
    });
  });
}
