import { KnexTimeoutError, type Knex } from 'knex';
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

/** What knex says when no connection came within acquireConnectionTimeout (its pool's own words). */
const ACQUIRE_TIMEOUT_MESSAGE = 'Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?';

interface Waiter {
  resolve(connection: Promise<unknown>): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * Lends a database's one SQLite connection to one user at a time (a query, or a transaction from
 * its BEGIN to its COMMIT), in the order they asked. The connection is taken from knex's pool when
 * first needed and kept; a user who waits longer than the pool's acquire timeout fails with knex's
 * KnexTimeoutError, as with the pool. Once closing, the connection goes back to the pool as soon
 * as its user is done, and whoever asks is sent to the pool (which refuses, being destroyed).
 */
export class ConnectionLender {
  private connection: unknown;
  private lent = false;
  private closing = false;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly pool: { take(): Promise<unknown>; giveBack(connection: unknown): void; timeoutMs: number },
  ) {}

  acquire(): Promise<unknown> {
    if (this.closing) return this.pool.take();
    if (this.lent) return this.wait();
    this.lent = true;
    const kept = this.connection;
    // A connection closed under the pool's feet goes back to it, which destroys it, and a new one is taken.
    if (kept !== undefined && (kept as { open?: unknown }).open !== false) return Promise.resolve(kept);
    this.connection = undefined;
    if (kept !== undefined) this.pool.giveBack(kept);
    return this.pool.take().then(
      (connection) => {
        this.connection = connection;
        return connection;
      },
      (error: unknown) => {
        this.handOn();
        throw error;
      },
    );
  }

  /** Whether `connection` is the one this lender lends (anything else goes back to the pool directly). */
  lends(connection: unknown): boolean {
    return connection !== undefined && connection === this.connection;
  }

  release(): void {
    this.handOn();
    if (!this.lent && this.closing) this.giveBack();
  }

  close(): void {
    this.closing = true;
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve(this.pool.take());
    }
    if (!this.lent) this.giveBack();
  }

  /** The connection is free: the longest waiter gets it. */
  private handOn(): void {
    this.lent = false;
    const next = this.waiting.shift();
    if (next === undefined) return;
    clearTimeout(next.timer);
    next.resolve(this.acquire());
  }

  private wait(): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new KnexTimeoutError(ACQUIRE_TIMEOUT_MESSAGE));
        }, this.pool.timeoutMs),
      };
      this.waiting.push(waiter);
    });
  }

  private giveBack(): void {
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) this.pool.giveBack(connection);
  }
}

/** The parts of knex's client and its tarn pool that lending uses. */
interface PooledClient {
  pool?: { acquireTimeoutMillis: number };
}

/** One lender per pool: a copy of the database (`withUserParams`) shares its original's pool. */
const lenders = new WeakMap<object, ConnectionLender>();

/**
 * knex's better-sqlite3 client, its transactions beginning with `BEGIN IMMEDIATE` and committing
 * their events, its one connection lent by a ConnectionLender: knex takes every query's connection
 * from its pool, which for one connection cost two pending operations, each with its own timer, and
 * a dozen promises per query.
 */
export class SqliteClient extends BetterSqlite3Client {
  override transaction(...args: unknown[]): Knex.Transaction {
    return new SqliteEventsTransaction(this, ...args) as unknown as Knex.Transaction;
  }

  override acquireConnection(): Promise<unknown> {
    const lender = this.lender();
    return lender ? lender.acquire() : super.acquireConnection();
  }

  override releaseConnection(connection: unknown): Promise<void> {
    const lender = this.lender();
    if (!lender?.lends(connection)) return super.releaseConnection(connection);
    lender.release();
    return Promise.resolve();
  }

  override destroy(callback?: (error?: unknown) => void): Promise<void> {
    this.lender()?.close();
    return super.destroy(callback);
  }

  private lender(): ConnectionLender | undefined {
    const pool = (this as PooledClient).pool;
    if (pool === undefined) return undefined;
    let lender = lenders.get(pool);
    if (lender === undefined) {
      lender = new ConnectionLender({
        take: () => super.acquireConnection(),
        giveBack: (connection) => void super.releaseConnection(connection),
        timeoutMs: pool.acquireTimeoutMillis,
      });
      lenders.set(pool, lender);
    }
    return lender;
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
