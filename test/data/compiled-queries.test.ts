import type { Knex } from 'knex';
import { runListQuery } from '../../src/data/collection-query';
import { compileQuery } from '../../src/data/compiled-query';
import { databaseOutageOf } from '../../src/data/database-errors';
import { newId, now } from '../../src/data/ids';
import { createRowMapper } from '../../src/data/row-mapper';
import { createStore, type Store } from '../../src/data/store';
import type { WorkspaceReach } from '../../src/data/workspace-scope';
import type { ListQuery } from '../../src/domain/collection';
import type { Agent, Task, User } from '../../src/model';
import { describeWithPostgres, openTestDatabase, reachableDatabaseKinds, type TestDatabase } from '../support/harness';

type Row = Record<string, unknown>;

/** The SQL and bindings knex sends to the driver while `work` runs, in order. */
async function sentQueries(db: Knex, work: () => Promise<unknown>): Promise<Array<{ sql: string; bindings: unknown[] }>> {
  const sent: Array<{ sql: string; bindings: unknown[] }> = [];
  const listener = (query: { sql: string; bindings?: unknown[] }) => sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', listener);
  try {
    await work();
  } finally {
    db.off('query', listener);
  }
  return sent;
}

const PAGES: Array<[string, ListQuery]> = [
  ['the root surface default (offset 0)', { filters: [], sort: { field: 'created_at', descending: false }, window: { kind: 'offset', skip: 0, limit: 100 } }],
  ['an offset past the start', { filters: [], sort: { field: 'created_at', descending: false }, window: { kind: 'offset', skip: 7, limit: 5 } }],
  ['an offset sorted by id, newest first', { filters: [], sort: { field: 'id', descending: true }, window: { kind: 'offset', skip: 3, limit: 4 } }],
  ['the v1 default (first cursor page, newest first)', { filters: [], sort: { field: 'created_at', descending: true }, window: { kind: 'cursor', limit: 20 } }],
  ['a first cursor page that holds everything', { filters: [], sort: { field: 'created_at', descending: false }, window: { kind: 'cursor', limit: 100 } }],
];

