import { createHash } from 'node:crypto';
import supertest from 'supertest';
import { buildApp } from '../../src/app';
import { createSessionService } from '../../src/auth/sessions';
import { createTokenService } from '../../src/auth/tokens';
import { connectDatabase, type Database } from '../../src/data/database';
import { migrationSource } from '../../src/data/migrations';
import { createStore } from '../../src/data/store';
import { createMetrics } from '../../src/http/observability';
import { createLogger } from '../../src/logger';
import { DATABASE_KINDS, TEST_API_KEY, testConfig, type DatabaseKind } from '../support/harness';
import { fixedId as id, fixedTime as at, openScratchDatabaseAt, type ScratchDatabase } from '../support/scratch-database';

/**
 * A database at migration 015 holding what a fleet had before workspaces: two users and an admin,
 * agents of each user and one of a service key, their tasks, an agent key, webhooks of a user and
 * of a service key, and events. Migrated, every read that answered before answers the same (with
 * the new `workspace_id` beside).
 */
const users = { alice: id(1), bob: id(2), admin: id(3) };
const agents = { alice: id(10), bob: id(11), service: id(12) };
const AGENT_KEY = 'afk_walkwalk_0123456789abcdefghijklmnopqrstuvwxyzABCDE';

async function atMigration015(kind: DatabaseKind): Promise<ScratchDatabase> {
  const scratch = await openScratchDatabaseAt(kind, 'workspaces', 15);
  const { db } = scratch;
  await db('users').insert([
    { id: users.alice, name: 'Alice', email: 'alice@example.com', role: 'user', created_at: at(0), updated_at: at(0) },
    { id: users.bob, name: 'Bob', email: 'bob@example.com', role: 'user', created_at: at(1), updated_at: at(1) },
    { id: users.admin, name: 'Admin', email: 'admin@example.com', role: 'admin', created_at: at(2), updated_at: at(2) },
  ]);
  const agent = (agentId: string, owner: string | null, name: string) => ({ id: agentId, owner_id: owner, name, type: 'type_a', status: 'idle', created_at: at(3), updated_at: at(3) });
  await db('agents').insert([agent(agents.alice, users.alice, 'alice-agent'), agent(agents.bob, users.bob, 'bob-agent'), agent(agents.service, null, 'service-agent')]);
  const task = (n: number, agentId: string) => ({ id: id(n), agent_id: agentId, title: `task ${n}`, status: 'queued', priority: 5, created_at: at(4), updated_at: at(4), available_at: at(4), max_attempts: 3, attempts: 0, stored_bytes: 0 });
  await db('tasks').insert([task(20, agents.alice), task(21, agents.alice), task(22, agents.bob), task(23, agents.service)]);
  await db('agent_keys').insert({
    id: id(30),
    agent_id: agents.alice,
    name: 'worker',
    prefix: AGENT_KEY.slice(0, 12),
    secret_digest: createHash('sha256').update(AGENT_KEY).digest('hex'),
    scopes: 'tasks:read tasks:work',
    created_at: at(5),
  });
  const webhook = (n: number, owner: string | null) => ({ id: id(n), owner_id: owner, url: 'https://93.184.216.34/hook', types: null, description: null, enabled: true, secret_sealed: 'sealed', after_event_id: 0, created_at: at(6), updated_at: at(6) });
  await db('webhooks').insert([webhook(40, users.alice), webhook(41, null)]);
  const event = (agentId: string, owner: string | null, taskId: string | null) => ({ type: taskId ? 'task.created' : 'agent.created', occurred_at: at(7), agent_id: agentId, owner_id: owner, task_id: taskId, data: JSON.stringify({ id: taskId ?? agentId }) });
  await db('events').insert([event(agents.alice, users.alice, null), event(agents.bob, users.bob, null), event(agents.service, null, null), event(agents.alice, users.alice, id(20))]);
  return scratch;
}

