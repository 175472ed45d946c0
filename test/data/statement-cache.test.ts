import { newId, now } from '../../src/data/ids';
import { cacheStatements, type SqliteConnection } from '../../src/data/statement-cache';
import { createStore } from '../../src/data/store';
import type { Agent } from '../../src/model';
import { openTestDatabase, type TestDatabase } from '../support/harness';

// better-sqlite3 ships no types.
const Sqlite = require('better-sqlite3') as new (filename: string) => unknown;

interface Statement {
  all(...bindings: unknown[]): Array<Record<string, unknown>>;
  run(...bindings: unknown[]): unknown;
}

/** A connection of its own, its real prepares counted under the cache. */
function countingConnection(capacity: number): { connection: SqliteConnection & { exec(sql: string): void }; prepared: string[] } {
  const connection = new Sqlite(':memory:') as SqliteConnection & { exec(sql: string): void };
  const prepared: string[] = [];
  const prepare = connection.prepare.bind(connection);
  connection.prepare = (sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  };
  cacheStatements(connection, capacity);
  return { connection, prepared };
}

/** An agent without an owner: it goes to the `service` workspace. */
const agent = (name: string, serviceWorkspaceId: string): Agent => {
  const timestamp = now();
  return { id: newId(), owner_id: null, workspace_id: serviceWorkspaceId, name, type: 'type_a', status: 'idle', created_at: timestamp, updated_at: timestamp, max_concurrency: null };
};

describe('the prepared-statement cache of a better-sqlite3 connection', () => {
  it('when the same SQL is prepared again, then the statement prepared the first time answers', () => {
    const { connection, prepared } = countingConnection(4);
    const first = connection.prepare('select 1 as one');
    expect(connection.prepare('select 1 as one')).toBe(first);
    expect(prepared).toEqual(['select 1 as one']);
  });

  it('when more texts than it holds are prepared, then it keeps the most recently used ones and forgets the rest', () => {
    const { connection, prepared } = countingConnection(3);
    const statements = ['select 1', 'select 2', 'select 3'].map((sql) => connection.prepare(sql));
    // Used again: now the most recent, so `select 2` is the oldest.
    expect(connection.prepare('select 1')).toBe(statements[0]);
    connection.prepare('select 4');
    expect(connection.prepare('select 1')).toBe(statements[0]);
    expect(connection.prepare('select 3')).toBe(statements[2]);
    expect(connection.prepare('select 2')).not.toBe(statements[1]);
    expect(prepared).toEqual(['select 1', 'select 2', 'select 3', 'select 4', 'select 2']);
    // Never more than its capacity: 100 texts later, every one of the first ones is prepared again.
    for (let i = 0; i < 100; i++) connection.prepare(`select ${i} + 10`);
    prepared.length = 0;
    for (const sql of ['select 1', 'select 3', 'select 4']) connection.prepare(sql);
    expect(prepared).toEqual(['select 1', 'select 3', 'select 4']);
  });

  it('when a query once asked for safe integers, then the statement reused for the same SQL reads plain numbers again', () => {
    const { connection } = countingConnection(4);
    connection.exec('create table counts (n integer)');
    (connection.prepare('insert into counts (n) values (?)') as unknown as Statement).run(7);
    const statement = connection.prepare('select n from counts') as unknown as Statement & { safeIntegers(on: boolean): void };
    statement.safeIntegers(true);
    expect(statement.all()).toEqual([{ n: 7n }]);
    expect((connection.prepare('select n from counts') as unknown as Statement).all()).toEqual([{ n: 7 }]);
  });

  it('when the schema changes under a cached statement, then the statement follows it (SQLite prepares it again)', () => {
    const { connection } = countingConnection(4);
    connection.exec('create table things (a text)');
    const select = connection.prepare('select * from things') as unknown as Statement;
    connection.exec("insert into things (a) values ('x'); alter table things add column b text default 'y'");
    expect(select.all()).toEqual([{ a: 'x', b: 'y' }]);
    connection.exec('alter table things rename to gone');
    expect(() => select.all()).toThrow(/no such table: things/);
    connection.exec('create table things (c integer)');
    expect(connection.prepare('select * from things')).toBe(select);
    expect(select.all()).toEqual([]);
  });
});

describe('the statement cache on the service SQLite connection', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
  });
  afterAll(() => database.close());

  const withConnection = async <T>(work: (connection: SqliteConnection) => T): Promise<T> => {
    const connection = (await database.db.client.acquireConnection()) as SqliteConnection;
    try {
      return work(connection);
    } finally {
      await database.db.client.releaseConnection(connection);
    }
  };

  it('is installed where the service opens its connection', async () => {
    const sql = 'select count(*) as n from agents';
    const statement = await withConnection((connection) => connection.prepare(sql));
    expect(await withConnection((connection) => connection.prepare(sql))).toBe(statement);
  });

  it('when knex runs a query whose SQL was prepared before, then it runs that same statement', async () => {
    const store = createStore(database.db);
    const inserted = await store.agents.insert(agent('cached', await store.workspaces.serviceId()));
    const { sql } = database.db('agents').where({ id: inserted.id }).first().toSQL();
    const statement = (await withConnection((connection) => connection.prepare(sql))) as unknown as Statement;
    const all = jest.spyOn(statement, 'all');
    try {
      expect(await database.db('agents').where({ id: inserted.id }).first()).toMatchObject({ id: inserted.id, name: 'cached' });
      expect(all).toHaveBeenCalledTimes(1);
    } finally {
      all.mockRestore();
    }
  });

  it('when a migration changes a table on the same connection, then the cached reads and writes of that table see the new schema', async () => {
    const store = createStore(database.db);
    const service = await store.workspaces.serviceId();
    const before = await store.agents.insert(agent('before', service));
    expect(await store.agents.find(before.id)).toEqual(before);
    await database.db.schema.alterTable('agents', (table) => {
      table.text('nickname').notNullable().defaultTo('none');
    });
    try {
      const after = await store.agents.insert(agent('after', service));
      expect(await store.agents.find(after.id)).toEqual(after);
      expect(await database.db('agents').where({ id: after.id }).first()).toMatchObject({ name: 'after', nickname: 'none' });
      expect((await store.agents.list({ filters: [], sort: { field: 'id', descending: false }, window: { kind: 'offset', skip: 0, limit: 1000 } }, {})).items.map((item) => item.id)).toEqual(
        expect.arrayContaining([before.id, after.id]),
      );
    } finally {
      // Not knex's dropColumn: it rebuilds the table, which the trigger of migration 016 (workspaces_cascade) refuses.
      await database.db.raw('alter table agents drop column nickname');
    }
    const last = await store.agents.insert(agent('last', service));
    expect(await database.db('agents').where({ id: last.id }).first()).not.toHaveProperty('nickname');
  });
});
