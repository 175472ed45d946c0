/**
 * What the drivers' errors mean for a request. PostgreSQL's SQLSTATE classes and SQLite's result
 * codes, and the network errors of an unreachable server, read in one place.
 */

/** Why the database could not serve a request: a bounded set, fit for a metric label. */
export type DatabaseOutage = 'connection' | 'pool_timeout' | 'statement_timeout' | 'shutdown' | 'resources' | 'disk_full' | 'busy';

/** Connection failures and server states where retrying later is the right answer. */
const OUTAGE_OF_CODE: Record<string, DatabaseOutage> = {
  ECONNREFUSED: 'connection',
  ECONNRESET: 'connection',
  ETIMEDOUT: 'connection',
  EHOSTUNREACH: 'connection',
  ENOTFOUND: 'connection',
  EPIPE: 'connection',
  // PostgreSQL: connection exceptions (08), insufficient resources (53), operator intervention (57).
  '08000': 'connection',
  '08001': 'connection',
  '08003': 'connection',
  '08004': 'connection',
  '08006': 'connection',
  '53000': 'resources',
  '53100': 'disk_full',
  '53300': 'resources',
  '57014': 'statement_timeout',
  '57P01': 'shutdown',
  '57P02': 'shutdown',
  '57P03': 'shutdown',
  // SQLite: the disk is full.
  SQLITE_FULL: 'disk_full',
};

/**
 * SQLite: another connection holds the file past busy_timeout (SQLITE_BUSY), or what a statement
 * needs (SQLITE_LOCKED). better-sqlite3 reports extended codes, and each of theirs (SQLITE_BUSY_SNAPSHOT,
 * SQLITE_BUSY_RECOVERY, SQLITE_BUSY_TIMEOUT, SQLITE_LOCKED_SHAREDCACHE, ...) means the same: try later.
 */
const SQLITE_BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_[A-Z]+)?$/;

/** What kind of outage `error` reports, or undefined for anything else (a bug stays a 500). */
export function databaseOutageOf(error: unknown): DatabaseOutage | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && Object.hasOwn(OUTAGE_OF_CODE, code)) return OUTAGE_OF_CODE[code];
  if (typeof code === 'string' && SQLITE_BUSY_CODE.test(code)) return 'busy';
  // knex: no pool connection within acquireConnectionTimeout.
  if (name === 'KnexTimeoutError') return 'pool_timeout';
  if (typeof message !== 'string') return undefined;
  // pg's own errors carry no code; knex puts the failed statement before the message (`select ... - `).
  const driverMessage = /(?:^| - )([^-]*)$/.exec(message)?.[1] ?? message;
  // pg: the server did not answer at all within query_timeout (frozen, or cut off).
  if (driverMessage === 'Query read timeout') return 'statement_timeout';
  // pg: the server went away mid-query, or did not finish accepting a connection within
  // connectionTimeoutMillis (reported either way, depending on how far the handshake got).
  return /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout expired)$/.test(driverMessage) ? 'connection' : undefined;
}

/** A row that names another which no longer exists (deleted by a concurrent request). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Unique-constraint violations, as each driver reports them. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
