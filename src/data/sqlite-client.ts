import type { Knex } from 'knex';

interface TransactionBase {
  query(connection: unknown, sql: string): Promise<unknown>;
}

// knex ships its dialects as untyped CommonJS modules; a subclass of one is what its `client` option takes.
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3') as typeof Knex.Client;
const SqliteTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction') as new (...args: unknown[]) => TransactionBase;

/**
 * Every transaction takes the write lock when it begins. A deferred one (knex's `BEGIN`) that has
 * read and then writes must upgrade its lock, and SQLite answers SQLITE_BUSY at once when another
 * process holds it rather than wait (waiting could deadlock two such upgrades): with several
 * processes on one file, writes would fail under any concurrency. `BEGIN IMMEDIATE` waits for the
 * lock up to busy_timeout instead. The service's transactions all write.
 */
class ImmediateTransaction extends SqliteTransaction {
  begin(connection: unknown): Promise<unknown> {
    return this.query(connection, 'BEGIN IMMEDIATE;');
  }
}

/** knex's better-sqlite3 client, its transactions beginning with `BEGIN IMMEDIATE`. */
export class SqliteClient extends BetterSqlite3Client {
  override transaction(...args: unknown[]): Knex.Transaction {
    return new ImmediateTransaction(this, ...args) as unknown as Knex.Transaction;
  }
}
