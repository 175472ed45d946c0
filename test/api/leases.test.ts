import { createStore } from '../../src/data/store';
import { ConfigError, loadConfig } from '../../src/config/config';
import { claimLease, retryDelayMs, sweepExpiredLeases, type WorkQueue } from '../../src/domain/leases';
import { createTask } from '../../src/domain/tasks';
import { createTaskWakeups } from '../../src/domain/task-wakeups';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING = '0190a8f0-0000-7000-8000-000000000000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsBetween = (later: string, earlier: string) => (Date.parse(later) - Date.parse(earlier)) / 1000;

describeEachDatabase('task leases', (get) => {
  const api = () => get().http;
  const createAgent = async () => (await api().post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data;
  const createTaskOn = async (agentId: string, body: object = {}) =>
    (await api().post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'summarise', ...body }).expect(201)).body.data;
  const claim = (agentId: string, body?: object) => {
    const request = api().post(`/api/v1/agents/${agentId}/leases`);
    return body === undefined ? request : request.send(body);
  };
  const claimed = async (agentId: string, body: object = {}) => (await claim(agentId, body).expect(201)).body.data;
  /** A new task of the agent, claimed. */
  const leaseOf = async (agentId: string, claimBody: object = {}) => {
    await createTaskOn(agentId);
    return claimed(agentId, claimBody);
  };
  const leasePath = (lease: { agent_id: string; id: string }) => `/api/v1/agents/${lease.agent_id}/leases/${lease.id}`;
  const readTask = async (agentId: string, taskId: string) => (await api().get(`/api/v1/agents/${agentId}/tasks/${taskId}`).expect(200)).body.data;
  const readLease = async (lease: { agent_id: string; id: string }) => (await api().get(leasePath(lease)).expect(200)).body.data;
  const agentStatus = async (agentId: string) => (await api().get(`/api/v1/agents/${agentId}`).expect(200)).body.data.status;
  const queue = (): WorkQueue => ({ store: createStore(get().database.db), retry: get().config.leases, wakeups: createTaskWakeups(), quotas: get().config.quotas });
  /** Makes the lease expired by time (as a worker that stopped heartbeating), without any sweep. */
  const plantExpired = async (lease: { id: string }, secondsAgo = 1) => {
    const planted = await createStore(get().database.db).leases.updateActive(lease.id, { expires_at: new Date(Date.now() - secondsAgo * 1000).toISOString() });
    expect(planted?.status).toBe('active');
  };
  const leaseLost = (reason: string) => ({
    error: { code: 'LEASE_LOST', message: expect.any(String), details: { reason, lease_status: reason }, requestId: expect.any(String) },
  });
  const leaseRows = async (taskId: string) => get().database.db('leases').where({ task_id: taskId }).select('id', 'status');

  describe('claim', () => {
    it('when tasks are queued, then claims hand them out by priority, then oldest first, and then answer 204', async () => {
      const agent = await createAgent();
      const low = await createTaskOn(agent.id, { title: 'low', priority: 1 });
      const normal = await createTaskOn(agent.id, { title: 'normal' });
      const urgentOld = await createTaskOn(agent.id, { title: 'urgent old', priority: 9 });
      const urgentNew = await createTaskOn(agent.id, { title: 'urgent new', priority: 9 });
      const order = [];
      for (let i = 0; i < 4; i++) order.push((await claimed(agent.id)).task_id);
      expect(order).toEqual([urgentOld.id, urgentNew.id, normal.id, low.id]);
      const none = await claim(agent.id);
      expect(none.status).toBe(204);
      expect(none.text).toBe('');
    });

    it('when a task is claimed, then 201 holds the lease with the running task, Location reads it back, and the agent runs', async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id, { max_attempts: 5 });
      const res = await claim(agent.id, { ttl_seconds: 30 });
      expect(res.status).toBe(201);
      const lease = res.body.data;
      expect(res.body).toEqual({
        data: {
          id: expect.any(String),
          agent_id: agent.id,
          task_id: task.id,
          status: 'active',
          ttl_seconds: 30,
          expires_at: expect.stringMatching(ISO_MS),
          created_at: expect.stringMatching(ISO_MS),
          task: {
            ...task,
            status: 'running',
            attempts: 1,
            max_attempts: 5,
            lease_id: lease.id,
            started_at: expect.stringMatching(ISO_MS),
            updated_at: expect.stringMatching(ISO_MS),
          },
        },
        meta: { timestamp: expect.stringMatching(ISO_MS) },
      });
      expect(secondsBetween(lease.expires_at, lease.created_at)).toBe(30);
      expect(res.headers.location).toBe(leasePath(lease));
      const read = await api().get(res.headers.location as string).expect(200);
      expect(read.headers['cache-control']).toBe('private, no-cache');
      expect(read.body.data).toEqual(lease);
      expect(await readTask(agent.id, task.id)).toEqual(lease.task);
      expect(await agentStatus(agent.id)).toBe('running');
    });

    it('when the claim has no body, then the lease lasts the default 60 seconds', async () => {
      const agent = await createAgent();
      await createTaskOn(agent.id);
      const res = await claim(agent.id);
      expect(res.status).toBe(201);
      expect(res.body.data.ttl_seconds).toBe(60);
    });

    it('when nothing is queued within wait_seconds, then 204 after the wait', async () => {
      const agent = await createAgent();
      const started = Date.now();
      const res = await claim(agent.id, { wait_seconds: 1 });
      expect(res.status).toBe(204);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('when a task is created during a long poll, then the waiting claim gets it', async () => {
      const agent = await createAgent();
      const waiting = claim(agent.id, { wait_seconds: 20 }).then((res) => res);
      await sleep(300);
      const task = await createTaskOn(agent.id);
      const res = await waiting;
      expect(res.status).toBe(201);
      expect(res.body.data.task_id).toBe(task.id);
    }, 30_000);

    it('when a task is queued where no wake-up reaches the waiting claim (another instance), then the claim finds it by looking again', async () => {
      const agent = await createAgent();
      const waiting = claim(agent.id, { wait_seconds: 20 }).then((res) => res);
      await sleep(300);
      // Written as another instance would: nothing in this process is told.
      const task = await createTask(createStore(get().database.db), { kind: 'service', keyNumber: 1 }, agent.id, { title: 'elsewhere' }, get().config.quotas);
      const res = await waiting;
      expect(res.status).toBe(201);
      expect(res.body.data.task_id).toBe(task.id);
    }, 30_000);

    it('when the client of a long poll goes away, then no lease is left for it and the task stays queued', async () => {
      const agent = await createAgent();
      const base = await get().listen();
      const gone = new AbortController();
      const polling = fetch(`${base}/api/v1/agents/${agent.id}/leases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${get().user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ wait_seconds: 20 }),
        signal: gone.signal,
      }).catch((error: unknown) => error);
      await sleep(500);
      gone.abort();
      expect(await polling).toMatchObject({ name: 'AbortError' });
      await sleep(200);
      const task = await createTaskOn(agent.id);
      await sleep(1500);
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'queued', attempts: 0, lease_id: null });
      expect(await leaseRows(task.id)).toEqual([]);
      expect((await claimed(agent.id)).task_id).toBe(task.id);
    }, 30_000);

    it.each([['paused'], ['error']])('when the agent is %s, then the claim answers 409 CONFLICT and hands out nothing', async (status) => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      await api().patch(`/api/v1/agents/${agent.id}`).send({ status }).expect(200);
      const res = await claim(agent.id);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { agent_status: status } });
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'queued', attempts: 0 });
    });

    it('when an admin or a service key claims on a user\'s agent, then it gets the task; another user gets 404', async () => {
      const agent = await createAgent();
      await createTaskOn(agent.id);
      await createTaskOn(agent.id);
      const admin = await get().signUp({ role: 'admin' });
      await admin.http.post(`/api/v1/agents/${agent.id}/leases`).send({}).expect(201);
      await get().anonymous.post(`/api/v1/agents/${agent.id}/leases`).set('X-API-Key', TEST_API_KEY).send({}).expect(201);
      const stranger = await get().signUp();
      const res = await stranger.http.post(`/api/v1/agents/${agent.id}/leases`).send({});
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
    });

    it("when an agent key's principal claims (kind agent), then the domain hands out the task", async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      const lease = await claimLease(queue(), { kind: 'agent', agentId: agent.id, keyId: MISSING, scopes: ['tasks:work'] }, agent.id, { ttlSeconds: 60, waitSeconds: 0 });
      expect(lease).toMatchObject({ task_id: task.id, status: 'active' });
    });

    it.each([
      ['a TTL under 5 seconds', { ttl_seconds: 4 }, 'ttl_seconds'],
      ['a TTL over an hour', { ttl_seconds: 3601 }, 'ttl_seconds'],
      ['a wait over 20 seconds', { wait_seconds: 21 }, 'wait_seconds'],
      ['an unknown field', { priority: 1 }, 'priority'],
    ])('when the claim has %s, then 400 names the field and nothing is claimed', async (_label, body, field) => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      const res = await claim(agent.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining(field) })]) });
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'queued' });
    });

    it('when the agent does not exist, then the claim answers 404', async () => {
      const res = await claim(MISSING, {});
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
    });
  });

  describe('a lease at work', () => {
    it('when a heartbeat comes, then the lease expires its TTL from now, a new TTL becomes its own, and progress is stored on the task', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id, { ttl_seconds: 10 });
      await sleep(50);
      const beat = await api().patch(leasePath(lease)).send({ ttl_seconds: 120, progress: { percent: 40, message: 'reading' } });
      expect(beat.status).toBe(200);
      const after = beat.body.data;
      expect(after).toMatchObject({ id: lease.id, status: 'active', ttl_seconds: 120, task: { status: 'running', progress: { percent: 40, message: 'reading' } } });
      expect(secondsBetween(after.expires_at, lease.expires_at)).toBeGreaterThan(100);
      expect(await readTask(agent.id, lease.task_id)).toMatchObject({ progress: { percent: 40, message: 'reading' } });
      const again = (await api().patch(leasePath(lease)).send({ progress: { percent: 90 } }).expect(200)).body.data;
      expect(again.ttl_seconds).toBe(120);
      expect(again.task.progress).toEqual({ percent: 90 });
      expect(Date.parse(again.expires_at)).toBeGreaterThanOrEqual(Date.parse(after.expires_at));
    });

    it('when the worker reports success, then the task succeeds with its result, the lease completes and the agent is idle again', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const res = await api().patch(leasePath(lease)).send({ status: 'succeeded', result: { summary: 'done' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: lease.id, status: 'completed', task: { status: 'succeeded', result: { summary: 'done' }, lease_id: null, attempts: 1, finished_at: expect.stringMatching(ISO_MS) } });
      expect(await readTask(agent.id, lease.task_id)).toEqual(res.body.data.task);
      expect(await agentStatus(agent.id)).toBe('idle');
      expect((await readLease(lease)).status).toBe('completed');
    });

    it('when the worker reports failure, then the task fails with its error', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const res = await api().patch(leasePath(lease)).send({ status: 'failed', error: 'the page was gone' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'completed', task: { status: 'failed', error: 'the page was gone', lease_id: null } });
    });

    it('when a failure asks for a retry, then the task is queued again after a back-off with its attempt counted, and claimed again once it is due', async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      const lease = await claimed(agent.id);
      const reported = Date.now();
      const res = await api().patch(leasePath(lease)).send({ status: 'failed', error: 'flaky', retry: true });
      expect(res.status).toBe(200);
      const requeued = res.body.data.task;
      expect(res.body.data.status).toBe('completed');
      expect(requeued).toMatchObject({ status: 'queued', attempts: 1, lease_id: null, error: null, started_at: null });
      // The first retry waits the base delay (1 s), jittered into its upper half.
      const delay = Date.parse(requeued.available_at) - reported;
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThanOrEqual(1000 + 2000);
      await claim(agent.id).expect(204);
      await sleep(Math.max(0, Date.parse(requeued.available_at) - Date.now()) + 50);
      const second = await claimed(agent.id);
      expect(second).toMatchObject({ task_id: task.id, task: { attempts: 2 } });
    });

    it('when a failure asks for a retry with no attempt left, then the task fails for good with its own error', async () => {
      const agent = await createAgent();
      await createTaskOn(agent.id, { max_attempts: 1 });
      const lease = await claimed(agent.id);
      const res = await api().patch(leasePath(lease)).send({ status: 'failed', error: 'still flaky', retry: true });
      expect(res.status).toBe(200);
      expect(res.body.data.task).toMatchObject({ status: 'failed', error: 'still flaky', attempts: 1 });
    });

    it('when the worker releases the lease, then 204, the task is queued again at once with the attempt not charged, and can be claimed again', async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      const lease = await claimed(agent.id);
      const res = await api().delete(leasePath(lease));
      expect(res.status).toBe(204);
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'queued', attempts: 0, lease_id: null });
      expect((await readLease(lease)).status).toBe('released');
      expect(await agentStatus(agent.id)).toBe('idle');
      expect(await claimed(agent.id)).toMatchObject({ task_id: task.id, task: { attempts: 1 } });
    });

    it.each([
      ['completed', { status: 'succeeded' }],
      ['released', undefined],
    ])('when a %s lease is used again, then every change answers 409 LEASE_LOST and writes nothing', async (reason, end) => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      if (end) await api().patch(leasePath(lease)).send(end).expect(200);
      else await api().delete(leasePath(lease)).expect(204);
      const before = await readTask(agent.id, lease.task_id);
      for (const res of [
        await api().patch(leasePath(lease)).send({ ttl_seconds: 30 }),
        await api().patch(leasePath(lease)).send({ status: 'failed', error: 'late' }),
        await api().delete(leasePath(lease)),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(leaseLost(reason));
      }
      expect(await readTask(agent.id, lease.task_id)).toEqual(before);
    });

    it('when the owner cancels a leased task, then the lease ends as cancelled and its worker gets LEASE_LOST', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const res = await api().patch(`/api/v1/agents/${agent.id}/tasks/${lease.task_id}`).send({ status: 'cancelled' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'cancelled', lease_id: null });
      expect((await readLease(lease)).status).toBe('cancelled');
      expect(await agentStatus(agent.id)).toBe('idle');
      const beat = await api().patch(leasePath(lease)).send({ progress: { percent: 50 } });
      expect(beat.status).toBe(409);
      expect(beat.body).toEqual(leaseLost('cancelled'));
    });

    it('when the owner changes a leased task in any other way, then 409 on both surfaces and the task is unchanged', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      for (const patch of [{ status: 'succeeded' }, { status: 'failed', error: 'x' }, { priority: 1 }, { status: 'cancelled', priority: 1 }]) {
        const res = await api().patch(`/api/v1/agents/${agent.id}/tasks/${lease.task_id}`).send(patch);
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { lease_id: lease.id } });
      }
      const root = await api().patch(`/agents/${agent.id}/tasks/${lease.task_id}`).send({ status: 'succeeded' });
      expect(root.status).toBe(409);
      expect(root.body).toMatchObject({ error: 'state_conflict', details: { lease_id: lease.id } });
      expect((await readLease(lease)).task).toMatchObject({ status: 'running', lease_id: lease.id });
    });

    it('when a leased task is deleted, then its lease goes with it', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      await api().delete(`/api/v1/agents/${agent.id}/tasks/${lease.task_id}`).expect(204);
      expect(await leaseRows(lease.task_id)).toEqual([]);
      const res = await api().get(leasePath(lease));
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Lease not found' });
      expect(await agentStatus(agent.id)).toBe('idle');
    });

    it.each([
      ['an empty object', {}, [{ field: '(body)', message: 'must NOT have fewer than 1 properties' }]],
      ['success with an error', { status: 'succeeded', error: 'x' }, [{ field: 'error', message: 'must NOT have additional properties' }]],
      ['failure without an error', { status: 'failed' }, [{ field: 'error', message: "must have required property 'error'" }]],
      ['a failure whose error is an object', { status: 'failed', error: { reason: 'timeout' } }, [{ field: 'error', message: 'must be string' }]],
      ['an unknown status', { status: 'running' }, [{ field: 'status', message: 'must be equal to one of the allowed values: succeeded, failed' }]],
      ['a TTL under 5 seconds', { ttl_seconds: 4 }, [{ field: 'ttl_seconds', message: 'must be >= 5' }]],
      ['progress over 100 percent', { progress: { percent: 101 } }, [{ field: 'progress.percent', message: 'must be <= 100' }]],
      ['empty progress', { progress: {} }, [{ field: 'progress', message: 'must NOT have fewer than 1 properties' }]],
    ])('when the lease update is %s, then 400 names only what is wrong with the body its status selects, and the lease is unchanged', async (_label, body, details) => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const res = await api().patch(leasePath(lease)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details });
      expect(await readLease(lease)).toEqual({ ...lease, task: lease.task });
    });

    it('when the result is larger than 64 KiB as JSON, then 400 and the lease stays active', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const res = await api().patch(leasePath(lease)).send({ status: 'succeeded', result: { blob: 'x'.repeat(70_000) } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'result', message: expect.stringContaining('65536') }] });
      expect((await readLease(lease)).status).toBe('active');
    });

    it.each([
      ['a random UUID', MISSING],
      ['a non-UUID id', 'nope'],
    ])('when the lease id is %s, then every lease operation answers 404 Lease not found', async (_label, leaseId) => {
      const agent = await createAgent();
      const path = `/api/v1/agents/${agent.id}/leases/${leaseId}`;
      for (const res of [await api().get(path), await api().patch(path).send({ ttl_seconds: 30 }), await api().delete(path)]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Lease not found' });
      }
    });

    it("when a lease is addressed under another agent's path, or by a user who does not own the agent, then 404", async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      const other = await createAgent();
      const res = await api().get(`/api/v1/agents/${other.id}/leases/${lease.id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Lease not found');
      const stranger = await get().signUp();
      const theirs = await stranger.http.patch(leasePath(lease)).send({ status: 'succeeded' });
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.message).toBe('Agent not found');
      expect((await readLease(lease)).status).toBe('active');
    });
  });

  describe('expiry', () => {
    it('when a lease is past its time but not yet swept, then a heartbeat gets LEASE_LOST expired, reads show it expired, and nothing is written', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id);
      await plantExpired(lease);
      const beat = await api().patch(leasePath(lease)).send({ progress: { percent: 99 } });
      expect(beat.status).toBe(409);
      expect(beat.body).toEqual(leaseLost('expired'));
      const done = await api().patch(leasePath(lease)).send({ status: 'succeeded' });
      expect(done.body).toEqual(leaseLost('expired'));
      expect((await readLease(lease)).status).toBe('expired');
      expect(await readTask(agent.id, lease.task_id)).toMatchObject({ status: 'running', progress: null, result: null });
    });

    it('when the sweep finds an expired lease, then its task is queued again with a back-off, and fails with "lease expired" once attempts are spent', async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id, { max_attempts: 2 });
      const first = await claimed(agent.id);
      await plantExpired(first);
      const swept = Date.now();
      expect(await sweepExpiredLeases(queue())).toBeGreaterThanOrEqual(1);
      const requeued = await readTask(agent.id, task.id);
      expect(requeued).toMatchObject({ status: 'queued', attempts: 1, lease_id: null, error: null });
      expect(Date.parse(requeued.available_at)).toBeGreaterThan(swept + 400);
      expect((await readLease(first)).status).toBe('expired');
      expect(await agentStatus(agent.id)).toBe('idle');
      // A second sweep finds nothing more to do with it.
      await sweepExpiredLeases(queue());
      expect(await readTask(agent.id, task.id)).toEqual(requeued);

      await sleep(Math.max(0, Date.parse(requeued.available_at) - Date.now()) + 50);
      const second = await claimed(agent.id);
      expect(second.task.attempts).toBe(2);
      await plantExpired(second);
      await sweepExpiredLeases(queue());
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'failed', error: 'lease expired', attempts: 2, lease_id: null, finished_at: expect.stringMatching(ISO_MS) });
      expect((await readLease(second)).status).toBe('expired');
    });

    it('when several sweepers find the same expired leases at once, then each lease is ended exactly once and each task queued again once', async () => {
      const agents = [await createAgent(), await createAgent(), await createAgent()];
      const leases = [];
      for (const agent of agents) for (let i = 0; i < 4; i++) leases.push(await leaseOf(agent.id));
      for (const lease of leases) await plantExpired(lease);
      // Four sweepers with stores of their own (on PostgreSQL, four pool connections racing).
      const counts = await Promise.all([queue(), queue(), queue(), queue()].map((sweeper) => sweepExpiredLeases(sweeper)));
      // A sweeper passes over an agent another one holds; the next sweep takes what was left.
      let ended = counts.reduce((sum, count) => sum + count, 0);
      expect(ended).toBeGreaterThan(0);
      for (let swept = ended; swept > 0; ended += swept) swept = await sweepExpiredLeases(queue());
      expect(ended).toBe(leases.length);
      for (const lease of leases) {
        expect(await leaseRows(lease.task_id)).toEqual([{ id: lease.id, status: 'expired' }]);
        expect(await readTask(lease.agent_id, lease.task_id)).toMatchObject({ status: 'queued', attempts: 1, lease_id: null });
      }
      for (const agent of agents) expect(await agentStatus(agent.id)).toBe('idle');
      expect(await Promise.all([queue(), queue()].map((sweeper) => sweepExpiredLeases(sweeper)))).toEqual([0, 0]);
    });

    it('when a stale worker reports after its lease expired and the task went to another, then it gets LEASE_LOST and the new attempt stands', async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id);
      const stale = await claimed(agent.id);
      await plantExpired(stale);
      await sweepExpiredLeases(queue());
      await sleep(Math.max(0, Date.parse((await readTask(agent.id, task.id)).available_at) - Date.now()) + 50);
      const current = await claimed(agent.id);
      expect(current.task_id).toBe(task.id);
      const late = await api().patch(leasePath(stale)).send({ status: 'succeeded', result: 'stale' });
      expect(late.status).toBe(409);
      expect(late.body).toEqual(leaseLost('expired'));
      await api().delete(leasePath(stale)).expect(409);
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'running', lease_id: current.id, result: null });
      await api().patch(leasePath(current)).send({ status: 'succeeded', result: 'fresh' }).expect(200);
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'succeeded', result: 'fresh', attempts: 2 });
    });

    it("when the agent's next claim comes before any sweep, then it ends the expired lease first", async () => {
      const agent = await createAgent();
      const task = await createTaskOn(agent.id, { max_attempts: 1 });
      const other = await createTaskOn(agent.id, { priority: 0 });
      const lease = await claimed(agent.id);
      expect(lease.task_id).toBe(task.id);
      await plantExpired(lease);
      const next = await claimed(agent.id);
      expect(next.task_id).toBe(other.id);
      expect((await readLease(lease)).status).toBe('expired');
      expect(await readTask(agent.id, task.id)).toMatchObject({ status: 'failed', error: 'lease expired' });
    });

    it('when a lease is not extended within its TTL, then it expires by time (no planting)', async () => {
      const agent = await createAgent();
      const lease = await leaseOf(agent.id, { ttl_seconds: 5 });
      await sleep(5500);
      const res = await api().patch(leasePath(lease)).send({ ttl_seconds: 60 });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(leaseLost('expired'));
    }, 30_000);
  });

  describe('tasks', () => {
    it('when max_attempts is given on create, then the task keeps it; without, it is 3', async () => {
      const agent = await createAgent();
      expect((await createTaskOn(agent.id, { max_attempts: 20 })).max_attempts).toBe(20);
      expect((await createTaskOn(agent.id)).max_attempts).toBe(3);
      const res = await api().post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 't', max_attempts: 21 });
      expect(res.status).toBe(400);
    });

    it('when tasks are listed with the new fields, then fields, sort and filter take them', async () => {
      const agent = await createAgent();
      await createTaskOn(agent.id, { title: 'a', max_attempts: 1 });
      await createTaskOn(agent.id, { title: 'b', max_attempts: 7 });
      const res = await api().get(`/api/v1/agents/${agent.id}/tasks?fields=title,max_attempts,attempts,lease_id&filter[max_attempts][gte]=5&sort=-available_at`).expect(200);
      expect(res.body.data).toEqual([{ id: expect.any(String), title: 'b', max_attempts: 7, attempts: 0, lease_id: null }]);
    });
  });
});

