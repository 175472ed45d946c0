import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import type { DatabaseConfig } from '../config';
import { migrationSource } from './migrations';

export type Database = Knex;

export interface DatabaseOptions {
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  searchPath?: string;
}

/** Opens the database and brings its schema up to date. */
export async function connectDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): Promise<Database> {
  const db = config.client === 'pg' ? openPostgres(config.connectionString, options) : openSqlite(config.filename);
  try {
    await db.migrate.latest({ migrationSource });
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

function openPostgres(connectionString: string, options: DatabaseOptions): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString },
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    pool: { min: 0, max: 10 },
  });
}

function openSqlite(filename: string): Knex {
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // better-sqlite3 is synchronous: one connection serialises every transaction.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) => {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          // FULL: a commit survives power loss too, not only a crash (WAL with NORMAL may drop the last ones).
          conn.pragma('synchronous = FULL');
          done(null, conn);
        } catch (error) {
          done(error as Error, conn);
        }
      },
    },
  });
}

export function isPostgres(db: Database): boolean {
  return db.client.config.client === 'pg';
}

export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