/** The service over the migrated database, and a client per caller. */
async function serveMigrated(scratch: ScratchDatabase): Promise<{ db: Database; as: Record<'alice' | 'bob' | 'admin' | 'service' | 'agentKey', supertest.Agent> }> {
  // Connecting runs the migrations still to run: 016 and any after it.
  const db = await connectDatabase(scratch.config, { searchPath: scratch.searchPath });
  const config = testConfig({ database: scratch.config, logLevel: 'silent' });
  const tokens = createTokenService(config.auth.jwt);
  const app = buildApp({ config, db, logger: createLogger(config), tokens, metrics: createMetrics() });
  const store = createStore(db);
  const sessions = createSessionService(store, tokens, { accessSeconds: 600, refreshSeconds: 600 });
  const bearer = async (userId: string) => {
    const user = await store.users.find(userId);
    const { access_token: token } = await sessions.begin(user as NonNullable<typeof user>, 'password');
    return supertest.agent(app).set('Authorization', `Bearer ${token}`);
  };
  return {
    db,
    as: {
      alice: await bearer(users.alice),
      bob: await bearer(users.bob),
      admin: await bearer(users.admin),
      service: supertest.agent(app).set('X-API-Key', TEST_API_KEY),
      agentKey: supertest.agent(app).set('X-API-Key', AGENT_KEY),
    },
  };
}

const idsOf = (items: Array<{ id: string }>) => items.map((item) => item.id).sort();

