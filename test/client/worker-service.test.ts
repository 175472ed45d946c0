import { LeaseLostError, PermanentError, createAgentFleetClient, createWorker, type TaskHandler, type Worker, type WorkerEvent, type WorkerOptions } from '../../src/client';
import { TEST_API_KEY, describeEachDatabase } from '../support/harness';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('createWorker against the service', (get) => {
  const events: WorkerEvent[] = [];
  let worker: Worker | undefined;
  const api = () => get().http;
  const createAgent = async () => (await api().post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data as { id: string };
  const createTask = async (agentId: string, body: object) => ((await api().post(`/api/v1/agents/${agentId}/tasks`).send(body).expect(201)).body.data as { id: string }).id;
  const readTask = async (agentId: string, taskId: string) => (await api().get(`/api/v1/agents/${agentId}/tasks/${taskId}`).expect(200)).body.data as Record<string, unknown>;
  const startWorker = async (agentId: string, handler: TaskHandler, options: Partial<WorkerOptions> = {}): Promise<Worker> => {
    const client = createAgentFleetClient({ baseUrl: await get().listen(), auth: { apiKey: TEST_API_KEY } });
    worker = createWorker(client, { agentId, handler, waitSeconds: 2, onEvent: (event) => events.push(event), ...options });
    return worker.start();
  };
  const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Not met in time; the worker's events: ${JSON.stringify(events.map((event) => event.type))}`);
      await delay(50);
    }
  };
  const settled = (agentId: string, taskIds: string[]) => async () => {
    const tasks = await Promise.all(taskIds.map((id) => readTask(agentId, id)));
    return tasks.every((task) => task['status'] === 'succeeded' || task['status'] === 'failed');
  };

  beforeEach(() => {
    events.length = 0;
  });
  afterEach(async () => {
    await worker?.stop({ graceful: false });
    worker = undefined;
  });

  it('when a handler logs and reports usage, then its lines and usage reach the task and its attempt before the outcome', async () => {
    const agent = await createAgent();
    const taskId = await createTask(agent.id, { title: 'logged' });
    await startWorker(agent.id, async (_task, context) => {
      context.log.info('fetching', { url: 'https://example.org' });
      context.usage({ input_tokens: 100, output_tokens: 20, cost_usd: 0.001, model: 'small' });
      await context.progress({ percent: 50 });
      context.log.warn('slow answer');
      context.usage({ input_tokens: 50, cost_usd: 0.0005, model: 'large' });
      context.log.debug('done');
      return 'ok';
    });
    await until(settled(agent.id, [taskId]));
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'succeeded', usage: { input_tokens: 150, output_tokens: 20, cost_usd: 0.0015 } });
    const lines = (await api().get(`/api/v1/agents/${agent.id}/tasks/${taskId}/logs`).expect(200)).body.data;
    expect(lines.map((line: { level: string; message: string }) => [line.level, line.message])).toEqual([
      ['info', 'fetching'],
      ['warn', 'slow answer'],
      ['debug', 'done'],
    ]);
    expect(lines[0].data).toEqual({ url: 'https://example.org' });
    const [attempt] = (await api().get(`/api/v1/agents/${agent.id}/tasks/${taskId}/attempts`).expect(200)).body.data;
    expect(attempt).toMatchObject({ outcome: 'succeeded', model: 'large', usage: { input_tokens: 150 } });

    // The typed client follows the same lines live, from the first, and only warnings when asked.
    const client = createAgentFleetClient({ baseUrl: await get().listen(), auth: { apiKey: TEST_API_KEY } });
    const followed: string[] = [];
    for await (const line of client.taskLogs(agent.id, taskId)) {
      followed.push(line.message);
      if (followed.length === 3) break;
    }
    expect(followed).toEqual(['fetching', 'slow answer', 'done']);
    const warnings = client.taskLogs(agent.id, taskId, { level: 'warn' });
    expect((await warnings.next()).value).toMatchObject({ level: 'warn', message: 'slow answer', attempt: 1 });
    await warnings.return();
  }, 60_000);

  it('when the service is slow to take log lines, then lines past the buffer are dropped and counted, and the task is not held up', async () => {
    const agent = await createAgent();
    const taskId = await createTask(agent.id, { title: 'chatty' });
    const baseUrl = await get().listen();
    // Log batches take 2 s to be answered; everything else goes straight through.
    const slowLogs = async (request: Request) => {
      if (request.url.endsWith('/logs')) await delay(2000);
      return fetch(request);
    };
    const client = createAgentFleetClient({ baseUrl, auth: { apiKey: TEST_API_KEY }, fetch: slowLogs });
    let handlerMs = 0;
    worker = createWorker(client, {
      agentId: agent.id,
      waitSeconds: 2,
      logs: { flushMs: 50, maxBuffered: 10 },
      onEvent: (event) => events.push(event),
      handler: async (_task, context) => {
        const started = Date.now();
        for (let i = 0; i < 10; i++) context.log.info(`first ${i}`);
        await delay(100);
        for (let i = 0; i < 40; i++) context.log.info(`more ${i}`);
        handlerMs = Date.now() - started;
        return 'done';
      },
    }).start();
    await until(settled(agent.id, [taskId]));
    expect(handlerMs).toBeLessThan(1000);
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'succeeded' });
    const dropped = events.filter((event): event is Extract<WorkerEvent, { type: 'logs-dropped' }> => event.type === 'logs-dropped');
    expect(dropped.reduce((sum, event) => sum + event.count, 0)).toBeGreaterThanOrEqual(30);
    const lines = (await api().get(`/api/v1/agents/${agent.id}/tasks/${taskId}/logs`).expect(200)).body.data.map((line: { message: string }) => line.message);
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `first ${i}`));
  }, 60_000);

  it('when tasks are queued, then a worker of concurrency 3 runs each once: results succeed, thrown errors are retried up to max_attempts, a PermanentError fails at once', async () => {
    const agent = await createAgent();
    const counted = await Promise.all([1, 2, 3, 4, 5].map((n) => createTask(agent.id, { title: `count ${n}`, input: { n } })));
    const flaky = await createTask(agent.id, { title: 'flaky', max_attempts: 2 });
    const broken = await createTask(agent.id, { title: 'broken', max_attempts: 3 });
    let running = 0;
    let most = 0;
    await startWorker(
      agent.id,
      async (task) => {
        running += 1;
        most = Math.max(most, running);
        try {
          await delay(100);
          if (task.title === 'flaky') throw new Error('the model timed out');
          if (task.title === 'broken') throw new PermanentError('not a document');
          return { square: Number(task.input?.['n']) ** 2 };
        } finally {
          running -= 1;
        }
      },
      { concurrency: 3 },
    );
    await until(settled(agent.id, [...counted, flaky, broken]));
    for (const [index, id] of counted.entries()) {
      expect(await readTask(agent.id, id)).toMatchObject({ status: 'succeeded', attempts: 1, result: { square: (index + 1) ** 2 }, lease_id: null });
    }
    expect(await readTask(agent.id, flaky)).toMatchObject({ status: 'failed', attempts: 2, error: 'the model timed out' });
    expect(await readTask(agent.id, broken)).toMatchObject({ status: 'failed', attempts: 1, error: 'not a document' });
    expect(most).toBeLessThanOrEqual(3);
    expect(events.filter((event) => event.type === 'claimed')).toHaveLength(8);
    expect(events.filter((event) => event.type === 'lost' || event.type === 'error')).toEqual([]);
  }, 60_000);

  it('when the owner cancels a running task, then the next heartbeat hears LEASE_LOST, the handler\'s signal aborts, and nothing is reported', async () => {
    const agent = await createAgent();
    const taskId = await createTask(agent.id, { title: 'cancelled while it runs' });
    let reason: unknown;
    let progressed = false;
    await startWorker(
      agent.id,
      async (_task, { signal, progress }) => {
        await progress({ percent: 10, message: 'started' });
        progressed = true;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        reason = signal.reason;
        return 'must not be reported';
      },
      { ttlSeconds: 5 },
    );
    await until(() => progressed);
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'running', progress: { percent: 10, message: 'started' } });
    await api().patch(`/api/v1/agents/${agent.id}/tasks/${taskId}`).send({ status: 'cancelled' }).expect(200);
    await until(() => reason !== undefined, 15_000);
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason).toMatchObject({ reason: 'cancelled' });
    await delay(300);
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'cancelled', result: null, lease_id: null });
    expect(events.map((event) => event.type)).toEqual(['claimed', 'lost']);
  }, 30_000);

  it('when the stop\'s timeout passes while a handler runs, then its lease is released and the task is queued again without the attempt counted', async () => {
    const agent = await createAgent();
    const taskId = await createTask(agent.id, { title: 'outlives the stop' });
    let aborted: unknown;
    const running = await startWorker(agent.id, (_task, { signal }) => {
      signal.addEventListener('abort', () => (aborted = signal.reason));
      return new Promise(() => undefined);
    });
    await until(async () => (await readTask(agent.id, taskId))['status'] === 'running');
    await running.stop({ timeoutMs: 500 });
    expect(aborted).toMatchObject({ name: 'AbortError' });
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'queued', attempts: 0, lease_id: null });
    expect(events.map((event) => event.type)).toEqual(['claimed', 'released']);
  }, 30_000);

  it('when the agent is paused, then the worker backs off on 409 and takes the task once the agent is resumed', async () => {
    const agent = await createAgent();
    const taskId = await createTask(agent.id, { title: 'after the pause' });
    await api().patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
    await startWorker(agent.id, async () => 'resumed', { backoff: { initialMs: 100, maxMs: 200 } });
    await until(() => events.filter((event) => event.type === 'error').length >= 2);
    expect(events[0]).toMatchObject({ type: 'error', operation: 'claim', error: { status: 409 }, retryInMs: expect.any(Number) });
    await api().patch(`/api/v1/agents/${agent.id}`).send({ status: 'idle' }).expect(200);
    await until(settled(agent.id, [taskId]));
    expect(await readTask(agent.id, taskId)).toMatchObject({ status: 'succeeded', result: 'resumed' });
  }, 30_000);

  it('when three workers sign in with an agent key that was revoked, then each stops with the 401 invalid_client error instead of retrying, and their address still signs in', async () => {
    const agent = await createAgent();
    const key = (await api().post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'doomed' }).expect(201)).body.data as { id: string; secret: string };
    await api().delete(`/api/v1/agents/${agent.id}/keys/${key.id}`).expect(204);
    const baseUrl = await get().listen();
    const workers = [1, 2, 3].map(() =>
      createWorker(createAgentFleetClient({ baseUrl, auth: { clientId: key.id, clientSecret: key.secret } }), {
        agentId: agent.id,
        handler: async () => 'never',
        waitSeconds: 1,
        backoff: { initialMs: 50, maxMs: 100 },
        onEvent: (event) => events.push(event),
      }).start(),
    );
    const endings = await Promise.all(workers.map((running) => running.done.then(() => 'resolved', (error: unknown) => error)));
    for (const ending of endings) expect(ending).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(events.filter((event) => event.type === 'error')).toHaveLength(3);
    const owner = get().user;
    const signIn = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: owner.user.email, password: owner.password }) });
    expect(signIn.status).toBe(200);
  }, 30_000);
});