describe.each(reachableDatabaseKinds())('queries compiled once [%s]', (kind) => {
  let database: TestDatabase;
  let db: Knex;
  let store: Store;
  let owner: User;
  /** Where agents without an owner go. */
  let serviceWorkspaceId: string;
  let agents: Agent[];
  let task: Task;
  let sessionId: string;
  const mapper = createRowMapper(kind);

  /** An owned agent goes to its owner's personal workspace (whose id is the owner's), one without an owner to `service`. */
  const agentFor = (ownerId: string | null, name: string): Agent => {
    const timestamp = now();
    return { id: newId(), owner_id: ownerId, workspace_id: ownerId ?? serviceWorkspaceId, name, type: 'type_b', status: 'idle', created_at: timestamp, updated_at: timestamp, max_concurrency: null };
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    store = createStore(db);
    const timestamp = now();
    owner = await store.users.insert({ id: newId(), name: 'Owner', email: `owner-${newId()}@example.test`, age: 40, role: 'user', password_hash: null, created_at: timestamp, updated_at: timestamp });
    serviceWorkspaceId = await store.workspaces.serviceId();
    agents = [];
    for (let i = 0; i < 24; i++) agents.push(await store.agents.insert(agentFor(i % 3 === 0 ? null : owner.id, `agent ${i}`)));
    task = {
      id: newId(),
      agent_id: (agents[1] as Agent).id,
      title: 'compiled',
      description: 'with "quotes" and ünïcode',
      input: { list: [1, 2, { deep: null }], text: 'x' },
      priority: 3,
      status: 'queued',
      result: null,
      error: null,
      created_at: timestamp,
      updated_at: timestamp,
      started_at: null,
      finished_at: null,
      attempts: 0,
      max_attempts: 3,
      available_at: timestamp,
      progress: null,
      lease_id: null,
      last_error: null,
      usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
      run_at: null,
      timeout_seconds: null,
      deadline_at: null,
      schedule_id: null,
    };
    await store.tasks.insert(task, 123);
    sessionId = newId();
    await store.sessions.insert({ id: sessionId, user_id: owner.id, method: 'password', created_at: timestamp, expires_at: '2999-01-01T00:00:00.000Z', revoked_at: null, revoked_reason: null });
  });
  afterAll(() => database.close());

  it('when an agent is inserted, then its row holds what the query builder would have written', async () => {
    const agent = agentFor(owner.id, 'inserted');
    const twin = { ...agentFor(owner.id, 'inserted'), created_at: agent.created_at, updated_at: agent.updated_at };
    const compiled = await sentQueries(db, () => store.agents.insert(agent));
    const built = await sentQueries(db, () => db('agents').insert(twin));
    expect(compiled.map((query) => query.sql)).toEqual(built.map((query) => query.sql));
    const row = await db('agents').where({ id: agent.id }).first();
    expect({ ...row, id: twin.id }).toEqual(await db('agents').where({ id: twin.id }).first());
    expect(mapper.toAgent(row)).toEqual(agent);
  });

  it('when a task is inserted, then its JSON, its nulls and its stored bytes are written as the builder writes them', async () => {
    const row = await db('tasks').where({ id: task.id }).first();
    expect(mapper.toTask(row)).toEqual(task);
    expect(Number(row.stored_bytes)).toBe(123);
  });

  it.each([
    ['any workspace', undefined],
    ["a member of the owner's workspace", 'member'],
  ])('when one agent is read for %s, then the same statement runs and the same agent comes back, and one out of scope or missing reads as missing', async (_, scope) => {
    const memberId = scope === undefined ? undefined : owner.id;
    for (const agent of agents) {
      const builder = db('agents').select(Object.keys(agent).map((column) => `agents.${column}`));
      if (memberId !== undefined) {
        builder
          .select({ member_role: 'workspace_members.role' })
          .join('workspace_members', (on) => on.on('workspace_members.workspace_id', 'agents.workspace_id').andOnVal('workspace_members.user_id', memberId));
      }
      builder.where('agents.id', agent.id).first().limit(1, { skipBinding: true });
      const expected = (await builder.clone()) as unknown as Row | undefined;
      const sent = await sentQueries(db, async () =>
        expect(await store.agents.reach(agent.id, { memberId })).toEqual(expected ? { item: mapper.toAgent(expected), role: memberId === undefined ? null : 'owner' } : undefined),
      );
      expect(sent).toEqual([builder.toSQL().toNative()]);
    }
    expect(await store.agents.reach(newId(), { memberId })).toBeUndefined();
    expect(await store.agents.reach('not-an-id', { memberId })).toBeUndefined();
  });

  it('when an agent or a task is read with its lock inside a transaction, then the row comes back (locked where the database can)', async () => {
    const agent = agents[1] as Agent;
    const sent = await sentQueries(db, () =>
      store.transaction(async (tx) => {
        expect(await tx.agents.reach(agent.id, { lock: true, memberId: owner.id })).toEqual({ item: agent, role: 'owner' });
        expect(await tx.tasks.find(agent.id, task.id, { lock: true })).toEqual(task);
      }),
    );
    const reads = sent.filter((query) => /^select/i.test(query.sql));
    expect(reads).toHaveLength(2);
    // The agent's read joins the member's role: it locks the agent's row only (`of agents`).
    for (const query of reads) expect(/ for update( of "agents")?$/.test(query.sql)).toBe(kind === 'pg');
  });

  it('when a task is read, then it comes back only under its own agent', async () => {
    expect(await store.tasks.find(task.agent_id, task.id)).toEqual(task);
    expect(await store.tasks.find((agents[2] as Agent).id, task.id)).toBeUndefined();
  });

  it('when a live session is looked up, then it comes back with its user, and not for another user or once revoked', async () => {
    const live = await store.sessions.findLive(sessionId, owner.id, now());
    expect(live?.user).toEqual(owner);
    expect(live?.session).toMatchObject({ id: sessionId, user_id: owner.id, method: 'password', revoked_at: null });
    expect(await store.sessions.findLive(sessionId, newId(), now())).toBeUndefined();
    expect(await store.sessions.findLive(sessionId, owner.id, '2999-06-01T00:00:00.000Z')).toBeUndefined();
  });

  describe.each(PAGES)('when a page is listed: %s', (_, query) => {
    it.each([
      ['every agent', 'all'],
      ["the agents of the owner's workspaces", 'member'],
      ["the agents of the owner's personal workspace", 'workspace'],
    ])('for %s, then the rows, their order and hasMore are those of the general builder', async (__, scope) => {
      const reach: WorkspaceReach = scope === 'member' ? { memberId: owner.id } : scope === 'workspace' ? { workspaceId: owner.id } : {};
      const base = () =>
        reach.memberId !== undefined
          ? db('agents').whereIn('workspace_id', db('workspace_members').select('workspace_id').where('user_id', reach.memberId))
          : reach.workspaceId !== undefined
            ? db('agents').where({ workspace_id: reach.workspaceId })
            : db('agents');
      let expected: Awaited<ReturnType<typeof runListQuery>> | undefined;
      const built = await sentQueries(db, async () => {
        expected = await runListQuery(base(), query, {});
      });
      let actual: Awaited<ReturnType<Store['agents']['list']>> | undefined;
      const compiled = await sentQueries(db, async () => {
        actual = await store.agents.list(query, reach);
      });
      expect(actual).toEqual({ ...expected, items: expected?.items.map(mapper.toAgent) });
      // The compiled page names its columns where the builder reads `*`, and binds the `offset 0` the builder leaves out.
      const shape = (sent: { sql: string }) => sent.sql.replace(/^select .*? from /, 'select * from ').replace(/ offset (\?|\$\d+)$/, '');
      expect(compiled.map(shape)).toEqual(built.map(shape));
      expect(compiled[0]?.sql.replace(/[`"]/g, '')).toMatch(/^select id, owner_id, workspace_id, name, type, status, created_at, updated_at, max_concurrency from /);
    });
  });

  it('when cursor pages are followed to the end, then they hold exactly what the general builder pages hold', async () => {
    for (const descending of [false, true]) {
      const pageAfter = (after: string | undefined): ListQuery => ({ filters: [], sort: { field: 'created_at', descending }, window: { kind: 'cursor', after, limit: 5 } });
      let after: string | undefined;
      let pages = 0;
      do {
        const expected = await runListQuery(db('agents').whereIn('workspace_id', db('workspace_members').select('workspace_id').where('user_id', owner.id)), pageAfter(after), {});
        const actual = await store.agents.list(pageAfter(after), { memberId: owner.id });
        expect(actual).toEqual({ ...expected, items: expected.items.map(mapper.toAgent) });
        after = actual.hasMore ? actual.items.at(-1)?.id : undefined;
        pages += 1;
      } while (after !== undefined);
      expect(pages).toBeGreaterThan(2);
    }
  });

  it('when a cursor is not an id, then the page is refused as the general builder refuses it', async () => {
    const query: ListQuery = { filters: [], sort: { field: 'created_at', descending: true }, window: { kind: 'cursor', after: 'nope', limit: 5 } };
    const expected = await runListQuery(db('agents'), query, {}).catch((error: unknown) => error);
    await expect(store.agents.list(query, {})).rejects.toEqual(expected);
  });

  it('when a list has filters or sorts by another column, then the general builder answers it', async () => {
    const query: ListQuery = { filters: [{ field: 'status', op: 'eq', value: 'idle' }], sort: { field: 'name', descending: false }, window: { kind: 'offset', skip: 0, limit: 3 } };
    const sent = await sentQueries(db, () => store.agents.list(query, {}));
    expect(sent.map((sentQuery) => sentQuery.sql)).toEqual([db('agents').where('status', '=', 'idle').orderBy([{ column: 'name', order: 'asc' }, { column: 'id', order: 'asc' }]).limit(3).toSQL().toNative().sql]);
  });

  it('when a transaction inserts and then fails, then its compiled insert ran on the transaction and is rolled back', async () => {
    const agent = agentFor(owner.id, 'rolled back');
    await expect(
      store.transaction(async (tx) => {
        await tx.agents.insert(agent);
        expect(await tx.agents.find(agent.id)).toEqual(agent);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await store.agents.find(agent.id)).toBeUndefined();
  });

  it('when the driver fails a compiled query, then the error reads as knex would have it (the statement, then the driver message)', async () => {
    const broken = compileQuery<'id', Row | undefined>(db, (parameters) => db('no_such_table').first('id').where({ id: parameters.value('id') }));
    const error = await broken.run(db, { id: 'x' }).catch((failure: unknown) => failure as Error);
    const expected = await db('no_such_table').first('id').where({ id: 'x' }).limit(1, { skipBinding: true }).catch((failure: unknown) => failure as Error);
    expect((error as Error).message).toBe((expected as Error).message);
    expect((error as { code?: unknown }).code).toBe((expected as { code?: unknown }).code);
    expect(databaseOutageOf(error)).toBeUndefined();
  });

  it(`when a compiled query runs, then it is ${kind === 'pg' ? 'a named prepared statement, one name per SQL text' : 'an ordinary statement (the connection caches its statements)'}`, async () => {
    const names: unknown[] = [];
    const listener = (query: { options?: { name?: unknown } }) => names.push(query.options?.name);
    db.on('query', listener);
    try {
      await store.agents.find((agents[0] as Agent).id);
      await store.agents.find((agents[1] as Agent).id);
      await store.agents.reach((agents[1] as Agent).id, { memberId: owner.id });
    } finally {
      db.off('query', listener);
    }
    if (kind === 'pg') {
      expect(names[0]).toMatch(/^fleet_[0-9a-f]{24}$/);
      expect(names[1]).toBe(names[0]);
      expect(names[2]).not.toBe(names[0]);
    } else {
      expect(names).toEqual([undefined, undefined, undefined]);
    }
  });

  it('when a compiled query reads one row, then its `limit 1` is written into the SQL, not bound (SQLite prepares a statement with a bound LIMIT again at every run)', async () => {
    const sent: Array<{ sql: string; bindings: unknown[] }> = [];
    const listener = (query: { sql: string; bindings: unknown[] }) => sent.push(query);
    db.on('query', listener);
    try {
      await expect(store.agents.find((agents[0] as Agent).id)).resolves.toMatchObject({ id: (agents[0] as Agent).id });
    } finally {
      db.off('query', listener);
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]?.sql).toMatch(/ limit 1$/);
    expect(sent[0]?.bindings).toEqual([(agents[0] as Agent).id]);
  });

  it('when a migration adds a column to a table the compiled queries read, then they keep working and read what they read before', async () => {
    const agent = agents[2] as Agent;
    const page: ListQuery = { filters: [], sort: { field: 'created_at', descending: false }, window: { kind: 'offset', skip: 0, limit: 100 } };
    const before = await store.agents.list(page, {});
    expect(await store.agents.find(agent.id)).toEqual(agent);
    await db.schema.alterTable('agents', (table) => {
      table.text('nickname');
    });
    try {
      expect(await store.agents.find(agent.id)).toEqual(agent);
      expect(await store.agents.list(page, {})).toEqual(before);
    } finally {
      // Not knex's dropColumn: on SQLite it rebuilds the table, which the trigger of migration 016 (workspaces_cascade) refuses.
      await db.raw('alter table agents drop column nickname');
    }
    expect(await store.agents.find(agent.id)).toEqual(agent);
  });

  it('when a parameter would be written into the SQL text, a query reads `*`, or a parameter is declared and never bound, then compiling refuses the query', () => {
    expect(() => compileQuery<'id', unknown>(db, (parameters) => db('agents').where({ id: parameters.value('id') }))).toThrow(/names the columns it reads/);
    expect(() => compileQuery<'id', unknown>(db, (parameters) => db('sessions').join('users', 'users.id', 'sessions.user_id').first('sessions.id', 'users.*').where('users.id', parameters.value('id')))).toThrow(
      /names the columns it reads/,
    );
    expect(compileQuery<'id', unknown>(db, (parameters) => db('agents').count({ n: '*' }).where({ id: parameters.value('id') })).sql).toMatch(/count\(\*\)/);
    expect(() => compileQuery<'id', unknown>(db, (parameters) => db('agents').select('id').whereRaw(`id = '${parameters.value('id')}'`))).toThrow(/instead of bound/);
    expect(() =>
      compileQuery<'id' | 'limit', unknown>(db, (parameters) => {
        parameters.value('id');
        return db('agents').select('id').limit(parameters.integer('limit'));
      }),
    ).toThrow(/parameter id is not bound/);
  });

  it('when a value is missing at run time, then the query is refused before it reaches the database', async () => {
    const find = compileQuery<'id', Row | undefined>(db, (parameters) => db('agents').first('id').where({ id: parameters.value('id') }));
    await expect(find.run(db, { id: undefined })).rejects.toThrow(/Undefined binding/);
  });
});

describeWithPostgres('named prepared statements when a column changes its type [pg]', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pg', { poolMax: 2, acquireTimeoutMs: 5000, statementTimeoutMs: 10_000, busyTimeoutMs: 5000 });
  });
  afterAll(() => database.close());

  it('when a column a prepared statement reads changes its type, then the connections whose statement fails are replaced and the query works again', async () => {
    const store = createStore(database.db);
    const timestamp = now();
    const agent: Agent = { id: newId(), owner_id: null, workspace_id: await store.workspaces.serviceId(), name: 'typed', type: 'type_c', status: 'idle', created_at: timestamp, updated_at: timestamp, max_concurrency: null };
    await store.agents.insert(agent);
    // Prepared on both connections of the pool.
    await Promise.all([store.agents.find(agent.id), store.agents.find(agent.id)]);
    await database.db.raw('alter table agents alter column name type varchar(200)');
    const failures: unknown[] = [];
    let found: Agent | undefined;
    for (let attempt = 0; attempt < 4 && found === undefined; attempt++) {
      found = await store.agents.find(agent.id).catch((error: unknown) => {
        failures.push((error as { code?: unknown }).code);
        return undefined;
      });
    }
    expect(found).toEqual(agent);
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures.length).toBeLessThanOrEqual(2);
    for (const code of failures) expect(code).toBe('0A000');
  });
});
