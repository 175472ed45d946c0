import type { Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import { createStore } from '../../src/data/store';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { createRandom } from '../support/fuzzer/random';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt } from '../support/scratch-database';

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** Each agent's tasks by status, counted from the tasks themselves. */
async function recount(db: Knex): Promise<Record<string, number>> {
  const rows: Array<{ agent_id: string; status: string; n: unknown }> = await db('tasks').select('agent_id', 'status').count({ n: '*' }).groupBy('agent_id', 'status');
  return Object.fromEntries(rows.map((row) => [`${row.agent_id}/${row.status}`, Number(row.n)]));
}

/** The same, as the kept counters say (counters at 0 left out). */
async function kept(db: Knex): Promise<Record<string, number>> {
  const rows: Array<{ agent_id: string; status: string; n: unknown }> = await db('agent_task_counts').select('agent_id', 'status', 'n').whereNot('n', 0);
  return Object.fromEntries(rows.map((row) => [`${row.agent_id}/${row.status}`, Number(row.n)]));
}

/** A table's foreign keys as `column → table (on delete)`, sorted. */
async function foreignKeysOf(db: Knex, kind: DatabaseKind, table: string): Promise<string[]> {
  if (kind === 'sqlite') {
    const rows = (await db.raw(`pragma foreign_key_list(${table})`)) as Array<{ from: string; table: string; on_delete: string }>;
    return rows.map((row) => `${row.from} → ${row.table} (${row.on_delete})`).sort();
  }
  const result = await db.raw(
    `select a.attname as column, c.confrelid::regclass::text as target, c.confdeltype as action
     from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
     where c.conrelid = ?::regclass and c.contype = 'f'`,
    [table],
  );
  return (result.rows as Array<{ column: string; target: string; action: string }>).map((row) => `${row.column} → ${row.target} (${row.action === 'c' ? 'CASCADE' : row.action})`).sort();
}

