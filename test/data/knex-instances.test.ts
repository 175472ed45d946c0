import knex, { type Knex } from 'knex';
import { newId, now } from '../../src/data/ids';
import { createStore } from '../../src/data/store';
import { openTestDatabase, reachableDatabaseKinds, type TestDatabase } from '../support/harness';

/**
 * knex is patched (patches/knex+3.3.0.patch) so that its instances, one per transaction, take the
 * query-builder shortcuts, property accessors and EventEmitter methods from one shared prototype
 * instead of each being given about 150 properties of its own.
 */
describe.each(reachableDatabaseKinds())('knex instances [%s]', (kind) => {
  let database: TestDatabase;
  let db: Knex;
  /** Where an agent without an owner belongs. */
  let serviceWorkspaceId: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    serviceWorkspaceId = await createStore(db).workspaces.serviceId();
  });
  afterAll(() => database.close());

  it('when a transaction runs, then its knex instance holds only its own state and still builds, runs and reports queries', async () => {
    const id = newId();
    const timestamp = now();
    const seen: string[] = [];
    const listener = (query: { sql: string }) => seen.push(query.sql);
    db.on('query', listener);
    try {
      await db.transaction(async (trx) => {
        // The patched instance: its own properties are its context, client state and listeners, not the ~150 shared ones.
        expect(Object.keys(trx).length).toBeLessThan(20);
        expect(Object.getPrototypeOf(trx)).toBe(Object.getPrototypeOf(db));
        await trx('agents').insert({ id, owner_id: null, workspace_id: serviceWorkspaceId, name: 'in a transaction', type: 'type_a', status: 'idle', created_at: timestamp, updated_at: timestamp });
        expect(await trx('agents').where({ id }).first('name')).toEqual({ name: 'in a transaction' });
        expect(trx.isTransaction).toBe(true);
        expect(trx.client).not.toBe(db.client);
      });
    } finally {
      db.off('query', listener);
    }
    expect(seen.some((sql) => sql.startsWith('insert into'))).toBe(true);
    expect(await db('agents').where({ id }).first('name')).toEqual({ name: 'in a transaction' });
  });

  it('when a transaction fails, then nothing it wrote remains', async () => {
    const id = newId();
    const timestamp = now();
    await expect(
      db.transaction(async (trx) => {
        await trx('agents').insert({ id, owner_id: null, workspace_id: serviceWorkspaceId, name: 'rolled back', type: 'type_a', status: 'idle', created_at: timestamp, updated_at: timestamp });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await db('agents').where({ id }).first('id')).toBeUndefined();
  });

  it('when a copy is made with user params, then it keeps its own client and params and queries the same database', async () => {
    const copy = db.withUserParams({ purpose: 'test' });
    expect(copy.userParams).toEqual({ purpose: 'test' });
    expect(db.userParams).not.toEqual({ purpose: 'test' });
    expect(copy.client).not.toBe(db.client);
    expect(await copy('agents').count({ n: '*' }).first()).toEqual(await db('agents').count({ n: '*' }).first());
  });
});

describe('knex instances made after QueryBuilder.extend', () => {
  it('when a query-builder method is added, then instances made before and after it both have it', async () => {
    const before = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    const name = `fleetTestShortcut${newId().replaceAll('-', '')}`;
    knex.QueryBuilder.extend(name, function (this: Knex.QueryBuilder) {
      return this.select(this.client.raw('1 as one'));
    });
    const after = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    try {
      for (const instance of [after, before]) {
        const shortcut = (instance as unknown as Record<string, ((this: Knex) => Knex.QueryBuilder) | undefined>)[name];
        expect(typeof shortcut).toBe('function');
        expect(await shortcut?.call(instance)).toEqual([{ one: 1 }]);
      }
    } finally {
      await Promise.all([before.destroy(), after.destroy()]);
    }
  });
});
