import { ConfigError, loadConfig } from '../../src/config/config';
import { taskBytes } from '../../src/domain/quotas';
import { describeEachDatabase, TEST_API_KEY, type TestApp } from '../support/harness';

type Answer = { status: number; body: any };
type Caller = (method: string, path: string, body?: unknown) => Promise<Answer>;

const QUOTAS = { agentsPerUser: 3, tasksPerAgent: 4, storedBytesPerUser: 200_000 };
/** An input of `bytes` bytes as JSON. */
const payloadOf = (bytes: number) => ({ blob: 'x'.repeat(bytes - '{"blob":""}'.length) });

function callerFor(base: string, credential: Record<string, string>): Caller {
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...credential, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** What the database holds for a user, summed the slow way, next to the running counters. */
async function storedBytesOf(app: TestApp, userId: string) {
  const db = app.database.db;
  const counter = Number((await db('users').where({ id: userId }).first('stored_bytes')).stored_bytes);
  const tasks = await db('tasks').join('agents', 'agents.id', 'tasks.agent_id').where('agents.owner_id', userId).sum({ n: 'tasks.stored_bytes' }).first();
  const posts = await db('posts').where({ user_id: userId }).sum({ n: 'stored_bytes' }).first();
  const agents = await db('agents').where({ owner_id: userId }).select('id', 'stored_bytes');
  const perAgent = await Promise.all(
    agents.map(async (agent: { id: string; stored_bytes: unknown }) => ({
      counter: Number(agent.stored_bytes),
      sum: Number((await db('tasks').where({ agent_id: agent.id }).sum({ n: 'stored_bytes' }).first())?.n ?? 0),
    })),
  );
  return { counter, sum: Number(tasks?.n ?? 0) + Number(posts?.n ?? 0), perAgent };
}

/** Per-user and per-agent quotas (OWASP API4): 409 in each surface's shape, nothing half-written. */
describeEachDatabase('quotas', (get, kind) => {
  let base: string;
  beforeAll(async () => {
    base = await get().listen();
  });
  const signedIn = async () => {
    const user = await get().signUp();
    return { user, call: callerFor(base, { authorization: `Bearer ${user.token}` }) };
  };
  const agentCount = async (ownerId: string) => Number((await get().database.db('agents').where({ owner_id: ownerId }).count({ n: '*' }).first())?.n);
  const taskCount = async (agentId: string) => Number((await get().database.db('tasks').where({ agent_id: agentId }).count({ n: '*' }).first())?.n);

  it('when a user owns as many agents as the quota allows, then one more is 409 quota_exceeded on the root surface and QUOTA_EXCEEDED on /api/v1, and nothing is written', async () => {
    const { user, call } = await signedIn();
    for (let i = 0; i < 3; i++) expect((await call('POST', i % 2 ? '/agents' : '/api/v1/agents', { name: `a${i}`, type: 'type_a' })).status).toBe(201);

    const root = await call('POST', '/agents', { name: 'one too many', type: 'type_a' });
    expect(root).toEqual({
      status: 409,
      body: {
        error: 'quota_exceeded',
        message: 'Quota exceeded: a user owns at most 3 agents',
        details: { quota: 'agents_per_user', limit: 3, usage: 3 },
      },
    });
    const v1 = await call('POST', '/api/v1/agents', { name: 'one too many', type: 'type_a' });
    expect(v1).toEqual({
      status: 409,
      body: {
        error: {
          code: 'QUOTA_EXCEEDED',
          message: 'Quota exceeded: a user owns at most 3 agents',
          details: { quota: 'agents_per_user', limit: 3, usage: 3 },
          requestId: expect.any(String),
        },
      },
    });
    expect(await agentCount(user.user.id)).toBe(3);

    // Deleting one makes room again.
    const mine = await call('GET', '/agents');
    expect((await call('DELETE', `/agents/${mine.body[0].id}`)).status).toBe(204);
    expect((await call('POST', '/agents', { name: 'in its place', type: 'type_a' })).status).toBe(201);
  });

  it('when an API key creates agents, then no per-user quota applies to them, but the tasks-per-agent quota does', async () => {
    const service = callerFor(base, { 'x-api-key': TEST_API_KEY });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await service('POST', '/agents', { name: `service ${i}`, type: 'type_c' });
      expect(res.status).toBe(201);
      expect(res.body.owner_id).toBeNull();
      created.push(res.body.id);
    }
    const agent = created[0] as string;
    for (let i = 0; i < 4; i++) expect((await service('POST', `/agents/${agent}/tasks`, { title: `t${i}`, input: payloadOf(60_000) })).status).toBe(201);
    const refused = await service('POST', `/api/v1/agents/${agent}/tasks`, { title: 'fifth' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'tasks_per_agent', limit: 4, usage: 4 } });
  });

  it('when an agent holds as many tasks as the quota allows, then one more is 409 on both surfaces and nothing is written; a deletion makes room', async () => {
    const { call } = await signedIn();
    const agent = (await call('POST', '/agents', { name: 'busy', type: 'type_b' })).body.id;
    const tasks: string[] = [];
    for (let i = 0; i < 4; i++) tasks.push((await call('POST', `/api/v1/agents/${agent}/tasks`, { title: `t${i}` })).body.data.id);

    const root = await call('POST', `/agents/${agent}/tasks`, { title: 'fifth' });
    expect(root).toEqual({
      status: 409,
      body: { error: 'quota_exceeded', message: 'Quota exceeded: an agent holds at most 4 tasks', details: { quota: 'tasks_per_agent', limit: 4, usage: 4 } },
    });
    const v1 = await call('POST', `/api/v1/agents/${agent}/tasks`, { title: 'fifth' });
    expect(v1.status).toBe(409);
    expect(v1.body).toEqual({
      error: { code: 'QUOTA_EXCEEDED', message: 'Quota exceeded: an agent holds at most 4 tasks', details: { quota: 'tasks_per_agent', limit: 4, usage: 4 }, requestId: expect.any(String) },
    });
    expect(await taskCount(agent)).toBe(4);

    expect((await call('DELETE', `/agents/${agent}/tasks/${tasks[0]}`)).status).toBe(204);
    expect((await call('POST', `/agents/${agent}/tasks`, { title: 'in its place' })).status).toBe(201);
  });

  it('when a write would store more bytes than the owner may, then 409 names the quota, limit, usage and bytes requested, and nothing is written', async () => {
    const { user, call } = await signedIn();
    const agents: string[] = [];
    for (let i = 0; i < 2; i++) agents.push((await call('POST', '/agents', { name: `store ${i}`, type: 'type_a' })).body.id);
    const [first, second] = agents as [string, string];
    // Three 60,000-byte inputs (plus their titles) fit under 200,000 bytes; a fourth does not.
    for (let i = 0; i < 3; i++) expect((await call('POST', `/agents/${i < 2 ? first : second}/tasks`, { title: 'load', input: payloadOf(60_000) })).status).toBe(201);
    const usage = (await storedBytesOf(get(), user.user.id)).counter;
    expect(usage).toBe(3 * (60_000 + JSON.stringify('load').length));

    const requested = 60_000 + JSON.stringify('load').length;
    const root = await call('POST', `/agents/${second}/tasks`, { title: 'load', input: payloadOf(60_000) });
    expect(root).toEqual({
      status: 409,
      body: {
        error: 'quota_exceeded',
        message: `Quota exceeded: the owner stores ${usage} of 200000 bytes and this write needs ${requested} more`,
        details: { quota: 'stored_bytes_per_user', limit: 200_000, usage, requested },
      },
    });
    const v1 = await call('POST', `/api/v1/agents/${second}/tasks`, { title: 'load', input: payloadOf(60_000) });
    expect(v1.status).toBe(409);
    expect(v1.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'stored_bytes_per_user', limit: 200_000, usage, requested } });
    expect(await taskCount(second)).toBe(1);

    // A result that would go beyond the quota: the task stays running, without it.
    const small = (await call('POST', `/agents/${second}/tasks`, { title: 'tiny' })).body;
    expect((await call('PATCH', `/agents/${second}/tasks/${small.id}`, { status: 'running' })).status).toBe(200);
    const finish = await call('PATCH', `/api/v1/agents/${second}/tasks/${small.id}`, { status: 'succeeded', result: payloadOf(60_000) });
    expect(finish.status).toBe(409);
    expect(finish.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'stored_bytes_per_user', limit: 200_000, requested: 60_000 } });
    const after = await call('GET', `/agents/${second}/tasks/${small.id}`);
    expect(after.body).toMatchObject({ status: 'running', result: null, finished_at: null });
    expect((await call('GET', `/agents/${second}`)).body.status).toBe('running');

    // So would a post.
    const post = await call('POST', `/api/v1/users/${user.user.id}/posts`, { title: 'long', body: 'p'.repeat(30_000) });
    expect(post.status).toBe(409);
    expect(post.body.error.details).toMatchObject({ quota: 'stored_bytes_per_user' });
    expect(await get().database.db('posts').where({ user_id: user.user.id }).first()).toBeUndefined();

    const totals = await storedBytesOf(get(), user.user.id);
    expect(totals.counter).toBe(totals.sum);
    // Deleting an agent gives back what all its tasks stored.
    expect((await call('DELETE', `/api/v1/agents/${first}`)).status).toBe(204);
    expect((await storedBytesOf(get(), user.user.id)).counter).toBe(totals.counter - 2 * requested);
  });

  it('when many creations race for the last places, then exactly the quota is granted and the rest are 409', async () => {
    const { user, call } = await signedIn();
    const agents = await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', i % 2 ? '/agents' : '/api/v1/agents', { name: `race ${i}`, type: 'type_a' })));
    expect(agents.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await agentCount(user.user.id)).toBe(3);

    const agent = (agents.find((res) => res.status === 201)?.body.data ?? agents.find((res) => res.status === 201)?.body).id as string;
    const tasks = await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', `/agents/${agent}/tasks`, { title: `race ${i}` })));
    expect(tasks.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 409, 409, 409, 409, 409, 409]);
    expect(await taskCount(agent)).toBe(4);
  });

  it('when large writes race for the last bytes, then the stored bytes never pass the quota', async () => {
    const { user, call } = await signedIn();
    const agents: string[] = [];
    for (let i = 0; i < 3; i++) agents.push((await call('POST', '/agents', { name: `bytes ${i}`, type: 'type_a' })).body.id);
    const writes = await Promise.all(
      Array.from({ length: 9 }, (_, i) => call('POST', `/agents/${agents[i % 3]}/tasks`, { title: 'load', input: payloadOf(60_000) })),
    );
    expect(writes.filter((res) => res.status === 201)).toHaveLength(3);
    expect(writes.filter((res) => res.status === 409).every((res) => res.body.details.quota === 'stored_bytes_per_user')).toBe(true);
    const totals = await storedBytesOf(get(), user.user.id);
    expect(totals.counter).toBeLessThanOrEqual(200_000);
    expect(totals.counter).toBe(totals.sum);
  });

  it(`when task writes race the deletion of their owner [${kind}], then each answers 201, 401 or 404 (no deadlock, no 5xx) and nothing is left behind`, async () => {
    const { user, call } = await signedIn();
    const agent = (await call('POST', '/agents', { name: 'doomed', type: 'type_a' })).body.id;
    const admin = await get().signUp({ role: 'admin' });
    const writes = Array.from({ length: 4 }, (_, i) => call('POST', `/agents/${agent}/tasks`, { title: `w${i}`, input: payloadOf(1000) }));
    const deletion = callerFor(base, { authorization: `Bearer ${admin.token}` })('DELETE', `/api/v1/users/${user.user.id}`);
    const statuses = (await Promise.all([...writes, deletion])).map((res) => res.status);
    expect(statuses.at(-1)).toBe(204);
    for (const status of statuses.slice(0, -1)) expect([201, 401, 404]).toContain(status);
    expect(await get().database.db('agents').where({ id: agent }).first()).toBeUndefined();
    expect(await get().database.db('tasks').where({ agent_id: agent }).first()).toBeUndefined();
  });
}, { quotas: QUOTAS });

