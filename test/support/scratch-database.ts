import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import type { DatabaseConfig } from '../../src/data/database';
import type { DatabaseKind } from './harness';
import { PG_TEST_URL } from './services';

/** A scratch database: its handle, where the service would find it (`config`, `searchPath`), and `close`, which removes it. */
export interface ScratchDatabase {
  db: Knex;
  config: DatabaseConfig;
  searchPath?: string;
  close(): Promise<void>;
}

/**
 * An empty database of the test's own, without the service's migrations (a migration test runs
 * them step by step): a temporary SQLite file, or a PostgreSQL schema of the shared server. `close`
 * removes it.
 */
export async function openScratchDatabase(kind: DatabaseKind, label: string): Promise<ScratchDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (kind === 'sqlite') {
    const filename = path.join(os.tmpdir(), `agent-fleet-${label}-${suffix}.sqlite`);
    const db = knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true });
    return {
      db,
      config: { client: 'sqlite', filename },
      close: async () => {
        await db.destroy();
        for (const extra of ['', '-wal', '-shm']) rmSync(filename + extra, { force: true });
      },
    };
  }
  const schema = `${label.replace(/-/g, '_')}_${suffix}`;
  const admin = knex({ client: 'pg', connection: PG_TEST_URL });
  await admin.raw('create schema ??', [schema]);
  const db = knex({ client: 'pg', connection: PG_TEST_URL, searchPath: [schema] });
  return {
    db,
    config: { client: 'pg', connectionString: PG_TEST_URL },
    searchPath: schema,
    close: async () => {
      await db.destroy();
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    },
  };
}

/** A scratch database (as openScratchDatabase) with the service's first `count` migrations run: a migration test's starting point. */
export async function openScratchDatabaseAt(kind: DatabaseKind, label: string, count: number): Promise<ScratchDatabase> {
  const scratch = await openScratchDatabase(kind, label);
  for (let step = 0; step < count; step++) await scratch.db.migrate.up({ migrationSource });
  return scratch;
}

/** The n-th id of a migration test's own rows (time-ordered, as the service makes them). */
export const fixedId = (n: number) => `0190a8f0-0000-7000-8000-${String(n).padStart(12, '0')}`;
/** `second` seconds into the minute a migration test's rows are dated in. */
export const fixedTime = (second: number) => `2026-01-01T12:00:${String(second).padStart(2, '0')}.000Z`;
