/**
 * What the drivers' errors mean for a request. PostgreSQL's SQLSTATE classes and SQLite's result
 * codes, and the network errors of an unreachable server, read in one place.
 */

/** Connection failures and server states where retrying later is the right answer. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  // PostgreSQL: connection exceptions (08), insufficient resources (53), operator intervention (57P).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53000',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  // SQLite: another process holds the file past busy_timeout.
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  // knex: no pool connection within acquireConnectionTimeout.
  if (name === 'KnexTimeoutError') return true;
  // pg: the server went away mid-query.
  return typeof message === 'string' && /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message);
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
