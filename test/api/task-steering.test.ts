import { createAgentFleetClient, createWorker, LeaseLostError, type AgentFleetClient } from '../../src/client';
import { createStore } from '../../src/data/store';
import { createStatsCache, getAgentStats } from '../../src/domain/fleet-health';
import { sweepDeadlines, type WorkQueue } from '../../src/domain/leases';
import { createTaskWakeups } from '../../src/domain/task-wakeups';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

describeEachDatabase('steering the queue', (get) => {
  const api = () => get().http;
  const store = () => createStore(get().database.db);
  const queue = (): WorkQueue => ({ store: store(), retry: get().config.leases, wakeups: createTaskWakeups(), quotas: get().config.quotas });
  const createAgent = async (body: object = {}) => (await api().post('/api/v1/agents').send({ name: 'worker', type: 'type_a', ...body }).expect(201)).body.data;
  const createTask = async (agentId: string, body: object = {}) => (await api().post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'summarise', ...body }).expect(201)).body.data;
  const claim = (agentId: string, body: object = {}) => api().post(`/api/v1/agents/${agentId}/leases`).send(body);
  const leasePath = (lease: { agent_id: string; id: string }) => `/api/v1/agents/${lease.agent_id}/leases/${lease.id}`;
  const taskPath = (task: { agent_id: string; id: string }) => `/api/v1/agents/${task.agent_id}/tasks/${task.id}`;
  const readTask = async (task: { agent_id: string; id: string }) => (await api().get(taskPath(task)).expect(200)).body.data;
  /** A task that ran once and failed for good. */
  const failedTask = async (agentId: string, body: object = {}) => {
    const task = await createTask(agentId, { max_attempts: 1, ...body });
    const lease = (await claim(agentId).expect(201)).body.data;
    await api().patch(leasePath(lease)).send({ status: 'failed', error: 'model refused' }).expect(200);
    return task;
  };

  describe('retry', () => {
    it('when a failed task is retried, then it is queued with one more attempt allowed, keeps its history, and task.requeued says retried', async () => {
      const agent = await createAgent();
      const task = await failedTask(agent.id);
      const res = await api().post(`${taskPath(task)}/attempts`).expect(202);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.etag).toBeDefined();
      expect(res.body.data).toMatchObject({ id: task.id, status: 'queued', attempts: 1, max_attempts: 2, error: null, last_error: 'model refused', finished_at: null, started_at: null });

      const second = (await claim(agent.id).expect(201)).body.data;
      expect(second.task_id).toBe(task.id);
      await api().patch(leasePath(second)).send({ status: 'succeeded', result: { ok: true } }).expect(200);
      const attempts = (await api().get(`${taskPath(task)}/attempts`).expect(200)).body.data;
      expect(attempts.map((attempt: { number: number; outcome: string }) => [attempt.number, attempt.outcome])).toEqual([
        [1, 'failed'],
        [2, 'succeeded'],
      ]);
      const events = (await api().get(`/api/v1/events?agent_id=${agent.id}&types=task.requeued`).expect(200)).body.data;
      expect(events).toHaveLength(1);
      expect(events[0].data).toMatchObject({ status: 'queued', previous_status: 'failed', reason: 'retried', error: 'model refused' });
    });

    it('when a cancelled task with attempts left is retried, then its max_attempts stays', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id, { max_attempts: 3 });
      await api().patch(taskPath(task)).send({ status: 'cancelled' }).expect(200);
      const res = await api().post(`${taskPath(task)}/attempts`).expect(202);
      expect(res.body.data).toMatchObject({ status: 'queued', attempts: 0, max_attempts: 3 });
    });

    it('when a queued, running or succeeded task is retried, then 409 CONFLICT and it is unchanged', async () => {
      const agent = await createAgent();
      const queued = await createTask(agent.id);
      const conflict = await api().post(`${taskPath(queued)}/attempts`).expect(409);
      expect(conflict.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'queued' } });
      const lease = (await claim(agent.id).expect(201)).body.data;
      await api().post(`${taskPath(queued)}/attempts`).expect(409);
      await api().patch(leasePath(lease)).send({ status: 'succeeded' }).expect(200);
      await api().post(`${taskPath(queued)}/attempts`).expect(409);
      expect(await readTask(queued)).toMatchObject({ status: 'succeeded', attempts: 1 });
    });

    it('when the task, the agent or the credential does not reach, then 404 or 403 and nothing changes', async () => {
      const agent = await createAgent();
      const task = await failedTask(agent.id);
      await api().post(`/api/v1/agents/${agent.id}/tasks/0190a3c4-0000-7000-8000-000000000000/attempts`).expect(404);
      const stranger = await get().signUp();
      const hidden = await stranger.http.post(`${taskPath(task)}/attempts`).expect(404);
      expect(hidden.body.error.code).toBe('NOT_FOUND');
      const key = (await api().post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'k', scopes: ['tasks:read', 'tasks:write', 'tasks:work'] }).expect(201)).body.data;
      await get().anonymous.post(`${taskPath(task)}/attempts`).set('X-API-Key', key.secret).expect(403);
      expect(await readTask(task)).toMatchObject({ status: 'failed' });
    });

    it('when the typed client retries a task and sends a batch, then both are typed and answer as over HTTP', async () => {
      const agent = await createAgent();
      const task = await failedTask(agent.id);
      const other = await failedTask(agent.id);
      const client = createAgentFleetClient({ baseUrl: await get().listen(), headers: { Authorization: `Bearer ${get().user.token}` } });
      const retried = await client.POST('/api/v1/agents/{agent_id}/tasks/{task_id}/attempts', { params: { path: { agent_id: agent.id, task_id: task.id } } });
      expect(retried.response.status).toBe(202);
      expect(retried.data?.data).toMatchObject({ id: task.id, status: 'queued' });
      const again = await client.POST('/api/v1/agents/{agent_id}/tasks/{task_id}/attempts', { params: { path: { agent_id: agent.id, task_id: task.id } } });
      expect(again.response.status).toBe(409);
      expect(again.error).toMatchObject({ error: { code: 'CONFLICT' } });
      const batch = await client.POST('/api/v1/agents/{agent_id}/task-batches', { params: { path: { agent_id: agent.id } }, body: { action: 'retry', ids: [task.id, other.id] } });
      expect(batch.data?.data.results.map((result) => [result.task_id, result.outcome])).toEqual([
        [task.id, 'refused'],
        [other.id, 'changed'],
      ]);
    });

    it('when the agent is paused, then a retry is 409 and the task stays failed', async () => {
      const agent = await createAgent();
      const task = await failedTask(agent.id);
      await api().patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      const res = await api().post(`${taskPath(task)}/attempts`).expect(409);
      expect(res.body.error.details).toEqual({ agent_status: 'paused' });
      expect(await readTask(task)).toMatchObject({ status: 'failed' });
    });
  });

  describe('task batches', () => {
    const batch = (agentId: string, body: object) => api().post(`/api/v1/agents/${agentId}/task-batches`).send(body);

    it('when tasks are cancelled by id, then each changes or is refused, in the order named, and a running one loses its lease', async () => {
      const agent = await createAgent();
      const queued = await createTask(agent.id);
      const running = await createTask(agent.id);
      const done = await createTask(agent.id);
      // Claims take the oldest first: queued, running, done.
      const first = (await claim(agent.id).expect(201)).body.data;
      await api().delete(leasePath(first)).expect(204);
      const held = (await claim(agent.id).expect(201)).body.data;
      const finishing = (await claim(agent.id).expect(201)).body.data;
      await api().patch(leasePath(finishing)).send({ status: 'succeeded' }).expect(200);
      expect([held.task_id, finishing.task_id]).toEqual([queued.id, running.id]);

      const res = await batch(agent.id, { action: 'cancel', ids: [done.id, queued.id, running.id] }).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.data).toEqual({
        action: 'cancel',
        changed: 2,
        refused: 1,
        more: false,
        results: [
          { task_id: done.id, outcome: 'changed', status: 'cancelled', error: null },
          { task_id: queued.id, outcome: 'changed', status: 'cancelled', error: null },
          { task_id: running.id, outcome: 'refused', status: 'succeeded', error: { code: 'CONFLICT', message: 'A succeeded task never changes' } },
        ],
      });
      const lost = await api().patch(leasePath(held)).send({ progress: { percent: 10 } }).expect(409);
      expect(lost.body.error).toMatchObject({ code: 'LEASE_LOST', details: { reason: 'cancelled' } });
    });

    it('when failed tasks are retried by status with a limit, then the oldest are taken and more says some are left', async () => {
      const agent = await createAgent();
      const tasks = [await failedTask(agent.id), await failedTask(agent.id), await failedTask(agent.id)];
      const res = await batch(agent.id, { action: 'retry', status: 'failed', limit: 2 }).expect(200);
      expect(res.body.data).toMatchObject({ action: 'retry', changed: 2, refused: 0, more: true });
      expect(res.body.data.results.map((result: { task_id: string }) => result.task_id)).toEqual([tasks[0].id, tasks[1].id]);
      expect((await readTask(tasks[2])).status).toBe('failed');
      const rest = await batch(agent.id, { action: 'retry', status: 'failed' }).expect(200);
      expect(rest.body.data).toMatchObject({ changed: 1, more: false });
    });

    it("when the ids name another agent's task, then 400 names it and no task changes", async () => {
      const agent = await createAgent();
      const other = await createAgent();
      const mine = await createTask(agent.id);
      const theirs = await createTask(other.id);
      const res = await batch(agent.id, { action: 'cancel', ids: [mine.id, theirs.id] }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'ids/1', message: 'names no task of this agent' }] });
      expect((await readTask(mine)).status).toBe('queued');
      expect((await readTask(theirs)).status).toBe('queued');
    });

    it('when the body is malformed, then 400 in the declared shape and nothing changes', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id);
      const tooMany = Array.from({ length: 1001 }, (_, i) => `0190a3c4-0000-7000-8000-${String(i).padStart(12, '0')}`);
      for (const body of [
        { action: 'cancel' },
        { action: 'cancel', ids: [task.id], status: 'queued' },
        { action: 'cancel', ids: [task.id, task.id] },
        { action: 'cancel', ids: [] },
        { action: 'cancel', ids: tooMany },
        { action: 'delete', ids: [task.id] },
        { action: 'cancel', status: 'queued', limit: 0 },
        { action: 'cancel', ids: ['not-an-id'] },
      ]) {
        const res = await batch(agent.id, body).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
      expect((await readTask(task)).status).toBe('queued');
    });

    it('when an agent key or a stranger sends a batch, then 403 or 404', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id);
      const key = (await api().post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'k', scopes: ['tasks:read', 'tasks:write', 'tasks:work'] }).expect(201)).body.data;
      await get().anonymous.post(`/api/v1/agents/${agent.id}/task-batches`).set('X-API-Key', key.secret).send({ action: 'cancel', ids: [task.id] }).expect(403);
      const stranger = await get().signUp();
      await stranger.http.post(`/api/v1/agents/${agent.id}/task-batches`).send({ action: 'cancel', ids: [task.id] }).expect(404);
      expect((await readTask(task)).status).toBe('queued');
    });
  });

  describe('run_at', () => {
    it('when a task is created to run later, then it is scheduled, not claimable before, and a long poll gets it in time', async () => {
      const agent = await createAgent();
      const runAt = inSeconds(1.5);
      const task = await createTask(agent.id, { run_at: runAt });
      expect(task).toMatchObject({ status: 'queued', run_at: runAt, available_at: runAt });
      await claim(agent.id).expect(204);
      const stats = await getAgentStats(store(), createStatsCache(), { kind: 'service', keyNumber: 1 }, agent.id, '1h');
      expect(stats).toMatchObject({ queue_depth: 0, scheduled: 1 });

      const started = Date.now();
      const lease = (await claim(agent.id, { wait_seconds: 10 }).expect(201)).body.data;
      expect(lease.task_id).toBe(task.id);
      expect(Date.parse(lease.created_at)).toBeGreaterThanOrEqual(Date.parse(runAt));
      // Woken for the task's time, not at the end of the wait.
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('when a waiting task of higher priority comes due while others are claimable, then the next claim takes it first, once', async () => {
      const agent = await createAgent();
      const later = await createTask(agent.id, { title: 'urgent later', priority: 9, run_at: inSeconds(1) });
      const far = await createTask(agent.id, { title: 'urgent next month', priority: 9, run_at: inSeconds(30 * 86_400) });
      const ready = [await createTask(agent.id, { priority: 1 }), await createTask(agent.id, { priority: 1 })];
      expect((await claim(agent.id).expect(201)).body.data.task_id).toBe(ready[0].id);
      await sleep(1100);
      const [first, second] = await Promise.all([claim(agent.id).expect(201), claim(agent.id).expect(201)]);
      expect([first.body.data.task_id, second.body.data.task_id].sort()).toEqual([later.id, ready[1].id].sort());
      await claim(agent.id).expect(204);
      expect(await readTask(far)).toMatchObject({ status: 'queued', available_at: far.available_at, attempts: 0 });
    });

    it('when run_at lies more than a minute back, or more than 365 days ahead, or is not a time, then 400 names it and no task is made', async () => {
      const agent = await createAgent();
      for (const runAt of [inSeconds(-120), inSeconds(366 * 86_400), 'tomorrow']) {
        const res = await api().post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'later', run_at: runAt }).expect(400);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'run_at' })]);
      }
      expect((await api().get(`/api/v1/agents/${agent.id}/tasks`).expect(200)).body.data).toEqual([]);
    });

    it('when run_at is a few seconds back, then the task runs at once and keeps the time asked', async () => {
      const agent = await createAgent();
      const runAt = inSeconds(-5);
      const task = await createTask(agent.id, { run_at: runAt });
      expect(task.run_at).toBe(runAt);
      expect(Date.parse(task.available_at)).toBeGreaterThanOrEqual(Date.parse(runAt));
      expect((await claim(agent.id).expect(201)).body.data.task_id).toBe(task.id);
    });
  });

  describe('timeout_seconds', () => {
    it('when a task outlives its deadline, then its worker hears LEASE_LOST timed_out and the sweep fails it with deadline exceeded', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id, { timeout_seconds: 1, max_attempts: 3 });
      expect(task).toMatchObject({ timeout_seconds: 1, deadline_at: null });
      const lease = (await claim(agent.id).expect(201)).body.data;
      expect(lease.task.deadline_at).toBe(new Date(Date.parse(lease.created_at) + 1000).toISOString());
      await sleep(1100);
      const lost = await api().patch(leasePath(lease)).send({ progress: { percent: 50 } }).expect(409);
      expect(lost.body.error).toMatchObject({ code: 'LEASE_LOST', details: { reason: 'timed_out', lease_status: 'timed_out' } });

      expect(await sweepDeadlines(queue())).toBeGreaterThanOrEqual(1);
      expect(await readTask(task)).toMatchObject({ status: 'failed', error: 'deadline exceeded', last_error: 'deadline exceeded', lease_id: null });
      const read = (await api().get(leasePath(lease)).expect(200)).body.data;
      expect(read.status).toBe('timed_out');
      const attempts = (await api().get(`${taskPath(task)}/attempts`).expect(200)).body.data;
      expect(attempts).toEqual([expect.objectContaining({ number: 1, outcome: 'timed_out', error: 'deadline exceeded' })]);
      expect((await api().get(`/api/v1/agents/${agent.id}`).expect(200)).body.data.status).toBe('idle');
      const stats = (await api().get(`/api/v1/agents/${agent.id}/stats?window=1h`).expect(200)).body.data;
      expect(stats).toMatchObject({ succeeded: 0, failed: 1 });
      const workers = (await api().get(`/api/v1/agents/${agent.id}/workers`).expect(200)).body.data;
      expect(workers).toEqual([expect.objectContaining({ succeeded_last_hour: 0, failed_last_hour: 1 })]);
      // Swept once: a second sweep finds nothing of this task.
      await sweepDeadlines(queue());
      expect((await api().get(`${taskPath(task)}/attempts`).expect(200)).body.data).toHaveLength(1);
    });

    it('when an outcome arrives after the deadline, then it is refused and the task fails at once', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id, { timeout_seconds: 1 });
      const lease = (await claim(agent.id).expect(201)).body.data;
      await sleep(1100);
      const lost = await api().patch(leasePath(lease)).send({ status: 'succeeded', result: { late: true } }).expect(409);
      expect(lost.body.error.details).toEqual({ reason: 'timed_out', lease_status: 'timed_out' });
      expect(await readTask(task)).toMatchObject({ status: 'failed', error: 'deadline exceeded', result: null });
    });

    it('when a task backing off between attempts passes its deadline, then the sweep fails it without another attempt', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id, { timeout_seconds: 60, max_attempts: 5 });
      const lease = (await claim(agent.id).expect(201)).body.data;
      await api().patch(leasePath(lease)).send({ status: 'failed', error: 'flaky', retry: true }).expect(200);
      await store().tasks.update(task.id, 'queued', { deadline_at: inSeconds(-1) }, 0);
      expect(await sweepDeadlines(queue())).toBe(1);
      expect(await readTask(task)).toMatchObject({ status: 'failed', error: 'deadline exceeded', attempts: 1 });
    });

    it('when the typed client works a task past its deadline, then its handler signal aborts with LEASE_LOST timed_out', async () => {
      const agent = await createAgent();
      await createTask(agent.id, { timeout_seconds: 1 });
      const client: AgentFleetClient = createAgentFleetClient({ baseUrl: await get().listen(), headers: { 'X-API-Key': TEST_API_KEY } });
      let reason: unknown;
      let aborted!: () => void;
      const handled = new Promise<void>((resolve) => {
        aborted = resolve;
      });
      const worker = createWorker(client, {
        agentId: agent.id,
        ttlSeconds: 5,
        waitSeconds: 1,
        handler: (_task, context) =>
          new Promise((_, reject) => {
            context.signal.addEventListener('abort', () => {
              reason = context.signal.reason;
              reject(context.signal.reason);
              aborted();
            });
          }),
      }).start();
      await handled;
      await worker.stop();
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect((reason as LeaseLostError).reason).toBe('timed_out');
    }, 15_000);

    it('when timeout_seconds is 0 or beyond 7 days, then 400', async () => {
      const agent = await createAgent();
      for (const timeout of [0, 604_801, 1.5]) {
        const res = await api().post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'bounded', timeout_seconds: timeout }).expect(400);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'timeout_seconds' })]);
      }
    });
  });

  describe('max_concurrency', () => {
    it('when the agent runs its cap, then a claim waits as on an empty queue and gets the next task once one ends', async () => {
      const agent = await createAgent({ max_concurrency: 1 });
      expect(agent.max_concurrency).toBe(1);
      await createTask(agent.id);
      await createTask(agent.id);
      const first = (await claim(agent.id).expect(201)).body.data;
      await claim(agent.id).expect(204);
      const waiting = claim(agent.id, { wait_seconds: 10 });
      const started = Date.now();
      await sleep(200);
      await api().patch(leasePath(first)).send({ status: 'succeeded' }).expect(200);
      const second = (await waiting.expect(201)).body.data;
      expect(second.task_id).not.toBe(first.task_id);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('when the owner starts a task by hand at the cap, then 409', async () => {
      const agent = await createAgent({ max_concurrency: 1 });
      const running = await createTask(agent.id);
      const next = await createTask(agent.id);
      await api().patch(taskPath(running)).send({ status: 'running' }).expect(200);
      const res = await api().patch(taskPath(next)).send({ status: 'running' }).expect(409);
      expect(res.body.error.message).toMatch(/max_concurrency/);
    });

    it('when the cap is changed, removed or set out of range, then it holds, goes, or 400 changes nothing', async () => {
      const agent = await createAgent();
      expect(agent.max_concurrency).toBeNull();
      const path = `/api/v1/agents/${agent.id}`;
      expect((await api().patch(path).send({ max_concurrency: 2 }).expect(200)).body.data.max_concurrency).toBe(2);
      for (const cap of [0, -1, 1001, 'two']) {
        const res = await api().patch(path).send({ max_concurrency: cap }).expect(400);
        expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'max_concurrency' })]);
      }
      expect((await api().get(path).expect(200)).body.data.max_concurrency).toBe(2);
      expect((await api().patch(path).send({ max_concurrency: null }).expect(200)).body.data.max_concurrency).toBeNull();
      // The root surface shows it too, and its PUT replaces it.
      const root = await api().put(`/agents/${agent.id}`).send({ name: 'worker', type: 'type_a', max_concurrency: 3 }).expect(200);
      expect(root.body.max_concurrency).toBe(3);
      expect((await api().put(`/agents/${agent.id}`).send({ name: 'worker', type: 'type_a' }).expect(200)).body.max_concurrency).toBeNull();
    });
  });
});
