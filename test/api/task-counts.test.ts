import { describeEachDatabase, type SignedInUser } from '../support/harness';

type Counts = { queued: number; running: number; succeeded: number; failed: number; cancelled: number };
type Item = { id: string; task_counts?: Counts } & Record<string, unknown>;

const NONE: Counts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };

describeEachDatabase('include=task_counts on agents', (get) => {
  const createAgent = async (owner: SignedInUser, name: string): Promise<Item> =>
    (await owner.http.post('/api/v1/agents').send({ name, type: 'type_a' }).expect(201)).body.data;

  const createTask = async (owner: SignedInUser, agentId: string, title: string): Promise<Item> =>
    (await owner.http.post(`/api/v1/agents/${agentId}/tasks`).send({ title }).expect(201)).body.data;

  /** Moves a new task through `path` of statuses, one PATCH each. */
  const taskThrough = async (owner: SignedInUser, agentId: string, path: string[]): Promise<Item> => {
    const task = await createTask(owner, agentId, `through ${path.join(' ')}`);
    for (const status of path) await owner.http.patch(`/api/v1/agents/${agentId}/tasks/${task.id}`).send({ status }).expect(200);
    return task;
  };

  const countsOf = (data: Item[]): Map<string, Counts | undefined> => new Map(data.map((agent) => [agent.id, agent.task_counts]));

  it('when agents have tasks in several statuses, then the list counts each agent\'s tasks per status, every status named', async () => {
    const owner = await get().signUp();
    const busy = await createAgent(owner, 'busy');
    const quiet = await createAgent(owner, 'quiet');
    const empty = await createAgent(owner, 'empty');
    await createTask(owner, busy.id, 'waiting 1');
    await createTask(owner, busy.id, 'waiting 2');
    await taskThrough(owner, busy.id, ['running']);
    await taskThrough(owner, busy.id, ['running', 'succeeded']);
    await taskThrough(owner, busy.id, ['running', 'succeeded']);
    await taskThrough(owner, busy.id, ['running', 'failed']);
    await taskThrough(owner, busy.id, ['cancelled']);
    await taskThrough(owner, quiet.id, ['cancelled']);
    await createTask(owner, quiet.id, 'waiting');

    const res = await owner.http.get('/api/v1/agents?include=task_counts').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.data).toHaveLength(3);
    const counts = countsOf(res.body.data);
    expect(counts.get(busy.id)).toEqual({ queued: 2, running: 1, succeeded: 2, failed: 1, cancelled: 1 });
    expect(counts.get(quiet.id)).toEqual({ queued: 1, running: 0, succeeded: 0, failed: 0, cancelled: 1 });
    expect(counts.get(empty.id)).toEqual(NONE);
    // Numbers on both databases: PostgreSQL's count(*) is a bigint, which its driver answers as text.
    for (const value of Object.values(counts.get(busy.id) ?? {})) expect(typeof value).toBe('number');
    // Counts do not replace the embedded tasks' include: without it the agent carries no tasks.
    expect(res.body.data[0]).not.toHaveProperty('tasks');
  });

  it('when a page of several agents is counted, then one read of the kept counters counts them all, without scanning their tasks', async () => {
    const owner = await get().signUp();
    for (const name of ['a', 'b', 'c', 'd']) await createTask(owner, (await createAgent(owner, name)).id, `task of ${name}`);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    get().database.db.on('query', record);
    try {
      const res = await owner.http.get('/api/v1/agents?include=task_counts').expect(200);
      expect(res.body.data.map((agent: Item) => agent.task_counts)).toEqual([1, 2, 3, 4].map(() => ({ ...NONE, queued: 1 })));
    } finally {
      get().database.db.off('query', record);
    }
    expect(statements.filter((sql) => /from [`"]tasks[`"]/i.test(sql) && /count\(/i.test(sql))).toEqual([]);
    const counting = statements.filter((sql) => /from [`"]agent_task_counts[`"]/i.test(sql));
    expect(counting).toHaveLength(1);
    expect(counting[0]).toMatch(/[`"]agent_id[`"] in \(\?, \?, \?, \?\)|[`"]agent_id[`"] in \(\$1, \$2, \$3, \$4\)/i);
  });

  it('when an agent has no task, then its single read with include=task_counts names every status with 0', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'idle one');
    const res = await owner.http.get(`/api/v1/agents/${agent.id}?include=task_counts`).expect(200);
    expect(res.body.data).toEqual({ ...agent, task_counts: NONE });
    expect(res.body.meta.timestamp).toEqual(expect.any(String));
  });

  it('when one agent is read with include=task_counts, then it carries its own counts', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'single');
    const other = await createAgent(owner, 'neighbour');
    await taskThrough(owner, agent.id, ['running', 'failed']);
    await createTask(owner, agent.id, 'waiting');
    await taskThrough(owner, other.id, ['cancelled']);
    const res = await owner.http.get(`/api/v1/agents/${agent.id}`).query({ include: 'task_counts' }).expect(200);
    expect(res.body.data.task_counts).toEqual({ queued: 1, running: 0, succeeded: 0, failed: 1, cancelled: 0 });
    expect(res.body.data.id).toBe(agent.id);
  });

  it('when other users have agents with tasks, then they are neither listed nor counted, and their agent reads as missing', async () => {
    const owner = await get().signUp();
    const stranger = await get().signUp();
    const mine = await createAgent(owner, 'mine');
    const theirs = await createAgent(stranger, 'theirs');
    await createTask(owner, mine.id, 'my task');
    await createTask(stranger, theirs.id, 'their task 1');
    await taskThrough(stranger, theirs.id, ['running']);

    const list = await owner.http.get('/api/v1/agents?include=task_counts').expect(200);
    expect(list.body.data.map((agent: Item) => agent.id)).toEqual([mine.id]);
    expect(list.body.data[0].task_counts).toEqual({ ...NONE, queued: 1 });

    const foreign = await owner.http.get(`/api/v1/agents/${theirs.id}?include=task_counts`);
    expect(foreign.status).toBe(404);
    expect(foreign.headers['content-type']).toMatch(/^application\/(problem\+)?json/);
    expect(JSON.stringify(foreign.body)).not.toContain('task_counts');

    const theirList = await stranger.http.get('/api/v1/agents?include=task_counts').expect(200);
    expect(theirList.body.data.map((agent: Item) => [agent.id, agent.task_counts])).toEqual([[theirs.id, { ...NONE, queued: 1, running: 1 }]]);
  });

  it('when fields is asked with include=task_counts, then the agents carry id, the fields named and the counts only', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'sparse');
    await createTask(owner, agent.id, 'waiting');
    const list = await owner.http.get('/api/v1/agents?fields=name,status&include=task_counts').expect(200);
    expect(list.body.data).toEqual([{ id: agent.id, name: 'sparse', status: 'idle', task_counts: { ...NONE, queued: 1 } }]);
    const one = await owner.http.get(`/api/v1/agents/${agent.id}?fields=name&include=task_counts`).expect(200);
    expect(one.body.data).toEqual({ id: agent.id, name: 'sparse', task_counts: { ...NONE, queued: 1 } });
    // Without the include, fields alone adds no counts.
    const plain = await owner.http.get(`/api/v1/agents/${agent.id}?fields=name`).expect(200);
    expect(plain.body.data).toEqual({ id: agent.id, name: 'sparse' });
  });

  it('when a task changes status, then the agent\'s ETag with include=task_counts changes and If-None-Match answers 200 with the new counts', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'tagged');
    const task = await createTask(owner, agent.id, 'to cancel');
    const path = `/api/v1/agents/${agent.id}?include=task_counts`;

    const before = await owner.http.get(path).expect(200);
    const etag = before.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(before.headers['cache-control']).toBe('private, no-cache');
    const unchanged = await owner.http.get(path).set('If-None-Match', etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.etag).toBe(etag);

    // Cancelling a queued task leaves the agent's own row (and its updated_at) as it was: only the counts move.
    await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${task.id}`).send({ status: 'cancelled' }).expect(200);
    const after = await owner.http.get(path).set('If-None-Match', etag);
    expect(after.status).toBe(200);
    expect(after.body.data.updated_at).toBe(agent.updated_at);
    expect(after.body.data.task_counts).toEqual({ ...NONE, cancelled: 1 });
    expect(after.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(after.headers.etag).not.toBe(etag);
    // Without the include the agent's own version decides, and it did not move.
    const bare = await owner.http.get(`/api/v1/agents/${agent.id}`).expect(200);
    await owner.http.get(`/api/v1/agents/${agent.id}`).set('If-None-Match', bare.headers.etag as string).expect(304);
  });

  it('when a task changes status, then the list\'s ETag with include=task_counts changes too', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'listed');
    const task = await createTask(owner, agent.id, 'to start');
    const path = '/api/v1/agents?include=task_counts';
    const before = await owner.http.get(path).expect(200);
    const etag = before.headers.etag as string;
    await owner.http.get(path).set('If-None-Match', etag).expect(304);

    await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${task.id}`).send({ status: 'running' }).expect(200);
    const after = await owner.http.get(path).set('If-None-Match', etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body.data[0].task_counts).toEqual({ ...NONE, running: 1 });
  });

  it('when include embeds counts, then no Last-Modified is sent, and If-Modified-Since alone never answers stale counts with 304', async () => {
    const owner = await get().signUp();
    const agent = await createAgent(owner, 'dated');
    const task = await createTask(owner, agent.id, 'to cancel');
    const bare = await owner.http.get(`/api/v1/agents/${agent.id}`).expect(200);
    expect(bare.headers['last-modified']).toEqual(expect.any(String));
    const since = new Date(Date.now() + 60_000).toUTCString();

    for (const path of [`/api/v1/agents/${agent.id}?include=task_counts`, '/api/v1/agents?include=task_counts']) {
      const before = await owner.http.get(path).expect(200);
      expect(before.headers['last-modified']).toBeUndefined();
    }
    await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${task.id}`).send({ status: 'cancelled' }).expect(200);
    const after = await owner.http.get(`/api/v1/agents/${agent.id}?include=task_counts`).set('If-Modified-Since', since).expect(200);
    expect(after.body.data.task_counts).toEqual({ ...NONE, cancelled: 1 });
    // The agent alone still answers 304 to a date after its last change.
    await owner.http.get(`/api/v1/agents/${agent.id}`).set('If-Modified-Since', since).expect(304);
  });

  it('when include names something else, then 400 says which parameter', async () => {
    const res = await get().http.get('/api/v1/agents?include=task_count');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('include');
  });
});
