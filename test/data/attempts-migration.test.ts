import type { Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import { createStore } from '../../src/data/store';
import { listAttempts } from '../../src/domain/fleet-health';
import { jsonBytes } from '../../src/domain/quotas';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt } from '../support/scratch-database';

const ids = { user: id(1), agent: id(2), succeeded: id(11), failed: id(12), running: id(13) };

/** A database at migration 010 with tasks worked under leases, migrated to the latest. */
async function migratedFrom010(kind: DatabaseKind): Promise<{ db: Knex; close: () => Promise<void> }> {
  const { db, close } = await openScratchDatabaseAt(kind, 'attempts', 10);
  await db('users').insert({ id: ids.user, name: 'Old', email: 'old@example.com', role: 'user', created_at: at(0), updated_at: at(0) });
  await db('agents').insert({ id: ids.agent, owner_id: ids.user, name: 'worker', type: 'type_a', status: 'busy', created_at: at(0), updated_at: at(0) });
  const task = (taskId: string, status: string, extra: object) => ({
    id: taskId, agent_id: ids.agent, title: taskId, status, priority: 5, created_at: at(0), updated_at: at(9), available_at: at(0), max_attempts: 3, ...extra,
  });
  await db('tasks').insert([
    task(ids.succeeded, 'succeeded', { attempts: 2, finished_at: at(8), stored_bytes: 20, error: null, lease_id: null, started_at: null }),
    task(ids.failed, 'failed', { lease_id: null, started_at: null, attempts: 1, error: 'it broke "badly"', finished_at: at(5), stored_bytes: 20 + jsonBytes('it broke "badly"') }),
    task(ids.running, 'running', { error: null, finished_at: null, attempts: 1, started_at: at(6), lease_id: id(26), stored_bytes: 0 }),
  ]);
  await db('agents').where({ id: ids.agent }).update({ stored_bytes: 40 + jsonBytes('it broke "badly"') });
  await db('users').where({ id: ids.user }).update({ stored_bytes: 40 + jsonBytes('it broke "badly"') });
  const lease = (leaseId: string, taskId: string, status: string, created: number, ended: number | null) => ({
    id: leaseId, agent_id: ids.agent, task_id: taskId, status, ttl_seconds: 60, expires_at: at(59), created_at: at(created), ended_at: ended === null ? null : at(ended),
  });
  await db('leases').insert([
    lease(id(21), ids.succeeded, 'expired', 1, 3),
    lease(id(22), ids.succeeded, 'released', 3, 4),
    lease(id(23), ids.succeeded, 'completed', 4, 8),
    lease(id(24), ids.failed, 'completed', 2, 5),
    lease(id(26), ids.running, 'active', 6, null),
  ]);
  await db.migrate.latest({ migrationSource });
  return { db, close };
}

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 011-attempts-logs-usage [${kind}]`, () => {
    it('when leases were made before attempts were recorded, then they read as numbered attempts with outcomes read from their status', async () => {
      const { db, close } = await migratedFrom010(kind);
      try {
        const store = createStore(db);
        const admin = { kind: 'service' as const, keyNumber: 1 };
        const attempts = async (taskId: string) => (await listAttempts(store, admin, ids.agent, taskId, undefined, 20)).items;
        expect((await attempts(ids.succeeded)).map((a) => [a.number, a.outcome, a.error, a.worker])).toEqual([
          [1, 'expired', 'lease expired', null],
          [2, 'released', null, null],
          [3, 'succeeded', null, null],
        ]);
        expect((await attempts(ids.failed)).map((a) => [a.number, a.outcome, a.error])).toEqual([[1, 'failed', 'it broke "badly"']]);
        expect((await attempts(ids.running)).map((a) => [a.number, a.outcome, a.ended_at])).toEqual([[1, null, null]]);
        const failed = await store.tasks.find(ids.agent, ids.failed);
        expect(failed).toMatchObject({ error: 'it broke "badly"', last_error: 'it broke "badly"', usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
        // The last error is stored as written now would be: the task, its agent and its owner count it.
        const bytes = async (table: string, rowId: string) => Number((await db(table).where({ id: rowId }).first('stored_bytes')).stored_bytes);
        const grown = 20 + 2 * jsonBytes('it broke "badly"');
        if (kind === 'sqlite') expect(await bytes('tasks', ids.failed)).toBe(grown);
        else expect(await bytes('tasks', ids.failed)).toBeGreaterThanOrEqual(grown);
        expect(await bytes('agents', ids.agent)).toBe(20 + (await bytes('tasks', ids.failed)));
        expect(await bytes('users', ids.user)).toBe(await bytes('agents', ids.agent));
        expect((await store.tasks.find(ids.agent, ids.succeeded))?.last_error).toBeNull();
      } finally {
        await close();
      }
    });
  });
}