describe('retry back-off', () => {
  const policy = { retryBaseMs: 1000, retryMaxMs: 300_000 };

  it('when attempts grow, then the delay doubles from the base up to the cap, jittered into the upper half of each step', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, policy, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, policy, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(10, policy, () => 1)).toBe(300_000);
    expect(retryDelayMs(20, policy, () => 0.5)).toBe(225_000);
  });

  it('when LEASE_RETRY_* are configured, then they are read; a cap below the base is refused', () => {
    const env = { NODE_ENV: 'test', LEASE_RETRY_BASE_MS: '250', LEASE_RETRY_MAX_MS: '4000', LEASE_SWEEP_INTERVAL_MS: '1000' };
    expect(loadConfig(env).leases).toEqual({ retryBaseMs: 250, retryMaxMs: 4000, sweepIntervalMs: 1000, logLinesPerTask: 10_000 });
    expect(loadConfig({ NODE_ENV: 'test' }).leases).toEqual({ retryBaseMs: 1000, retryMaxMs: 300_000, sweepIntervalMs: 5000, logLinesPerTask: 10_000 });
    expect(loadConfig({ NODE_ENV: 'test', TASK_LOG_LINES: '50' }).leases.logLinesPerTask).toBe(50);
    expect(() => loadConfig({ NODE_ENV: 'test', TASK_LOG_LINES: '0' })).toThrow(/TASK_LOG_LINES/);
    expect(() => loadConfig({ ...env, LEASE_RETRY_MAX_MS: '100' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, LEASE_SWEEP_INTERVAL_MS: '10' })).toThrow(/LEASE_SWEEP_INTERVAL_MS must be an integer from 100/);
  });
});

describeEachDatabase(
  'lease outcomes against the stored-bytes quota',
  (get) => {
    it("when a success's result would take the owner beyond the quota, then 409 QUOTA_EXCEEDED, the lease stays active, and a smaller result succeeds", async () => {
      const agent = (await get().http.post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data;
      await get().http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'big' }).expect(201);
      const lease = (await get().http.post(`/api/v1/agents/${agent.id}/leases`).send({}).expect(201)).body.data;
      const path = `/api/v1/agents/${agent.id}/leases/${lease.id}`;
      const res = await get().http.patch(path).send({ status: 'succeeded', result: { blob: 'x'.repeat(5000) } });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'stored_bytes_per_user', limit: 3000 } });
      expect((await get().http.get(path).expect(200)).body.data).toMatchObject({ status: 'active', task: { status: 'running', result: null } });
      await get().http.patch(path).send({ status: 'succeeded', result: { ok: true } }).expect(200);
    });
  },
  { quotas: { agentsPerUser: 1000, tasksPerAgent: 10_000, storedBytesPerUser: 3000 } },
);
