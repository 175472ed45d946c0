import { migrationSource } from '../../src/data/migrations';
import { createStore } from '../../src/data/store';
import { DATABASE_KINDS, type DatabaseKind } from '../support/harness';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt, type ScratchDatabase } from '../support/scratch-database';

/** A database at migration 016 with a user, their agent and three of its events. */
async function atMigration016(kind: DatabaseKind): Promise<ScratchDatabase> {
  const scratch = await openScratchDatabaseAt(kind, 'audit', 16);
  const { db } = scratch;
  await db('users').insert({ id: id(1), name: 'Old', email: 'old@example.com', role: 'user', created_at: at(0), updated_at: at(0) });
  await db('workspaces').insert({ id: id(1), name: 'Old', kind: 'personal', personal_of: id(1), created_at: at(0), updated_at: at(0) });
  await db('agents').insert({ id: id(2), owner_id: id(1), workspace_id: id(1), name: 'agent', type: 'type_a', status: 'idle', created_at: at(1), updated_at: at(1) });
  const event = (type: string, second: number) => ({ type, occurred_at: at(second), agent_id: id(2), owner_id: id(1), workspace_id: id(1), task_id: null, data: JSON.stringify({ id: id(2) }) });
  await db('events').insert([event('agent.created', 1), event('agent.updated', 2), event('agent.updated', 3)]);
  return scratch;
}

const eventRows = async (scratch: ScratchDatabase) =>
  (await scratch.db('events').select('id', 'type', 'agent_id', 'workspace_id').orderBy('id')).map((row: { id: unknown }) => ({ ...row, id: String(row.id) }));

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 017-audit-events [${kind}]`, () => {
    it('when the log migrates, then every event keeps its id and fields and reads no actor; a workspace event without an agent can be written after', async () => {
      const scratch = await atMigration016(kind);
      try {
        const before = await eventRows(scratch);
        await scratch.db.migrate.up({ migrationSource });
        expect(await eventRows(scratch)).toEqual(before);
        const events = await createStore(scratch.db).events.list({ after: '0', limit: 10 });
        expect(events.map((event) => [event.type, event.actor, event.agent_id])).toEqual([
          ['agent.created', null, id(2)],
          ['agent.updated', null, id(2)],
          ['agent.updated', null, id(2)],
        ]);
        await scratch.db('events').insert({ type: 'member.added', occurred_at: at(4), agent_id: null, owner_id: null, workspace_id: id(1), actor_type: 'user', actor_id: id(1), task_id: null, data: '{}' });
        const [last] = (await createStore(scratch.db).events.list({ after: before.at(-1)?.id as string, limit: 10 }));
        // Ids keep growing past the copied ones.
        expect(BigInt(last?.id as string)).toBeGreaterThan(BigInt(before.at(-1)?.id as string));
        expect(last).toMatchObject({ type: 'member.added', agent_id: null, actor: { type: 'user', id: id(1) } });
      } finally {
        await scratch.close();
      }
    });

    it('when it is rolled back, then the workspace events without an agent go and every other event stays', async () => {
      const scratch = await atMigration016(kind);
      try {
        const before = await eventRows(scratch);
        await scratch.db.migrate.up({ migrationSource });
        await scratch.db('events').insert({ type: 'member.added', occurred_at: at(4), agent_id: null, owner_id: null, workspace_id: id(1), actor_type: 'user', actor_id: id(1), task_id: null, data: '{}' });
        await scratch.db.migrate.down({ migrationSource });
        expect(await scratch.db.schema.hasColumn('events', 'actor_type')).toBe(false);
        expect(await eventRows(scratch)).toEqual(before);
      } finally {
        await scratch.close();
      }
    });
  });
}