describeEachDatabase('stored bytes stay exact', (get) => {
  it('when tasks and posts are created, changed, finished and deleted, then the running counters equal the real sums', async () => {
    const base = await get().listen();
    const user = await get().signUp();
    const call = callerFor(base, { authorization: `Bearer ${user.token}` });
    const check = async () => {
      const totals = await storedBytesOf(get(), user.user.id);
      expect(totals.counter).toBe(totals.sum);
      for (const agent of totals.perAgent) expect(agent.counter).toBe(agent.sum);
      return totals.counter;
    };

    const a = (await call('POST', '/agents', { name: 'a', type: 'type_a' })).body.id;
    const b = (await call('POST', '/api/v1/agents', { name: 'b', type: 'type_b' })).body.data.id;
    const t1 = (await call('POST', `/agents/${a}/tasks`, { title: 'one', description: 'déjà vu "quoted"\n', input: { list: [1, 'two', null], emoji: '😀' } })).body;
    const t2 = (await call('POST', `/agents/${a}/tasks`, { title: 'two' })).body;
    const t3 = (await call('POST', `/api/v1/agents/${b}/tasks`, { title: 'three', input: payloadOf(5000) })).body.data;
    await check();

    expect((await call('PATCH', `/agents/${a}/tasks/${t2.id}`, { title: 'two, renamed at length', description: 'now described' })).status).toBe(200);
    expect((await call('PATCH', `/agents/${a}/tasks/${t1.id}`, { status: 'running' })).status).toBe(200);
    expect((await call('PATCH', `/agents/${a}/tasks/${t1.id}`, { status: 'succeeded', result: { answer: 42, text: 'x'.repeat(3000) } })).status).toBe(200);
    expect((await call('PATCH', `/agents/${b}/tasks/${t3.id}`, { status: 'running' })).status).toBe(200);
    expect((await call('PATCH', `/agents/${b}/tasks/${t3.id}`, { status: 'failed', error: 'it broke: ' + 'e'.repeat(500) })).status).toBe(200);
    expect((await call('POST', `/api/v1/users/${user.user.id}/posts`, { title: 'hello', body: 'b'.repeat(2000) })).status).toBe(201);
    await check();

    // Each task's own figure is what it holds, measured as JSON.
    for (const [agent, task] of [[a, t1.id], [a, t2.id], [b, t3.id]] as const) {
      const read = (await call('GET', `/agents/${agent}/tasks/${task}`)).body;
      const row = await get().database.db('tasks').where({ id: task }).first('stored_bytes');
      expect(Number(row.stored_bytes)).toBe(taskBytes(read));
    }

    expect((await call('DELETE', `/agents/${a}/tasks/${t2.id}`)).status).toBe(204);
    await check();
    expect((await call('DELETE', `/agents/${a}`)).status).toBe(204);
    const left = await check();
    expect(left).toBe(taskBytes((await call('GET', `/agents/${b}/tasks/${t3.id}`)).body) + JSON.stringify('hello').length + 2002);
    expect((await call('DELETE', `/api/v1/agents/${b}`)).status).toBe(204);
    expect(await check()).toBe(JSON.stringify('hello').length + 2002);
  });
});

