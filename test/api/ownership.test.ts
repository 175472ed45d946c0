import { describeEachDatabase, TEST_API_KEY, type SignedInUser } from '../support/harness';

const AGENT_NOT_FOUND = { error: 'not_found', message: 'Agent not found', detail: 'Agent not found' };

describeEachDatabase('ownership', (get) => {
  let alice: SignedInUser;
  let bob: SignedInUser;
  let admin: SignedInUser;
  let agent: { id: string; owner_id: string };
  let task: { id: string };

  beforeAll(async () => {
    alice = await get().signUp();
    bob = await get().signUp();
    admin = await get().signUp({ role: 'admin' });
    agent = (await alice.http.post('/agents').send({ name: 'alice-agent', type: 'type_a' }).expect(201)).body;
    task = (await alice.http.post(`/agents/${agent.id}/tasks`).send({ title: 'alice-task' }).expect(201)).body;
  });

  it("when a user creates an agent, then it carries that user's id as owner", () => {
    expect(agent.owner_id).toBe(alice.user.id);
  });

  it("when Bob uses every method on Alice's agent and its tasks, then each answers 404 and nothing changes", async () => {
    const before = (await alice.http.get(`/agents/${agent.id}`).expect(200)).body;
    const taskBefore = (await alice.http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200)).body;
    const attempts = [
      bob.http.get(`/agents/${agent.id}`),
      bob.http.put(`/agents/${agent.id}`).send({ name: 'stolen', type: 'type_b' }),
      bob.http.patch(`/agents/${agent.id}`).send({ status: 'paused' }),
      bob.http.delete(`/agents/${agent.id}`),
      bob.http.get(`/agents/${agent.id}/tasks`),
      bob.http.post(`/agents/${agent.id}/tasks`).send({ title: 'injected' }),
      bob.http.get(`/agents/${agent.id}/tasks/${task.id}`),
      bob.http.patch(`/agents/${agent.id}/tasks/${task.id}`).send({ status: 'cancelled' }),
      bob.http.delete(`/agents/${agent.id}/tasks/${task.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(AGENT_NOT_FOUND);
    }
    await alice.http.get(`/agents/${agent.id}`).expect(200, before);
    await alice.http.get(`/agents/${agent.id}/tasks/${task.id}`).expect(200, taskBefore);
    await alice.http.get(`/agents/${agent.id}/tasks`).expect(200, [taskBefore]);
  });

  it("when Bob lists agents, then Alice's agents are not among them", async () => {
    await bob.http.post('/agents').send({ name: 'bob-agent', type: 'type_a' }).expect(201);
    const listed = (await bob.http.get('/agents?limit=1000').expect(200)).body as Array<{ owner_id: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((a) => a.owner_id === bob.user.id)).toBe(true);
  });

  it("when an admin or an API key reaches Alice's agent, then they may read and change it", async () => {
    await admin.http.get(`/agents/${agent.id}`).expect(200);
    await admin.http.patch(`/agents/${agent.id}/tasks/${task.id}`).send({ priority: 8 }).expect(200);
    const listed = (await admin.http.get('/agents?limit=1000').expect(200)).body.map((a: { id: string }) => a.id);
    expect(listed).toContain(agent.id);
    await get().anonymous.get(`/agents/${agent.id}/tasks`).set('X-API-Key', TEST_API_KEY).expect(200);
    const renamed = await admin.http.put(`/agents/${agent.id}`).send({ name: 'renamed by admin', type: 'type_a' }).expect(200);
    expect(renamed.body.owner_id).toBe(alice.user.id);
  });

  it.each([
    ['owner_id on create', 'post', '/agents', { name: 'x', type: 'type_a', owner_id: 'BOB' }],
    ['owner_id on replace', 'put', '/agents/:id', { name: 'x', type: 'type_a', owner_id: 'BOB' }],
    ['owner_id on patch', 'patch', '/agents/:id', { owner_id: 'BOB' }],
    ['id on patch', 'patch', '/agents/:id', { id: '0190a8f0-0000-7000-8000-000000000000' }],
    ['created_at on patch', 'patch', '/agents/:id', { created_at: '2000-01-01T00:00:00.000Z' }],
    ['status on replace', 'put', '/agents/:id', { name: 'x', type: 'type_a', status: 'error' }],
    ['agent_id on a task patch', 'patch', '/agents/:id/tasks/:task', { agent_id: '0190a8f0-0000-7000-8000-000000000000' }],
    ['finished_at on a task patch', 'patch', '/agents/:id/tasks/:task', { finished_at: '2000-01-01T00:00:00.000Z' }],
  ] as const)('when a body sets %s, then 422 and nothing changes', async (_label, method, template, body) => {
    const before = (await alice.http.get(`/agents/${agent.id}`).expect(200)).body;
    const path = template.replace(':id', agent.id).replace(':task', task.id);
    const res = await alice.http[method](path).send(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('validation_error');
    await alice.http.get(`/agents/${agent.id}`).expect(200, before);
  });

  it("when Alice's account is deleted, then her agents and their tasks go with it", async () => {
    const carol = await get().signUp();
    const own = (await carol.http.post('/agents').send({ name: 'carol-agent', type: 'type_a' }).expect(201)).body;
    await carol.http.post(`/agents/${own.id}/tasks`).send({ title: 't' }).expect(201);
    await get().database.db('users').where({ id: carol.user.id }).delete();
    expect(await get().database.db('agents').where({ id: own.id })).toHaveLength(0);
    expect(await get().database.db('tasks').where({ agent_id: own.id })).toHaveLength(0);
  });
});
