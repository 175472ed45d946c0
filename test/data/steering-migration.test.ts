import type { Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt } from '../support/scratch-database';


/** A database at migration 013 with an owner, an agent, two tasks (one running under a lease) and a log line. */
async function atMigration013(kind: DatabaseKind): Promise<{ db: Knex; close: () => Promise<void> }> {
  const scratch = await openScratchDatabaseAt(kind, 'steering', 13);
  const { db } = scratch;
  await db('users').insert({ id: id(1), name: 'Old', email: 'old@example.com', role: 'user', created_at: at(0), updated_at: at(0) });
  await db('agents').insert({ id: id(2), owner_id: id(1), name: 'agent', type: 'type_a', status: 'running', created_at: at(0), updated_at: at(0) });
  const task = (n: number, status: string) => ({ id: id(n), agent_id: id(2), title: `task ${n}`, status, priority: 5, created_at: at(1), updated_at: at(2), available_at: at(1), max_attempts: 3, attempts: 1, stored_bytes: 0 });
  await db('tasks').insert([task(10, 'running'), task(11, 'failed')]);
  await db('leases').insert({ id: id(40), agent_id: id(2), task_id: id(10), status: 'active', ttl_seconds: 60, expires_at: at(59), created_at: at(2), number: 1 });
  await db('task_logs').insert({ agent_id: id(2), task_id: id(10), lease_id: id(40), attempt: 1, level: 'info', message: 'kept', data: null, at: at(3) });
  return scratch;
}

const countOf = async (db: Knex, table: string) => Number((await db(table).count({ n: '*' }).first())?.n);
const runningCounter = async (db: Knex) => Number((await db('agent_task_counts').where({ agent_id: id(2), status: 'running' }).first('n'))?.n ?? 0);

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 014-steering [${kind}]`, () => {
    it('when a database with tasks migrates, then existing tasks and agents read no run_at, timeout, deadline, schedule or cap, and schedules can be stored', async () => {
      const { db, close } = await atMigration013(kind);
      try {
        await db.migrate.up({ migrationSource });
        const tasks = await db('tasks').select('id', 'run_at', 'timeout_seconds', 'deadline_at', 'schedule_id').orderBy('id');
        expect(tasks).toEqual([
          { id: id(10), run_at: null, timeout_seconds: null, deadline_at: null, schedule_id: null },
          { id: id(11), run_at: null, timeout_seconds: null, deadline_at: null, schedule_id: null },
        ]);
        expect(await db('agents').where({ id: id(2) }).first('max_concurrency')).toEqual({ max_concurrency: null });
        await db('schedules').insert({ id: id(50), agent_id: id(2), cron: '0 9 * * *', timezone: 'UTC', template: JSON.stringify({ title: 'daily' }), paused: false, overlap: 'skip', next_run_at: at(9), created_at: at(0), updated_at: at(0) });
        // A schedule goes with its agent.
        await db('agents').where({ id: id(2) }).delete();
        expect(await countOf(db, 'schedules')).toBe(0);
      } finally {
        await close();
      }
    });

    it('when the migration is rolled back, then its columns and table go, and the tasks, leases, log lines and counters stay', async () => {
      const { db, close } = await atMigration013(kind);
      try {
        await db.migrate.up({ migrationSource });
        await db.migrate.down({ migrationSource });
        expect(await db.schema.hasTable('schedules')).toBe(false);
        for (const column of ['run_at', 'timeout_seconds', 'deadline_at', 'schedule_id']) expect(await db.schema.hasColumn('tasks', column)).toBe(false);
        expect(await db.schema.hasColumn('agents', 'max_concurrency')).toBe(false);
        expect([await countOf(db, 'tasks'), await countOf(db, 'leases'), await countOf(db, 'task_logs')]).toEqual([2, 1, 1]);
        // The counters' triggers survived: a task's move still counts.
        expect(await runningCounter(db)).toBe(1);
        await db('tasks').where({ id: id(10) }).update({ status: 'succeeded' });
        expect(await runningCounter(db)).toBe(0);
      } finally {
        await close();
      }
    });
  });
}
