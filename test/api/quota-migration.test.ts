import type { Knex } from 'knex';
import { migrationSource } from '../../src/data/migrations';
import { postBytes, taskBytes } from '../../src/domain/quotas';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { openScratchDatabase } from '../support/scratch-database';

const ids = {
  user: '0190a8f0-0000-7000-8000-000000000001',
  agent: '0190a8f0-0000-7000-8000-000000000002',
  idle: '0190a8f0-0000-7000-8000-000000000003',
  service: '0190a8f0-0000-7000-8000-000000000004',
};
const at = '2026-01-01T12:00:00.000Z';
const tasks = [
  { id: '0190a8f0-0000-7000-8000-000000000011', agent_id: ids.agent, title: 'one', description: 'line\nbreak "quoted" déjà', input: { list: [1, 'two', null], nested: { ok: true } }, result: { answer: 'forty-two' }, error: null },
  { id: '0190a8f0-0000-7000-8000-000000000012', agent_id: ids.agent, title: 'two', description: null, input: null, result: null, error: 'it broke 😀' },
  { id: '0190a8f0-0000-7000-8000-000000000013', agent_id: ids.service, title: 'service', description: null, input: { n: 1 }, result: null, error: null },
];
const posts = [{ id: '0190a8f0-0000-7000-8000-000000000021', user_id: ids.user, title: 'hello', body: 'body text' }];

/** A database holding rows written before 005-quotas, migrated to it. */
async function migratedFromBefore(kind: DatabaseKind): Promise<{ db: Knex; close: () => Promise<void> }> {
  const { db, close } = await openScratchDatabase(kind, 'migration');
  for (let step = 0; step < 3; step++) await db.migrate.up({ migrationSource });
  await db('users').insert({ id: ids.user, name: 'Old', email: 'old@example.com', role: 'user', created_at: at, updated_at: at });
  await db('agents').insert([
    { id: ids.agent, owner_id: ids.user, name: 'worker', type: 'type_a', status: 'idle', created_at: at, updated_at: at },
    { id: ids.idle, owner_id: ids.user, name: 'no tasks', type: 'type_a', status: 'idle', created_at: at, updated_at: at },
    { id: ids.service, owner_id: null, name: 'service', type: 'type_b', status: 'idle', created_at: at, updated_at: at },
  ]);
  await db('tasks').insert(
    tasks.map((task) => ({
      ...task,
      input: task.input === null ? null : JSON.stringify(task.input),
      result: task.result === null ? null : JSON.stringify(task.result),
      priority: 5,
      status: 'queued',
      created_at: at,
      updated_at: at,
    })),
  );
  await db('posts').insert(posts.map((post) => ({ ...post, created_at: at, updated_at: at })));
  await db.migrate.latest({ migrationSource });
  return { db, close };
}

const pgAvailable = process.env.TEST_PG_AVAILABLE !== '0';

/** A task as the later migrations leave it: a failed task's error is its last error too (011), which it stores. */
const migrated = <T extends { error: string | null }>(task: T) => ({ ...task, last_error: task.error });

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && !pgAvailable ? describe.skip : describe)(`migration 005-quotas [${kind}]`, () => {
    it('when it runs over existing rows, then each row is measured and the counters hold the sums', async () => {
      const { db, close } = await migratedFromBefore(kind);
      try {
        const bytes = async (table: string, id: string) => Number((await db(table).where({ id }).first('stored_bytes')).stored_bytes);
        for (const task of tasks) {
          // SQLite measures the stored JSON text exactly; PostgreSQL's jsonb text adds a space after
          // each `:` and `,`, so its figure may only be higher.
          if (kind === 'sqlite') expect(await bytes('tasks', task.id)).toBe(taskBytes(migrated(task)));
          else expect(await bytes('tasks', task.id)).toBeGreaterThanOrEqual(taskBytes(migrated(task)));
        }
        expect(await bytes('posts', posts[0]?.id as string)).toBe(postBytes(posts[0] as { title: string; body: string }));
        const taskSum = async (agentId: string) =>
          Number((await db('tasks').where({ agent_id: agentId }).sum({ n: 'stored_bytes' }).first())?.n ?? 0);
        expect(await bytes('agents', ids.agent)).toBe(await taskSum(ids.agent));
        expect(await bytes('agents', ids.idle)).toBe(0);
        expect(await bytes('agents', ids.service)).toBe(await taskSum(ids.service));
        expect(await bytes('users', ids.user)).toBe((await taskSum(ids.agent)) + (await bytes('posts', posts[0]?.id as string)));
        expect(await bytes('tasks', tasks[1]?.id as string)).toBe(taskBytes(migrated(tasks[1] as (typeof tasks)[number])));
      } finally {
        await close();
      }
    });
  });
}
