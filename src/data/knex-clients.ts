import type { Knex } from 'knex';
import { eventWritesOf, insertEventsAndCommitSql, insertEventsNow, type EventWrites, type SqliteEventConnection } from './event-writes';

/** The parts of knex's transaction class (an untyped CommonJS module) that these subclasses use. */
interface TransactionBase {
  /** The knex object the transaction's work was handed (its `trx`). */
  transactor: unknown;
  _completed: boolean;
  _resolver(value: unknown): void;
  _rejecter(error: unknown): void;
  query(connection: unknown, sql: string): Promise<unknown>;
  commit(connection: unknown, value: unknown): Promise<unknown>;
  rollback(connection: unknown, error: unknown): Promise<unknown>;
}
type TransactionClass = new (...args: unknown[]) => TransactionBase;

// knex ships its dialects as untyped CommonJS modules; a subclass of one is what its `client` option takes.
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3') as typeof Knex.Client;
const SqliteTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction') as TransactionClass;
const PostgresClientBase = require('knex/lib/dialects/postgres') as typeof Knex.Client;
const PostgresTransaction = require('knex/lib/dialects/postgres/execution/pg-transaction') as TransactionClass;

/**
 * Every transaction takes the write lock when it begins. A deferred one (knex's `BEGIN`) that has
 * read and then writes must upgrade its lock, and SQLite answers SQLITE_BUSY at once when another
 * process holds it rather than wait (waiting could deadlock two such upgrades): with several
 * processes on one file, writes would fail under any concurrency. `BEGIN IMMEDIATE` waits for the
 * lock up to busy_timeout instead. The service's transactions all write.
 *
 * Its events are inserted synchronously as it commits, on its connection (the process's one, held
 * by the transaction until then: every asynchronous step saved is time other requests wait).
 */
class SqliteEventsTransaction extends SqliteTransaction {
  begin(connection: unknown): Promise<unknown> {
    return this.query(connection, 'BEGIN IMMEDIATE;');
  }

  override commit(connection: unknown, value: unknown): Promise<unknown> {
    const writes = eventWritesOf(this.transactor);
    if (!writes) return super.commit(connection, value);
    try {
      writes.lastId = insertEventsNow(connection as SqliteEventConnection, writes.events);
    } catch (error) {
      return this.rollback(connection, error);
    }
    return super.commit(connection, value);
  }
}

/** knex's better-sqlite3 client, its transactions beginning with `BEGIN IMMEDIATE` and committing their events. */
export class SqliteClient extends BetterSqlite3Client {
  override transaction(...args: unknown[]): Knex.Transaction {
    return new SqliteEventsTransaction(this, ...args) as unknown as Knex.Transaction;
  }
}

interface PostgresConnection {
  query(text: string): Promise<Array<{ rows: Array<{ id: string }> }>>;
  escapeLiteral(value: string): string;
}

/**
 * A PostgreSQL transaction whose events go in the COMMIT's round trip (insertEventsAndCommitSql).
 * It then ends as knex's own COMMIT would end it: marked complete, its promise settled with the
 * value or with the failure itself. The answer never rejects, or knex would roll back again.
 */
class PostgresEventsTransaction extends PostgresTransaction {
  override commit(connection: unknown, value: unknown): Promise<unknown> {
    const writes = eventWritesOf(this.transactor);
    if (!writes) return super.commit(connection, value);
    this._completed = true;
    return commitEvents(connection as PostgresConnection, writes).then(
      () => this._resolver(value),
      (error: unknown) => this._rejecter(error),
    );
  }
}

async function commitEvents(client: PostgresConnection, writes: EventWrites): Promise<void> {
  try {
    const [inserted] = await client.query(insertEventsAndCommitSql(writes.events, (text) => client.escapeLiteral(text)));
    writes.lastId = inserted?.rows[0]?.id;
  } catch (error) {
    // A failed statement leaves the transaction aborted (or, a failed COMMIT, ended): the
    // connection goes back to the pool clean either way (ROLLBACK outside one only warns).
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** knex's PostgreSQL client, its transactions committing their events in the COMMIT's round trip. */
export class PostgresClient extends PostgresClientBase {
  override transaction(...args: unknown[]): Knex.Transaction {
    return new PostgresEventsTransaction(this, ...args) as unknown as Knex.Transaction;
  }
}