for (const kind of DATABASE_KINDS) {
  (kind === 'pg' && process.env.TEST_PG_AVAILABLE === '0' ? describe.skip : describe)(`migration 016-workspaces [${kind}]`, () => {
    it('when a fleet migrates, then every user owns a personal workspace holding their agents and webhooks, and unowned ones are in `service`', async () => {
      const scratch = await atMigration015(kind);
      try {
        await scratch.db.migrate.up({ migrationSource });
        const { db } = scratch;
        const service = (await db('workspaces').where({ kind: 'service' }).first('id')).id as string;
        expect(await db('workspaces').select('id', 'name', 'kind', 'personal_of').orderBy('id')).toEqual([
          { id: users.alice, name: 'Alice', kind: 'personal', personal_of: users.alice },
          { id: users.bob, name: 'Bob', kind: 'personal', personal_of: users.bob },
          { id: users.admin, name: 'Admin', kind: 'personal', personal_of: users.admin },
          { id: service, name: 'service', kind: 'service', personal_of: null },
        ].sort((a, b) => a.id.localeCompare(b.id)));
        expect(await db('workspace_members').select('workspace_id', 'user_id', 'role').orderBy('user_id')).toEqual(Object.values(users).map((user) => ({ workspace_id: user, user_id: user, role: 'owner' })));
        expect(await db('agents').select('id', 'workspace_id').orderBy('id')).toEqual([
          { id: agents.alice, workspace_id: users.alice },
          { id: agents.bob, workspace_id: users.bob },
          { id: agents.service, workspace_id: service },
        ]);
        expect(await db('webhooks').select('id', 'workspace_id').orderBy('id')).toEqual([{ id: id(40), workspace_id: users.alice }, { id: id(41), workspace_id: service }]);
        expect((await db('events').select('agent_id', 'workspace_id').orderBy('id')).map((row: { workspace_id: string }) => row.workspace_id)).toEqual([users.alice, users.bob, service, users.alice]);
      } finally {
        await scratch.close();
      }
    });

    it('when the service reads the migrated fleet, then each caller gets what it got before', async () => {
      const scratch = await atMigration015(kind);
      const { db, as } = await serveMigrated(scratch);
      try {
        // Users: their own agents and tasks; another's is 404, on both surfaces.
        expect(idsOf((await as.alice.get('/agents').expect(200)).body)).toEqual([agents.alice]);
        expect(idsOf((await as.bob.get('/agents').expect(200)).body)).toEqual([agents.bob]);
        const read = (await as.alice.get(`/agents/${agents.alice}`).expect(200)).body;
        expect(read).toEqual({ id: agents.alice, owner_id: users.alice, workspace_id: users.alice, name: 'alice-agent', type: 'type_a', status: 'idle', created_at: at(3), updated_at: at(3), max_concurrency: null });
        expect(idsOf((await as.alice.get(`/agents/${agents.alice}/tasks`).expect(200)).body)).toEqual([id(20), id(21)]);
        await as.alice.get(`/agents/${agents.bob}`).expect(404);
        await as.bob.get(`/api/v1/agents/${agents.alice}/tasks`).expect(404);
        await as.alice.get(`/agents/${agents.service}`).expect(404);
        expect(idsOf((await as.alice.get('/api/v1/agents').expect(200)).body.data)).toEqual([agents.alice]);
        expect(idsOf((await as.alice.get(`/api/v1/agents/${agents.alice}/keys`).expect(200)).body.data)).toEqual([id(30)]);
        expect(idsOf((await as.alice.get('/api/v1/webhooks').expect(200)).body.data)).toEqual([id(40)]);
        expect((await as.alice.get('/api/v1/events').query({ after: '0' }).expect(200)).body.data.map((event: { agent_id: string }) => event.agent_id)).toEqual([agents.alice, agents.alice]);
        expect((await as.bob.get('/api/v1/events').query({ after: '0' }).expect(200)).body.data.map((event: { agent_id: string }) => event.agent_id)).toEqual([agents.bob]);
        // Platform admins and service keys: everything.
        for (const everyone of [as.admin, as.service]) {
          expect(idsOf((await everyone.get('/agents').expect(200)).body)).toEqual(Object.values(agents).sort());
          expect(idsOf((await everyone.get('/api/v1/webhooks').expect(200)).body.data)).toEqual([id(40), id(41)]);
          expect((await everyone.get('/api/v1/events').query({ after: '0' }).expect(200)).body.data).toHaveLength(4);
          expect(idsOf((await everyone.get(`/agents/${agents.service}/tasks`).expect(200)).body)).toEqual([id(23)]);
        }
        // An agent key: its agent only.
        await as.agentKey.get(`/api/v1/agents/${agents.alice}`).expect(200);
        await as.agentKey.get(`/api/v1/agents/${agents.bob}`).expect(404);
        expect((await as.agentKey.get('/api/v1/events').query({ after: '0' }).expect(200)).body.data).toHaveLength(2);
        // And writes work as before: a user's new agent goes to their personal workspace.
        expect((await as.bob.post('/agents').send({ name: 'new', type: 'type_b' }).expect(201)).body.workspace_id).toBe(users.bob);
      } finally {
        await db.destroy();
        await scratch.close();
      }
    });

    it('when the migration is rolled back, then the workspaces go and every agent, task, key, webhook and event stays', async () => {
      const scratch = await atMigration015(kind);
      const { db } = scratch;
      try {
        await db.migrate.up({ migrationSource });
        await db.migrate.down({ migrationSource });
        expect(await db.schema.hasTable('workspaces')).toBe(false);
        expect(await db.schema.hasColumn('agents', 'workspace_id')).toBe(false);
        const counts = async (tables: string[]) => Promise.all(tables.map(async (table) => Number((await db(table).count({ n: '*' }).first())?.n)));
        expect(await counts(['users', 'agents', 'tasks', 'agent_keys', 'webhooks', 'events'])).toEqual([3, 3, 4, 1, 2, 4]);
        // The task counters' triggers are still there.
        await db('tasks').where({ id: id(20) }).update({ status: 'running' });
        expect(Number((await db('agent_task_counts').where({ agent_id: agents.alice, status: 'running' }).first('n'))?.n)).toBe(1);
      } finally {
        await scratch.close();
      }
    });
  });
}

