/** What the cache needs of a better-sqlite3 connection (the package ships no types). */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

interface SqliteStatement {
  safeIntegers(toggle: boolean): unknown;
}

/**
 * Enough for every statement the service issues with a fixed text. Texts that vary (an `in (?, ?, …)`
 * list has one per length) take the least recently used places; at most a few megabytes in all
 * (a statement holds 7 to 25 KB).
 */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * Makes `connection.prepare` answer the statement it prepared before for the same SQL text, the
 * least recently used one going first beyond `capacity`. knex prepares every statement of every
 * query again (its better-sqlite3 dialect keeps none), which costs about as much as running it.
 *
 * Reuse is safe because of what knex does with a statement: `all` or `run` (`reader` decides),
 * which finish synchronously and reset it; never `iterate`, `bind`, `raw`, `pluck` or `expand`,
 * which would leave state behind. The one setting it changes, `safeIntegers`, is put back to the
 * connection's default here, off (knex sets it afterwards when a query asks for it). A schema change
 * needs nothing: SQLite prepares a statement again by itself when the schema it was prepared
 * against has changed. better-sqlite3's own `pragma` and `transaction` do not go through
 * `prepare`, so they never meet these statements.
 */
export function cacheStatements(connection: SqliteConnection, capacity: number = STATEMENT_CACHE_SIZE): void {
  const prepare = connection.prepare.bind(connection);
  const statements = new Map<string, SqliteStatement>();
  connection.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
    } else {
      // Map keeps insertion order: taking it out and back in makes it the most recently used.
      statements.delete(sql);
      statement.safeIntegers(false);
    }
    statements.set(sql, statement);
    return statement;
  };
}