describe('quota and budget configuration', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('when nothing is set, then 1000 agents per user, 10,000 tasks per agent, 100 MiB per user and a 4 MiB response budget apply', () => {
    expect(loadConfig({})).toMatchObject({
      maxResponseBytes: 4 * 1024 * 1024,
      quotas: { agentsPerUser: 1000, tasksPerAgent: 10_000, storedBytesPerUser: 100 * 1024 * 1024 },
    });
  });

  it('when a quota is 0, then it is off', () => {
    expect(loadConfig({ QUOTA_AGENTS_PER_USER: '0', QUOTA_TASKS_PER_AGENT: '0', QUOTA_STORED_BYTES_PER_USER: '0' }).quotas).toEqual({
      agentsPerUser: 0,
      tasksPerAgent: 0,
      storedBytesPerUser: 0,
    });
  });

  it.each([
    ['QUOTA_AGENTS_PER_USER', '-1', 'QUOTA_AGENTS_PER_USER must be an integer from 0 to 10000000 (got "-1")'],
    ['QUOTA_TASKS_PER_AGENT', 'lots', 'QUOTA_TASKS_PER_AGENT must be an integer from 0 to 100000000 (got "lots")'],
    ['QUOTA_STORED_BYTES_PER_USER', '1.5', 'QUOTA_STORED_BYTES_PER_USER must be an integer from 0 to 1099511627776 (got "1.5")'],
    ['MAX_RESPONSE_BYTES', '1048576', 'MAX_RESPONSE_BYTES must be an integer from 2097152 to 1073741824 (got "1048576")'],
  ])('when %s=%s, then the start is refused naming it', (name, value, message) => {
    expect(problemsOf({ [name]: value })).toEqual([message]);
  });
});
