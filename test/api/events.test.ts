import { createStore } from '../../src/data/store';
import { pruneEvents } from '../../src/domain/events';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING = '0190a8f0-0000-7000-8000-000000000000';

describeEachDatabase(
  'the event log',
  (get) => {
    const api = () => get().http;
    const createAgent = async (http = api()) => (await http.post('/api/v1/agents').send({ name: 'watched', type: 'type_a' }).expect(201)).body.data;
    const createTaskOn = async (agentId: string, body: object = {}, http = api()) =>
      (await http.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'summarise', ...body }).expect(201)).body.data;
    const claim = async (agentId: string) => (await api().post(`/api/v1/agents/${agentId}/leases`).send({}).expect(201)).body.data;
    const leasePath = (lease: { agent_id: string; id: string }) => `/api/v1/agents/${lease.agent_id}/leases/${lease.id}`;
    /** Every event of the agent, as the JSON pages give them. */
    const eventsOf = async (agentId: string, http = api()) => {
      const all = [];
      let after: string | undefined;
      for (;;) {
        const res = await http.get('/api/v1/events').query({ agent_id: agentId, limit: 100, ...(after && { after }) }).expect(200);
        all.push(...res.body.data);
        if (!res.body.meta.hasMore) return all;
        after = res.body.meta.nextCursor;
      }
    };
    const typesOf = async (agentId: string) => (await eventsOf(agentId)).map((event: { type: string }) => event.type);

    describe('recorded with every change', () => {
      it('when a task is created, leased, reports progress and succeeds, then its events say so in order, the agent going running and idle between', async () => {
        const agent = await createAgent();
        const task = await createTaskOn(agent.id, { priority: 7 });
        const lease = await claim(agent.id);
        await api().patch(leasePath(lease)).send({ progress: { percent: 50, message: 'half' } }).expect(200);
        await api().patch(leasePath(lease)).send({ ttl_seconds: 30 }).expect(200);
        await api().patch(leasePath(lease)).send({ status: 'succeeded', result: { lines: 3 } }).expect(200);

        const events = await eventsOf(agent.id);
        expect(events.map((event: { type: string }) => event.type)).toEqual([
          'agent.created',
          'task.created',
          'task.leased',
          'agent.updated',
          'task.progress',
          'task.succeeded',
          'agent.updated',
        ]);
        const ids = events.map((event: { id: string }) => BigInt(event.id));
        expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
        const [created, taskCreated, leased, busy, progress, succeeded, idle] = events;
        // The agent is in its owner's personal workspace (whose id is the owner's), and the owner made every change.
        const owner = get().user.user.id;
        expect(created).toEqual({
          id: expect.stringMatching(/^\d+$/),
          type: 'agent.created',
          occurred_at: expect.stringMatching(ISO_MS),
          agent_id: agent.id,
          workspace_id: owner,
          actor: { type: 'user', id: owner },
          task_id: null,
          data: agent,
        });
        for (const event of events) expect(event).toMatchObject({ workspace_id: owner, actor: { type: 'user', id: owner } });
        expect(taskCreated).toMatchObject({ task_id: task.id, data: task });
        expect(leased.data).toEqual({
          title: task.title,
          status: 'running',
          previous_status: 'queued',
          attempts: 1,
          lease_id: lease.id,
          started_at: expect.stringMatching(ISO_MS),
          updated_at: expect.stringMatching(ISO_MS),
        });
        expect(busy).toMatchObject({ task_id: null, data: { status: 'running', previous_status: 'idle' } });
        expect(progress.data).toEqual({ title: task.title, progress: { percent: 50, message: 'half' }, updated_at: expect.stringMatching(ISO_MS) });
        expect(succeeded.data).toMatchObject({ title: task.title, status: 'succeeded', previous_status: 'running', result: { lines: 3 }, lease_id: null });
        expect(idle.data).toMatchObject({ status: 'idle', previous_status: 'running' });
      });

      it('when a leased task fails with retry, then task.requeued; when its owner cancels the next attempt, then task.cancelled', async () => {
        const agent = await createAgent();
        await createTaskOn(agent.id);
        const first = await claim(agent.id);
        await api().patch(leasePath(first)).send({ status: 'failed', error: 'flaky', retry: true }).expect(200);
        const requeued = (await eventsOf(agent.id)).find((event: { type: string }) => event.type === 'task.requeued');
        expect(requeued.data).toMatchObject({ status: 'queued', previous_status: 'running', lease_id: null, available_at: expect.stringMatching(ISO_MS) });

        await get().database.db('tasks').where({ id: first.task_id }).update({ available_at: new Date(Date.now() - 1000).toISOString() });
        const second = await claim(agent.id);
        await api().patch(`/api/v1/agents/${agent.id}/tasks/${second.task_id}`).send({ status: 'cancelled' }).expect(200);
        expect((await typesOf(agent.id)).slice(2)).toEqual([
          'task.leased',
          'agent.updated',
          'task.requeued',
          'agent.updated',
          'task.leased',
          'agent.updated',
          'task.cancelled',
          'agent.updated',
        ]);
      });

      it('when a lease is released, a task edited and deleted, and the agent paused and deleted, then each is an event', async () => {
        const agent = await createAgent();
        const task = await createTaskOn(agent.id);
        const lease = await claim(agent.id);
        await api().delete(leasePath(lease)).expect(204);
        await api().patch(`/api/v1/agents/${agent.id}/tasks/${task.id}`).send({ title: 'renamed' }).expect(200);
        await api().delete(`/api/v1/agents/${agent.id}/tasks/${task.id}`).expect(204);
        await api().patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
        await api().patch(`/api/v1/agents/${agent.id}`).send({ name: 'watched' }).expect(200);
        await api().delete(`/api/v1/agents/${agent.id}`).expect(204);
        const events = await eventsOf(agent.id);
        expect(events.map((event: { type: string }) => event.type).slice(4)).toEqual(['task.requeued', 'agent.updated', 'task.updated', 'task.deleted', 'agent.updated', 'agent.deleted']);
        expect(events.find((event: { type: string }) => event.type === 'task.updated').data).toEqual({ title: 'renamed', previous_title: task.title, updated_at: expect.stringMatching(ISO_MS) });
        // Every task event names its task: the title is there whether or not it changed.
        expect(events.find((event: { type: string }) => event.type === 'task.requeued').data).toMatchObject({ title: task.title, status: 'queued' });
        expect(events.find((event: { type: string }) => event.type === 'task.deleted').data).toEqual({ id: task.id, status: 'queued', title: 'renamed' });
        expect(events.at(-2).data).toEqual({ status: 'paused', previous_status: 'idle', updated_at: expect.stringMatching(ISO_MS) });
        expect(events.at(-1).data).toEqual({ id: agent.id, status: 'paused' });
      });

      it('when a change is refused (a state conflict, a quota), then no event is written', async () => {
        const agent = await createAgent();
        const task = await createTaskOn(agent.id);
        await api().patch(`/api/v1/agents/${agent.id}/tasks/${task.id}`).send({ status: 'succeeded' }).expect(409);
        await api().patch(`/api/v1/agents/${agent.id}`).send({ status: 'running' }).expect(409);
        const before = await typesOf(agent.id);
        expect(before).toEqual(['agent.created', 'task.created']);

        const limited = await get().signUp();
        await get().database.db('users').where({ id: limited.user.id }).update({ stored_bytes: 100 * 1024 * 1024 });
        const own = await createAgent(limited.http);
        await limited.http.post(`/api/v1/agents/${own.id}/tasks`).send({ title: 'too much', input: { text: 'x'.repeat(1000) } }).expect(409);
        expect((await eventsOf(own.id, limited.http)).map((event: { type: string }) => event.type)).toEqual(['agent.created']);
      });

      it('when a lease expires and the sweep requeues its task, then task.requeued is recorded by the sweep', async () => {
        const agent = await createAgent();
        await createTaskOn(agent.id);
        const lease = await claim(agent.id);
        await get().database.db('leases').where({ id: lease.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
        const { sweepExpiredLeases } = await import('../../src/domain/leases');
        const { createTaskWakeups } = await import('../../src/domain/task-wakeups');
        await sweepExpiredLeases({ store: createStore(get().database.db), retry: get().config.leases, wakeups: createTaskWakeups(), quotas: get().config.quotas });
        const events = await eventsOf(agent.id);
        expect(events.slice(-2).map((event: { type: string }) => event.type)).toEqual(['task.requeued', 'agent.updated']);
        // The service requeued it itself: no one acted.
        expect(events.slice(-2).map((event: { actor: unknown }) => event.actor)).toEqual([null, null]);
      });
    });

    describe('pages', () => {
      it('when read a page at a time, then pages are oldest first and meta.nextCursor continues after the last id', async () => {
        const agent = await createAgent();
        for (let i = 0; i < 4; i++) await createTaskOn(agent.id, { title: `t${i}` });
        const first = await api().get('/api/v1/events').query({ agent_id: agent.id, limit: 2 }).expect(200);
        expect(first.headers['cache-control']).toBe('private, no-cache');
        expect(first.body.meta).toEqual({ nextCursor: first.body.data[1].id, hasMore: true });
        const second = await api().get('/api/v1/events').query({ agent_id: agent.id, limit: 2, after: first.body.meta.nextCursor }).expect(200);
        const third = await api().get('/api/v1/events').query({ agent_id: agent.id, limit: 2, after: second.body.meta.nextCursor }).expect(200);
        expect(third.body).toEqual({ data: [expect.objectContaining({ type: 'task.created' })], meta: { nextCursor: null, hasMore: false } });
        const titles = [...second.body.data, ...third.body.data].map((event: { data: { title: string } }) => event.data.title);
        expect(titles).toEqual(['t1', 't2', 't3']);
        // Last-Event-ID is `after` too; `after` wins when both are sent.
        const resumed = await api().get('/api/v1/events').query({ agent_id: agent.id }).set('Last-Event-ID', second.body.meta.nextCursor).expect(200);
        expect(resumed.body.data).toEqual(third.body.data);
      });

      it('when types are named, then only those come', async () => {
        const agent = await createAgent();
        await createTaskOn(agent.id);
        const res = await api().get(`/api/v1/events?agent_id=${agent.id}&types=task.created,agent.deleted`).expect(200);
        expect(res.body.data.map((event: { type: string }) => event.type)).toEqual(['task.created']);
        await api().get('/api/v1/events?types=task.exploded').expect(400);
        await api().get('/api/v1/events?after=forty-two').expect(400);
      });

      it('when events were pruned, then resuming before them is 410 EVENTS_EXPIRED, and reading afresh works', async () => {
        const agent = await createAgent();
        const [created] = await eventsOf(agent.id);
        await createTaskOn(agent.id);
        await get().database.db('events').where('id', '<=', Number(created.id)).update({ occurred_at: new Date(Date.now() - 200 * 3_600_000).toISOString() });
        expect(await pruneEvents(createStore(get().database.db), 168)).toBeGreaterThanOrEqual(1);
        const res = await api().get('/api/v1/events').query({ after: String(Number(created.id) - 1) }).expect(410);
        expect(res.body).toEqual({
          error: { code: 'EVENTS_EXPIRED', message: expect.any(String), details: { after: String(Number(created.id) - 1), pruned_through: expect.stringMatching(/^\d+$/) }, requestId: expect.any(String) },
        });
        expect((await eventsOf(agent.id)).map((event: { type: string }) => event.type)).toEqual(['task.created']);
        await api().get('/api/v1/events').query({ after: created.id }).expect(200);
      });

      it('when every event is past its retention, then all but the newest are pruned, and the next event still gets a larger id', async () => {
        const agent = await createAgent();
        await createTaskOn(agent.id);
        const db = get().database.db;
        await db('events').update({ occurred_at: new Date(Date.now() - 200 * 3_600_000).toISOString() });
        const newest = String(((await db('events').max({ id: 'id' }).first()) as { id: unknown }).id);
        await pruneEvents(createStore(db), 168);
        expect(((await db('events').select('id')) as Array<{ id: unknown }>).map((row) => String(row.id))).toEqual([newest]);
        await createTaskOn(agent.id);
        const next = (await eventsOf(agent.id)).at(-1);
        expect(next.type).toBe('task.created');
        expect(BigInt(next.id)).toBeGreaterThan(BigInt(newest));
      });
    });

    describe('who sees what', () => {
      it("when users read, then each sees only their agents' events, another's agent_id is 404, and an admin sees both", async () => {
        const a = await get().signUp();
        const b = await get().signUp();
        const agentA = await createAgent(a.http);
        const agentB = await createAgent(b.http);
        await createTaskOn(agentB.id, {}, b.http);
        const seenByA = (await a.http.get('/api/v1/events').query({ limit: 100 }).expect(200)).body.data;
        expect(new Set(seenByA.map((event: { agent_id: string }) => event.agent_id))).toEqual(new Set([agentA.id]));
        await a.http.get('/api/v1/events').query({ agent_id: agentB.id }).expect(404);
        await a.http.get('/api/v1/events').query({ agent_id: MISSING }).expect(404);
        const admin = await get().signUp({ role: 'admin' });
        expect(await eventsOf(agentB.id, admin.http)).toHaveLength(2);
        const service = await get().anonymous.get('/api/v1/events').query({ agent_id: agentA.id }).set('X-API-Key', TEST_API_KEY).expect(200);
        expect(service.body.data).toHaveLength(1);
        // A deleted agent's history stays readable by its owner.
        await a.http.delete(`/api/v1/agents/${agentA.id}`).expect(204);
        expect((await eventsOf(agentA.id, a.http)).map((event: { type: string }) => event.type)).toEqual(['agent.created', 'agent.deleted']);
      });

      it("when an agent key reads, then it sees its agent's events only: another agent_id is 404, without tasks:read 403", async () => {
        const mine = await createAgent();
        const other = await createAgent();
        await createTaskOn(other.id);
        const key = (await api().post(`/api/v1/agents/${mine.id}/keys`).send({ name: 'reader', scopes: ['tasks:read'] }).expect(201)).body.data.secret;
        const asKey = () => get().anonymous.get('/api/v1/events').set('X-API-Key', key);
        const seen = (await asKey().expect(200)).body.data;
        expect(seen.map((event: { agent_id: string }) => event.agent_id)).toEqual([mine.id]);
        expect((await asKey().query({ agent_id: mine.id }).expect(200)).body.data).toEqual(seen);
        const refused = await asKey().query({ agent_id: other.id }).expect(404);
        expect(refused.body.error.code).toBe('NOT_FOUND');
        const worker = (await api().post(`/api/v1/agents/${mine.id}/keys`).send({ name: 'worker', scopes: ['tasks:work'] }).expect(201)).body.data.secret;
        const forbidden = await get().anonymous.get('/api/v1/events').set('X-API-Key', worker).expect(403);
        expect(forbidden.body.error.message).toMatch(/tasks:read/);
      });
    });
  },
  { quotas: { agentsPerUser: 1000, tasksPerAgent: 10_000, storedBytesPerUser: 100 * 1024 * 1024 } },
);
