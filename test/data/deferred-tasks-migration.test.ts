import type { Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import { createStore } from '../../src/data/store';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt } from '../support/scratch-database';


/**
 * A database at migration 014 with an agent and its queued tasks: one claimable, one waiting for a
 * later time at a higher priority, and a running one whose availability lies ahead (never deferred).
 */
async function atMigration014(kind: DatabaseKind): Promise<{ db: Knex; close: () => Promise<void> }> {
  const scratch = await openScratchDatabaseAt(kind, 'deferred', 14);
  const { db } = scratch;
  await db('users').insert({ id: id(1), name: 'Old', email: 'old@example.com', role: 'user', created_at: at(0), updated_at: at(0) });
  await db('agents').insert({ id: id(2), owner_id: id(1), name: 'agent', type: 'type_a', status: 'running', created_at: at(0), updated_at: at(0) });
  const task = (n: number, status: string, priority: number, availableAt: string) => ({
    id: id(n), agent_id: id(2), title: `task ${n}`, status, priority, created_at: at(1), updated_at: at(2), available_at: availableAt, max_attempts: 3, attempts: 0, stored_bytes: 0,
  });
  await db('tasks').insert([task(10, 'queued', 1, at(1)), task(11, 'queued', 9, at(30)), task(12, 'running', 5, at(40))]);
  return scratch;
}

const deferredOf = async (db: Knex) =>
  (await db('tasks').select('id', 'deferred').orderBy('id')).map((row: { id: string; deferred: unknown }) => [row.id, Boolean(row.deferred)]);

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 015-deferred-tasks [${kind}]`, () => {
    it('when a database with waiting tasks migrates, then only the queued one whose time lies ahead is deferred, and a claim takes it once due, by its priority', async () => {
      const { db, close } = await atMigration014(kind);
      try {
        await db.migrate.up({ migrationSource });
        expect(await deferredOf(db)).toEqual([[id(10), false], [id(11), true], [id(12), false]]);
        const tasks = createStore(db).tasks;
        // Before its time the deferred task is neither released nor claimable.
        expect(await tasks.releaseDue(id(2), at(20))).toBe(0);
        expect((await tasks.nextClaimable(id(2), at(20)))?.id).toBe(id(10));
        expect([await tasks.countWaiting(id(2), at(20)), await tasks.nextAvailableAt(id(2), at(20))]).toEqual([1, at(30)]);
        // Once due it is released (once) and, at priority 9, goes first.
        expect(await tasks.releaseDue(id(2), at(31))).toBe(1);
        expect(await tasks.releaseDue(id(2), at(31))).toBe(0);
        expect((await tasks.nextClaimable(id(2), at(31)))?.id).toBe(id(11));
        expect([await tasks.countWaiting(id(2), at(31)), await tasks.nextAvailableAt(id(2), at(31))]).toEqual([0, undefined]);
      } finally {
        await close();
      }
    });

    it('when the migration is rolled back, then the flag goes and every task stays, counted', async () => {
      const { db, close } = await atMigration014(kind);
      try {
        await db.migrate.up({ migrationSource });
        await db.migrate.down({ migrationSource });
        expect(await db.schema.hasColumn('tasks', 'deferred')).toBe(false);
        expect(Number((await db('tasks').count({ n: '*' }).first())?.n)).toBe(3);
        const running = async () => Number((await db('agent_task_counts').where({ agent_id: id(2), status: 'running' }).first('n'))?.n ?? 0);
        expect(await running()).toBe(1);
        await db('tasks').where({ id: id(12) }).update({ status: 'succeeded' });
        expect(await running()).toBe(0);
      } finally {
        await close();
      }
    });
  });
}