async function atMigration011(kind: DatabaseKind): Promise<{ db: Knex; close: () => Promise<void> }> {
  const scratch = await openScratchDatabaseAt(kind, 'stats-figures', 11);
  const { db } = scratch;
  await db('users').insert({ id: id(1), name: 'Old', email: 'old@example.com', role: 'user', created_at: at(0), updated_at: at(0) });
  for (const agent of [2, 3]) await db('agents').insert({ id: id(agent), owner_id: id(1), name: `agent ${agent}`, type: 'type_a', status: 'idle', created_at: at(0), updated_at: at(0) });
  const task = (n: number, agent: number, status: string) => ({
    id: id(n), agent_id: id(agent), title: `task ${n}`, status, priority: 5, created_at: at(n % 10), updated_at: at(30), available_at: at(0), max_attempts: 3, attempts: 0, stored_bytes: 0,
  });
  await db('tasks').insert([
    task(10, 2, 'queued'), task(11, 2, 'queued'), task(12, 2, 'running'), task(13, 2, 'succeeded'), task(14, 2, 'succeeded'), task(15, 2, 'failed'),
    task(20, 3, 'cancelled'), task(21, 3, 'succeeded'),
  ]);
  const lease = (n: number, taskN: number, created: number) => ({
    id: id(n), agent_id: id(2), task_id: id(taskN), status: 'completed', ttl_seconds: 60, expires_at: at(59), created_at: at(created), ended_at: at(created + 1), number: n % 2 === 0 ? 1 : 2,
  });
  // Task 13 (created at second 3) was first leased at second 7, and again at second 9.
  await db('leases').insert([lease(40, 13, 7), lease(41, 13, 9), lease(42, 14, 4)]);
  return scratch;
}

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 012-stats-figures [${kind}]`, () => {
    it('when a database with tasks migrates, then every agent is counted by status as its tasks are, and leases carry their wait', async () => {
      const { db, close } = await atMigration011(kind);
      try {
        await db.migrate.latest({ migrationSource });
        expect(await kept(db)).toEqual(await recount(db));
        expect(await kept(db)).toEqual({ [`${id(2)}/queued`]: 2, [`${id(2)}/running`]: 1, [`${id(2)}/succeeded`]: 2, [`${id(2)}/failed`]: 1, [`${id(3)}/cancelled`]: 1, [`${id(3)}/succeeded`]: 1 });
        const waits = await db('leases').select('id', 'wait_ms').orderBy('id');
        expect(waits.map((row) => [row.id, row.wait_ms === null ? null : Number(row.wait_ms)])).toEqual([
          [id(40), 4000],
          [id(41), 6000],
          [id(42), 0],
        ]);
        // What the repository answers for the agents' reads.
        const counts = await createStore(db).tasks.countByStatus([id(2), id(3), id(9)]);
        expect(Object.fromEntries(counts)).toEqual({
          [id(2)]: { queued: 2, running: 1, succeeded: 2, failed: 1 },
          [id(3)]: { cancelled: 1, succeeded: 1 },
          [id(9)]: {},
        });
      } finally {
        await close();
      }
    });

    it('when tasks are inserted, moved between statuses, deleted one by one and with their agent, then the counters follow every write', async () => {
      const { db, close } = await atMigration011(kind);
      try {
        await db.migrate.latest({ migrationSource });
        // A fixed walk of writes (a seeded generator, so that a failure replays).
        const random = createRandom(7);
        const next = (below: number) => random.int(0, below - 1);
        let made = 100;
        for (let step = 0; step < 200; step++) {
          const ids = (await db('tasks').select('id')).map((row: { id: string }) => row.id);
          const pick = ids[next(ids.length)] as string;
          const action = next(10);
          if (action < 3 || ids.length < 3) {
            await db('tasks').insert({
              id: id(made++), agent_id: id(2 + next(2)), title: 'new', status: STATUSES[next(STATUSES.length)], priority: 5, created_at: at(1), updated_at: at(1), available_at: at(1), max_attempts: 3, attempts: 0, stored_bytes: 0,
            });
          } else if (action < 8) {
            await db('tasks').where({ id: pick }).update({ status: STATUSES[next(STATUSES.length)], title: 'moved' });
          } else if (action < 9) {
            await db('tasks').where({ id: pick }).update({ title: 'renamed' });
          } else {
            await db('tasks').where({ id: pick }).delete();
          }
          // Several rows in one statement.
          if (step % 50 === 49) await db('tasks').where({ agent_id: id(2), status: 'queued' }).update({ status: 'cancelled' });
        }
        expect(await kept(db)).toEqual(await recount(db));
        await db('agents').where({ id: id(3) }).delete();
        expect(await kept(db)).toEqual(await recount(db));
        expect(await db('agent_task_counts').where({ agent_id: id(3) })).toEqual([]);
      } finally {
        await close();
      }
    });

    it('when the migration is rolled back, then the counters and their triggers go, and tasks still write', async () => {
      const { db, close } = await atMigration011(kind);
      try {
        await db.migrate.up({ migrationSource });
        await db.migrate.up({ migrationSource });
        // Back to 011: 013, then 012.
        await db.migrate.down({ migrationSource });
        await db.migrate.down({ migrationSource });
        expect(await db.schema.hasTable('agent_task_counts')).toBe(false);
        expect(await db.schema.hasColumn('leases', 'wait_ms')).toBe(false);
        await db('tasks').where({ id: id(10) }).update({ status: 'running' });
        await db('tasks').where({ id: id(11) }).delete();
        expect((await recount(db))[`${id(2)}/running`]).toBe(2);
      } finally {
        await close();
      }
    });
  });

  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 013-lighter-writes [${kind}]`, () => {
    it('when tasks have log lines, then each counts its lines, and a rollback gives the lines back their key to the agent', async () => {
      const { db, close } = await atMigration011(kind);
      try {
        await db.migrate.up({ migrationSource });
        const line = (n: number, taskN: number) => ({ agent_id: id(2), task_id: id(taskN), lease_id: id(40), attempt: 1, level: 'info', message: `line ${n}`, data: null, at: at(n) });
        await db('task_logs').insert([line(1, 13), line(2, 13), line(3, 13), line(4, 14)]);
        await db.migrate.up({ migrationSource });
        const counted = await db('tasks').select('id', 'log_lines').whereIn('id', [id(13), id(14), id(15)]).orderBy('id');
        expect(counted.map((row) => [row.id, Number(row.log_lines)])).toEqual([
          [id(13), 3],
          [id(14), 1],
          [id(15), 0],
        ]);
        expect(await db('task_logs').count({ n: '*' }).first()).toEqual({ n: kind === 'pg' ? '4' : 4 });
        // A line's agent is no longer a key (its task's is); its task still is, and still cascades.
        expect(await foreignKeysOf(db, kind, 'task_logs')).toEqual(['task_id → tasks (CASCADE)']);
        await db('task_logs').insert({ ...line(5, 13), agent_id: id(98) });
        // The rollback gives the key back, and drops the line it would refuse.
        await db.migrate.down({ migrationSource });
        expect(await db.schema.hasColumn('tasks', 'log_lines')).toBe(false);
        expect(await db('task_logs').where({ agent_id: id(98) })).toEqual([]);
        expect(await foreignKeysOf(db, kind, 'task_logs')).toEqual(['agent_id → agents (CASCADE)', 'task_id → tasks (CASCADE)']);
        // Nothing else went with the rollback: the lines, the leases, and the counters' triggers.
        expect(await db('task_logs').count({ n: '*' }).first()).toEqual({ n: kind === 'pg' ? '4' : 4 });
        expect(await db('leases').count({ n: '*' }).first()).toEqual({ n: kind === 'pg' ? '3' : 3 });
        await db('tasks').where({ id: id(10) }).update({ status: 'running' });
        expect(await kept(db)).toEqual(await recount(db));
      } finally {
        await close();
      }
    });
  });
}
