import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import type { Logger } from '../logger';
import { migrationSource } from './migrations';
import { PostgresClient, SqliteClient } from './knex-clients';
import { cacheStatements, type SqliteConnection } from './statement-cache';

export type DatabaseConfig = ({ client: 'sqlite'; filename: string } | { client: 'pg'; connectionString: string }) & {
  /** How long anything may wait on the database; defaults when absent (DEFAULT_DATABASE_LIMITS). */
  limits?: DatabaseLimits;
};

/** Bounds that keep a stuck or unreachable database from holding requests: beyond them, 503. */
export interface DatabaseLimits {
  /** PostgreSQL pool size (DATABASE_POOL_MAX). */
  poolMax: number;
  /** Waiting for a pool connection, or for PostgreSQL to accept one (DATABASE_ACQUIRE_TIMEOUT_MS). */
  acquireTimeoutMs: number;
  /** PostgreSQL's statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS); the client stops waiting a second later. */
  statementTimeoutMs: number;
  /** SQLite's busy_timeout: how long a write waits for another process's lock (SQLITE_BUSY_TIMEOUT_MS). */
  busyTimeoutMs: number;
}

export const DEFAULT_DATABASE_LIMITS: DatabaseLimits = { poolMax: 10, acquireTimeoutMs: 5000, statementTimeoutMs: 10_000, busyTimeoutMs: 5000 };

export type Database = Knex;

export interface DatabaseOptions {
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  searchPath?: string;
  /** Where knex's own warnings go (instead of the console). */
  logger?: Pick<Logger, 'warn' | 'error' | 'debug'>;
}

/**
 * knex's warnings as structured log lines. Each failed pool acquisition is also a request that
 * answered 503 and was logged as such: its stack trace here would only repeat it.
 */
function knexLog(logger: DatabaseOptions['logger']): Knex.Config['log'] {
  if (!logger) return undefined;
  return {
    warn: (message: string) => (message.startsWith('Acquire connection error') ? logger.debug({ knex: message.split('\n', 1)[0] }, 'knex') : logger.warn({ knex: message }, 'knex warning')),
    error: (message: string) => logger.error({ knex: message }, 'knex error'),
    deprecate: (method: string, alternative: string) => logger.warn({ knex: `${method} is deprecated: use ${alternative}` }, 'knex warning'),
    debug: (message: string) => logger.debug({ knex: message }, 'knex'),
  };
}

/** Opens the database and brings its schema up to date. */
export async function connectDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): Promise<Database> {
  const limits = config.limits ?? DEFAULT_DATABASE_LIMITS;
  const db = config.client === 'pg' ? openPostgres(config.connectionString, limits, options) : openSqlite(config.filename, limits, options);
  try {
    await (config.client === 'pg' ? migrateOneAtATime(db) : db.migrate.latest({ migrationSource }));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** Any number at all: the lock's first key names this service's migrations among other users of the database. */
const MIGRATION_LOCK = 0x41_46_4d_31;

/**
 * Instances started together on a fresh database would race to create knex's own migration tables
 * (its lock table is itself one of them), and the loser exits with a duplicate `pg_type` key. A
 * session-level advisory lock, keyed by the schema, lets one migrate while the others wait; they
 * then find nothing left to do.
 */
async function migrateOneAtATime(db: Knex): Promise<void> {
  const connection: unknown = await db.client.acquireConnection();
  try {
    const key = "hashtext(coalesce(current_schema(), ''))";
    await db.raw(`select pg_advisory_lock(?, ${key})`, [MIGRATION_LOCK]).connection(connection);
    try {
      await db.migrate.latest({ migrationSource });
    } finally {
      await db.raw(`select pg_advisory_unlock(?, ${key})`, [MIGRATION_LOCK]).connection(connection);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

function openPostgres(connectionString: string, limits: DatabaseLimits, options: DatabaseOptions): Knex {
  return knex({
    client: PostgresClient,
    connection: {
      connectionString,
      // The server cancels a statement past its time (57014); the client stops waiting a second
      // later for a server that does not answer at all (frozen, or cut off).
      statement_timeout: limits.statementTimeoutMs,
      query_timeout: limits.statementTimeoutMs + 1000,
      connectionTimeoutMillis: limits.acquireTimeoutMs,
    },
    searchPath: options.searchPath ? [options.searchPath] : undefined,
    log: knexLog(options.logger),
    acquireConnectionTimeout: limits.acquireTimeoutMs,
    pool: { min: 0, max: limits.poolMax },
  });
}

function openSqlite(filename: string, limits: DatabaseLimits, options: DatabaseOptions): Knex {
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  return knex({
    client: SqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    log: knexLog(options.logger),
    acquireConnectionTimeout: limits.acquireTimeoutMs,
    // better-sqlite3 is synchronous: one connection serialises every transaction.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: SqliteConnection & { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) => {
        try {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma(`busy_timeout = ${limits.busyTimeoutMs}`);
          // FULL: a commit survives power loss too, not only a crash (WAL with NORMAL may drop the last ones).
          conn.pragma('synchronous = FULL');
          cacheStatements(conn);
          done(null, conn);
        } catch (error) {
          done(error as Error, conn);
        }
      },
    },
  });
}

export function isPostgres(db: Database): boolean {
  return db.client.dialect === 'postgresql';
}

export async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
