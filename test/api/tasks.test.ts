import { describeEachDatabase } from '../support/harness';

type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDatabase('tasks', (get) => {
  const createAgent = async () => (await get().http.post('/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body;
  const createTask = async (agentId: string, body: object = { title: 'summarise' }) =>
    (await get().http.post(`/agents/${agentId}/tasks`).send(body).expect(201)).body;
  const patchTask = (agentId: string, taskId: string, body: object) =>
    get().http.patch(`/agents/${agentId}/tasks/${taskId}`).send(body);
  const agentStatus = async (agentId: string) => (await get().http.get(`/agents/${agentId}`).expect(200)).body.status;

  /** A task of a fresh agent, walked to `status` through the API. */
  const taskIn = async (status: TaskStatus) => {
    const agent = await createAgent();
    const task = await createTask(agent.id);
    const path: Record<TaskStatus, TaskStatus[]> = {
      queued: [],
      running: ['running'],
      succeeded: ['running', 'succeeded'],
      failed: ['running', 'failed'],
      cancelled: ['cancelled'],
    };
    for (const step of path[status]) await patchTask(agent.id, task.id, { status: step }).expect(200);
    return { agent, task };
  };

  describe('create and read', () => {
    it('when a task is posted, then it is queued with defaults, nulls and a Location', async () => {
      const agent = await createAgent();
      const res = await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 'summarise', input: { url: 'https://example.org' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        agent_id: agent.id,
        title: 'summarise',
        description: null,
        input: { url: 'https://example.org' },
        priority: 5,
        status: 'queued',
        result: null,
        error: null,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
        started_at: null,
        finished_at: null,
        attempts: 0,
        max_attempts: 3,
        available_at: res.body.created_at,
        progress: null,
        lease_id: null,
        last_error: null,
        usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
        run_at: null,
        timeout_seconds: null,
        deadline_at: null,
        schedule_id: null,
      });
      expect(res.headers.location).toBe(`/agents/${agent.id}/tasks/${res.body.id}`);
      await get().http.get(`/agents/${agent.id}/tasks/${res.body.id}`).expect(200, res.body);
    });

    it('when nested input and a description are given, then they round-trip unchanged', async () => {
      const agent = await createAgent();
      const input = { list: [1, 'two', { three: [true, null] }], unicode: '漢字 😀', n: 1.5 };
      const task = await createTask(agent.id, { title: 't', description: 'd'.repeat(10000), input, priority: 10 });
      const read = (await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body;
      expect(read).toMatchObject({ input, priority: 10, description: 'd'.repeat(10000) });
    });

    it.each([
      ['an empty title', { title: '' }, 'title'],
      ['a 201-character title', { title: 'x'.repeat(201) }, 'title'],
      ['a missing title', { description: 'x' }, 'title'],
      ['a priority of 11', { title: 't', priority: 11 }, 'priority'],
      ['a priority of -1', { title: 't', priority: -1 }, 'priority'],
      ['a fractional priority', { title: 't', priority: 2.5 }, 'priority'],
      ['max_attempts of 0', { title: 't', max_attempts: 0 }, 'max_attempts'],
      ['max_attempts of 21', { title: 't', max_attempts: 21 }, 'max_attempts'],
      ['a client-chosen attempts', { title: 't', attempts: 1 }, 'attempts'],
      ['an input that is an array', { title: 't', input: [1, 2] }, 'input'],
      ['a description over 10,000 characters', { title: 't', description: 'x'.repeat(10001) }, 'description'],
      ['a client-chosen status', { title: 't', status: 'running' }, 'status'],
      ['a client-chosen agent_id', { title: 't', agent_id: '01a20387-6fc2-730e-b42b-1de316f91e5e' }, 'agent_id'],
    ])('when the body has %s, then 422 names the field', async (_label, body, field) => {
      const agent = await createAgent();
      const res = await get().http.post(`/agents/${agent.id}/tasks`).send(body);
      expect(res.status).toBe(422);
      expect(res.body.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field, in: 'body' })]));
      await get().http.get(`/agents/${agent.id}/tasks`).expect(200, []);
    });

    it('when the input is larger than 64 KiB as JSON, then 400 validation_error and nothing is stored', async () => {
      const agent = await createAgent();
      const res = await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 't', input: { blob: 'x'.repeat(70000) } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'validation_error',
        details: { fields: [{ field: 'input', in: 'body', message: expect.stringContaining('65536') }] },
      });
      await get().http.get(`/agents/${agent.id}/tasks`).expect(200, []);
    });

    it('when a task is posted for a missing agent, then 404 Agent not found', async () => {
      const res = await get().http.post('/agents/0190a8f0-0000-7000-8000-000000000000/tasks').send({ title: 't' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'Agent not found', detail: 'Agent not found' });
    });

    it('when the agent is paused, then it accepts no new task (409)', async () => {
      const agent = await createAgent();
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      const res = await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 't' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'state_conflict', message: 'Agent is paused and accepts no new task' });
      await get().http.get(`/agents/${agent.id}/tasks`).expect(200, []);
    });

    it.each([
      ['a random UUID', '0190a8f0-0000-7000-8000-000000000000'],
      ['a non-UUID id', 'nope'],
    ])('when the task id is %s, then every method answers 404 Task not found', async (_label, taskId) => {
      const agent = await createAgent();
      const expected = { error: 'not_found', message: 'Task not found', detail: 'Task not found' };
      await get().http.get(`/agents/${agent.id}/tasks/${taskId}`).expect(404, expected);
      await get().http.patch(`/agents/${agent.id}/tasks/${taskId}`).send({ status: 'running' }).expect(404, expected);
      await get().http.delete(`/agents/${agent.id}/tasks/${taskId}`).expect(404, expected);
    });

    it("when a task is addressed under another agent's path, then 404 Task not found", async () => {
      const { task } = await taskIn('queued');
      const other = await createAgent();
      const expected = { error: 'not_found', message: 'Task not found', detail: 'Task not found' };
      await get().http.get(`/agents/${other.id}/tasks/${task.id}`).expect(404, expected);
      await get().http.patch(`/agents/${other.id}/tasks/${task.id}`).send({ status: 'cancelled' }).expect(404, expected);
      await get().http.delete(`/agents/${other.id}/tasks/${task.id}`).expect(404, expected);
    });
  });

  describe('list', () => {
    it('when tasks are listed, then they come in creation order, paginated and filterable by status', async () => {
      const agent = await createAgent();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await createTask(agent.id, { title: `t${i}` })).id);
      await patchTask(agent.id, ids[1]!, { status: 'cancelled' }).expect(200);
      const all = await get().http.get(`/agents/${agent.id}/tasks`).expect(200);
      expect(all.body.map((t: { id: string }) => t.id)).toEqual(ids);
      const page = await get().http.get(`/agents/${agent.id}/tasks?skip=1&limit=2`).expect(200);
      expect(page.body.map((t: { id: string }) => t.id)).toEqual(ids.slice(1, 3));
      const cancelled = await get().http.get(`/agents/${agent.id}/tasks?status=cancelled`).expect(200);
      expect(cancelled.body.map((t: { id: string }) => t.id)).toEqual([ids[1]]);
    });

    it.each(['limit=0', 'limit=1001', 'skip=-1', 'status=done'])('when the query has %s, then 422', async (query) => {
      const agent = await createAgent();
      const res = await get().http.get(`/agents/${agent.id}/tasks?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_error');
    });
  });

  describe('transitions', () => {
    it('when a task runs and succeeds, then timestamps, result and the agent status follow', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id);
      const started = (await patchTask(agent.id, task.id, { status: 'running' }).expect(200)).body;
      expect(started).toMatchObject({ status: 'running', started_at: expect.stringMatching(ISO_MS), finished_at: null });
      expect(await agentStatus(agent.id)).toBe('running');
      const done = (await patchTask(agent.id, task.id, { status: 'succeeded', result: { summary: 'ok', score: [1, 2] } }).expect(200)).body;
      expect(done).toMatchObject({ status: 'succeeded', result: { summary: 'ok', score: [1, 2] }, finished_at: expect.stringMatching(ISO_MS) });
      expect(await agentStatus(agent.id)).toBe('idle');
    });

    it('when a task fails, then its error is kept', async () => {
      const { agent, task } = await taskIn('running');
      const res = await patchTask(agent.id, task.id, { status: 'failed', error: 'model timed out' }).expect(200);
      expect(res.body).toMatchObject({ status: 'failed', error: 'model timed out', result: null });
    });

    it('when a scalar result is reported, then it round-trips', async () => {
      const { agent, task } = await taskIn('running');
      const res = await patchTask(agent.id, task.id, { status: 'succeeded', result: 'plain text' }).expect(200);
      expect(res.body.result).toBe('plain text');
    });

    it('when one of two running tasks ends, then the agent stays running until the last one ends', async () => {
      const agent = await createAgent();
      const a = await createTask(agent.id);
      const b = await createTask(agent.id);
      await patchTask(agent.id, a.id, { status: 'running' }).expect(200);
      await patchTask(agent.id, b.id, { status: 'running' }).expect(200);
      await patchTask(agent.id, a.id, { status: 'succeeded' }).expect(200);
      expect(await agentStatus(agent.id)).toBe('running');
      await patchTask(agent.id, b.id, { status: 'cancelled' }).expect(200);
      expect(await agentStatus(agent.id)).toBe('idle');
    });

    it('when a paused agent finishes its running task, then it stays paused and no queued task can start', async () => {
      const agent = await createAgent();
      const running = await createTask(agent.id);
      const queued = await createTask(agent.id);
      await patchTask(agent.id, running.id, { status: 'running' }).expect(200);
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      await patchTask(agent.id, running.id, { status: 'succeeded' }).expect(200);
      expect(await agentStatus(agent.id)).toBe('paused');
      const res = await patchTask(agent.id, queued.id, { status: 'running' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'state_conflict', message: 'Agent is paused: no task can start' });
    });

    it('when an agent is in error, then no task can start', async () => {
      const agent = await createAgent();
      const task = await createTask(agent.id);
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'error' }).expect(200);
      await patchTask(agent.id, task.id, { status: 'running' }).expect(409);
      expect((await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.status).toBe('queued');
    });

    it('when a running task is deleted, then its agent returns to idle', async () => {
      const { agent, task } = await taskIn('running');
      await get().http.delete(`/agents/${agent.id}/tasks/${task.id}`).expect(204);
      expect(await agentStatus(agent.id)).toBe('idle');
      await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(404);
    });

    const illegal: Array<[TaskStatus, TaskStatus]> = [
      ['queued', 'queued'],
      ['queued', 'succeeded'],
      ['queued', 'failed'],
      ['running', 'running'],
      ['running', 'queued'],
      ['succeeded', 'running'],
      ['succeeded', 'queued'],
      ['succeeded', 'failed'],
      ['succeeded', 'cancelled'],
      ['failed', 'running'],
      ['failed', 'succeeded'],
      ['failed', 'cancelled'],
      ['cancelled', 'queued'],
      ['cancelled', 'running'],
      ['cancelled', 'succeeded'],
    ];
    it.each(illegal)('when a %s task is moved to %s, then 409 state_conflict and nothing changes', async (from, to) => {
      const { agent, task } = await taskIn(from);
      const before = (await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body;
      const res = await patchTask(agent.id, task.id, { status: to });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('state_conflict');
      expect(res.body.message).toEqual(expect.stringContaining(from));
      await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200, before);
    });

    it.each(['succeeded', 'failed', 'cancelled'] as TaskStatus[])('when a %s task is edited, then 409', async (from) => {
      const { agent, task } = await taskIn(from);
      await patchTask(agent.id, task.id, { title: 'rename' }).expect(409);
    });

    it('when a running task is retitled, then 409; while queued, then the edit applies', async () => {
      const { agent, task } = await taskIn('queued');
      const res = await patchTask(agent.id, task.id, { title: 'renamed', priority: 9 }).expect(200);
      expect(res.body).toMatchObject({ title: 'renamed', priority: 9, status: 'queued' });
      await patchTask(agent.id, task.id, { status: 'running' }).expect(200);
      await patchTask(agent.id, task.id, { title: 'again' }).expect(409);
    });

    it('when result comes without succeeded or error without failed, then 400 validation_error', async () => {
      const { agent, task } = await taskIn('running');
      const a = await patchTask(agent.id, task.id, { status: 'failed', result: 1 });
      expect(a.status).toBe(400);
      expect(a.body).toMatchObject({ error: 'validation_error', details: { fields: [{ field: 'result', in: 'body' }] } });
      const b = await patchTask(agent.id, task.id, { error: 'boom' });
      expect(b.status).toBe(400);
      expect(b.body.details.fields[0].field).toBe('error');
      expect((await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body.status).toBe('running');
    });

    it('when a patch is empty or unknown, then 422', async () => {
      const { agent, task } = await taskIn('queued');
      await patchTask(agent.id, task.id, {}).expect(422);
      await patchTask(agent.id, task.id, { status: 'done' }).expect(422);
      await patchTask(agent.id, task.id, { started_at: '2020-01-01T00:00:00.000Z' }).expect(422);
    });

    it('when ten requests start the same task concurrently, then exactly one wins', async () => {
      const { agent, task } = await taskIn('queued');
      const results = await Promise.all(Array.from({ length: 10 }, () => patchTask(agent.id, task.id, { status: 'running' })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
      expect(await agentStatus(agent.id)).toBe('running');
    });

    it('when finishing requests race on one running task, then exactly one terminal state wins', async () => {
      const { agent, task } = await taskIn('running');
      const targets: TaskStatus[] = ['succeeded', 'failed', 'cancelled', 'succeeded', 'failed', 'cancelled'];
      const results = await Promise.all(targets.map((status) => patchTask(agent.id, task.id, { status })));
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(targets.length - 1);
      const final = (await get().http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body;
      expect(final.status).toBe(winners[0]!.body.status);
      expect(await agentStatus(agent.id)).toBe('idle');
    });

    it('when tasks of one agent start and finish concurrently, then the agent ends idle', async () => {
      const agent = await createAgent();
      const tasks = await Promise.all(Array.from({ length: 8 }, () => createTask(agent.id)));
      await Promise.all(tasks.map((t) => patchTask(agent.id, t.id, { status: 'running' }).expect(200)));
      expect(await agentStatus(agent.id)).toBe('running');
      await Promise.all(tasks.map((t) => patchTask(agent.id, t.id, { status: 'succeeded' }).expect(200)));
      expect(await agentStatus(agent.id)).toBe('idle');
    });
  });
});
