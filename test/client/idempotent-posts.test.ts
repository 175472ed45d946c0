import { createAgentFleetClient, createWorker, type RetryEvent, type Task, type Worker, type WorkerEvent } from '../../src/client';
import { AnswerDroppingProxy } from '../support/answer-dropping-proxy';
import { describeEachDatabase, type SignedInUser } from '../support/harness';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('the typed client\'s POSTs against the real Idempotency-Key, through a proxy that loses answers', (get) => {
  let proxy: AnswerDroppingProxy;
  let worker: Worker | undefined;
  const retries: RetryEvent[] = [];

  beforeAll(async () => {
    proxy = new AnswerDroppingProxy(await get().listen());
    await proxy.start();
  });
  afterAll(async () => {
    await proxy.stop();
  });
  beforeEach(() => {
    retries.length = 0;
    proxy.exchanges.length = 0;
  });
  afterEach(async () => {
    await worker?.stop({ graceful: false });
    worker = undefined;
  });

  const clientOf = (user: SignedInUser) =>
    createAgentFleetClient({ baseUrl: proxy.baseUrl, headers: { Authorization: `Bearer ${user.token}` }, retry: { baseDelayMs: 20, onRetry: (event) => retries.push(event) } });
  const exchangesOf = (method: string, path: RegExp) => proxy.exchanges.filter((exchange) => exchange.method === method && path.test(exchange.url));

  it('when the first answer to a create is lost after the service committed it, then the POST resolves once with that agent, replayed to the same Idempotency-Key, and one agent exists', async () => {
    const owner = await get().signUp();
    proxy.dropNext((req) => req.method === 'POST' && req.url === '/api/v1/agents');

    const created = await clientOf(owner).POST('/api/v1/agents', { body: { name: 'created once', type: 'type_b' } });

    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('idempotent-replayed')).toBe('true');
    const agent = created.data?.data;
    expect(agent).toMatchObject({ name: 'created once', type: 'type_b', status: 'idle' });
    expect(created.response.headers.get('location')).toBe(`/api/v1/agents/${agent?.id}`);
    expect(retries).toEqual([expect.objectContaining({ method: 'POST', attempt: 1, cause: { error: expect.anything() } })]);

    const [lost, replayed, ...more] = exchangesOf('POST', /^\/api\/v1\/agents$/);
    expect(more).toEqual([]);
    expect(lost).toMatchObject({ status: 201, dropped: true });
    expect(lost?.responseHeaders['idempotent-replayed']).toBeUndefined();
    expect(replayed).toMatchObject({ status: 201, dropped: false });
    expect(replayed?.responseHeaders['idempotent-replayed']).toBe('true');
    const key = lost?.requestHeaders['idempotency-key'];
    expect(key).toEqual(expect.stringMatching(/^[\x21-\x7e]{1,255}$/));
    expect(replayed?.requestHeaders['idempotency-key']).toBe(key);
    // The lost answer and the replay are the same agent, which the client got.
    expect(JSON.parse(lost?.body ?? '{}').data.id).toBe(agent?.id);
    expect(JSON.parse(replayed?.body ?? '{}').data).toEqual(agent);

    const listed = await owner.http.get('/api/v1/agents').query({ limit: 100 }).expect(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: agent?.id, name: 'created once' })]);
  });

  it('when a worker\'s claim takes a lease and its answer is lost, then the retry is answered the same lease: one lease, one attempt, the handler runs once', async () => {
    const owner = await get().signUp();
    const agent = (await owner.http.post('/api/v1/agents').send({ name: 'worked', type: 'type_a' }).expect(201)).body.data as { id: string };
    const taskId = ((await owner.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'claimed once', input: { n: 7 } }).expect(201)).body.data as { id: string }).id;
    const leasesPath = new RegExp(`^/api/v1/agents/${agent.id}/leases$`);
    proxy.dropNext((req) => req.method === 'POST' && leasesPath.test(req.url ?? ''));

    const handled: Task[] = [];
    const workerEvents: WorkerEvent[] = [];
    worker = createWorker(clientOf(owner), {
      agentId: agent.id,
      handler: (task) => {
        handled.push(task);
        return { square: 49 };
      },
      ttlSeconds: 30,
      waitSeconds: 1,
      onEvent: (event) => workerEvents.push(event),
    }).start();

    const readTask = async () => (await owner.http.get(`/api/v1/agents/${agent.id}/tasks/${taskId}`).expect(200)).body.data as Record<string, unknown>;
    const deadline = Date.now() + 10_000;
    while ((await readTask())['status'] !== 'succeeded') {
      if (Date.now() > deadline) throw new Error(`the task was not worked; the worker's events: ${JSON.stringify(workerEvents)}`);
      await delay(50);
    }
    await worker.stop();

    const [lost, replayed] = exchangesOf('POST', leasesPath);
    expect(lost).toMatchObject({ status: 201, dropped: true });
    expect(replayed).toMatchObject({ status: 201, dropped: false });
    expect(replayed?.responseHeaders['idempotent-replayed']).toBe('true');
    expect(replayed?.requestHeaders['idempotency-key']).toEqual(expect.any(String));
    expect(replayed?.requestHeaders['idempotency-key']).toBe(lost?.requestHeaders['idempotency-key']);
    const lease = JSON.parse(lost?.body ?? '{}').data as { id: string; task_id: string };
    expect(JSON.parse(replayed?.body ?? '{}').data).toMatchObject({ id: lease.id, task_id: taskId });
    // Later claims (the queue is empty now) carried keys of their own.
    for (const later of exchangesOf('POST', leasesPath).slice(2)) expect(later.requestHeaders['idempotency-key']).not.toBe(lost?.requestHeaders['idempotency-key']);

    expect(handled.map((task) => task.id)).toEqual([taskId]);
    expect(workerEvents.filter((event) => event.type === 'claimed')).toEqual([{ type: 'claimed', lease: expect.objectContaining({ id: lease.id }) }]);
    expect(workerEvents.filter((event) => event.type === 'succeeded')).toEqual([{ type: 'succeeded', lease: expect.objectContaining({ id: lease.id }) }]);
    expect(await readTask()).toMatchObject({ status: 'succeeded', attempts: 1, result: { square: 49 }, lease_id: null });
    const leases = await get().database.db('leases').where({ task_id: taskId }).select('id');
    expect(leases.map((row: { id: string }) => row.id)).toEqual([lease.id]);
  });
});
