import { describeEachDatabase } from '../support/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDatabase('agents', (get) => {
  const createAgent = async (body: object = { name: 'agent', type: 'type_a' }) =>
    (await get().http.post('/agents').send(body).expect(201)).body;

  describe('create', () => {
    it('when a valid agent is posted, then it is stored idle with a UUIDv7 id, ISO timestamps and a Location', async () => {
      const res = await get().http.post('/agents').send({ name: 'scout', type: 'type_b' });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        owner_id: get().user.user.id,
        // Created without a workspace_id, it lands in its creator's personal workspace (whose id is the user's).
        workspace_id: get().user.user.id,
        name: 'scout',
        type: 'type_b',
        status: 'idle',
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
        max_concurrency: null,
      });
      expect(res.headers.location).toBe(`/agents/${res.body.id}`);
      await get().http.get(`/agents/${res.body.id}`).expect(200, res.body);
    });

    it.each([
      ['100 multi-byte characters', 'é'.repeat(100)],
      ['100 emoji', '😀'.repeat(100)],
      ['100 CJK characters', '漢'.repeat(100)],
      ['1 character', 'x'],
    ])('when the name is %s, then it is accepted and returned unchanged', async (_label, name) => {
      const agent = await createAgent({ name, type: 'type_c' });
      expect(agent.name).toBe(name);
      expect((await get().http.get(`/agents/${agent.id}`).expect(200)).body.name).toBe(name);
    });

    it.each([
      ['an empty name', { name: '', type: 'type_a' }, 'name'],
      ['a 101-character name', { name: 'x'.repeat(101), type: 'type_a' }, 'name'],
      ['101 emoji', { name: '😀'.repeat(101), type: 'type_a' }, 'name'],
      ['a blank name', { name: '   ', type: 'type_a' }, 'name'],
      ['an unknown type', { name: 'a', type: 'type_d' }, 'type'],
      ['a missing name', { type: 'type_a' }, 'name'],
      ['a missing type', { name: 'a' }, 'type'],
      ['an unknown field', { name: 'a', type: 'type_a', colour: 'red' }, 'colour'],
      ['a client-chosen id', { name: 'a', type: 'type_a', id: '01a20387-6fc2-730e-b42b-1de316f91e5e' }, 'id'],
      ['a client-chosen status', { name: 'a', type: 'type_a', status: 'running' }, 'status'],
      ['a number as name', { name: 42, type: 'type_a' }, 'name'],
      ['null as type', { name: 'a', type: null }, 'type'],
      ['an array as name', { name: ['a'], type: 'type_a' }, 'name'],
    ])('when the body has %s, then 422 names the field and nothing is stored', async (_label, body, field) => {
      const before = (await get().http.get('/agents?limit=1000').expect(200)).body.length;
      const res = await get().http.post('/agents').send(body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'validation_error', message: 'Request validation failed' });
      expect(res.body.details.fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, in: 'body', message: expect.any(String) })]),
      );
      expect((await get().http.get('/agents?limit=1000').expect(200)).body.length).toBe(before);
    });

    it('when the body is an array, then 422', async () => {
      const res = await get().http.post('/agents').send([{ name: 'a', type: 'type_a' }]);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_error');
    });

    it('when the JSON is malformed, then 400 validation_error', async () => {
      const res = await get().http.post('/agents').set('Content-Type', 'application/json').send('{"name": "a",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'validation_error', message: 'Malformed JSON in request body' });
    });

    it('when the body is text/plain, then 415', async () => {
      const res = await get().http.post('/agents').set('Content-Type', 'text/plain').send('name=a');
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
    });

    it('when there is no body at all, then 4xx and never 5xx', async () => {
      const res = await get().http.post('/agents');
      expect([415, 422]).toContain(res.status);
      expect(res.body.error).toEqual(expect.any(String));
    });

    it('when the body exceeds the size limit, then 413 payload_too_large', async () => {
      const res = await get().http.post('/agents').send({ name: 'a', type: 'type_a', pad: 'x'.repeat(2 * 1024 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    });

    it('when 50 agents are created concurrently, then all 50 are stored with distinct ids', async () => {
      const marker = `concurrent-${Date.now()}`;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => get().http.post('/agents').send({ name: `${marker}-${i}`, type: 'type_a' })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
      expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
      const all = (await get().http.get('/agents?limit=1000').expect(200)).body as Array<{ name: string }>;
      expect(all.filter((a) => a.name.startsWith(marker))).toHaveLength(50);
    });
  });

  describe('routing', () => {
    it('when a route does not exist, then a JSON 404; when the method is wrong, then 405 with Allow', async () => {
      const missing = await get().http.get('/nowhere/at/all');
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toMatch(/application\/json/);
      expect(missing.body).toEqual({ error: 'not_found', message: 'Not Found', detail: 'Not Found' });
      const wrong = await get().http.delete('/agents');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.allow).toMatch(/GET/);
      expect(wrong.headers.allow).toMatch(/POST/);
      expect(wrong.body).toEqual({ error: 'method_not_allowed', message: expect.any(String) });
    });
  });

  describe('list', () => {
    it('when agents are listed with skip and limit, then pages are in creation order without overlap', async () => {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await createAgent({ name: `page-${i}`, type: 'type_a' })).id);
      const all = (await get().http.get('/agents?limit=1000').expect(200)).body.map((a: { id: string }) => a.id);
      const start = all.indexOf(ids[0]);
      expect(all.slice(start, start + 5)).toEqual(ids);
      const page = await get().http.get(`/agents?skip=${start + 1}&limit=2`).expect(200);
      expect(page.body.map((a: { id: string }) => a.id)).toEqual(ids.slice(1, 3));
    });

    it('when no limit is given, then at most 100 agents are returned', async () => {
      const res = await get().http.get('/agents').expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.length).toBeLessThanOrEqual(100);
    });

    it('when filtered by status, then only agents with that status are returned', async () => {
      const paused = await createAgent({ name: 'to-pause', type: 'type_a' });
      await get().http.patch(`/agents/${paused.id}`).send({ status: 'paused' }).expect(200);
      const res = await get().http.get('/agents?status=paused&limit=1000').expect(200);
      expect(res.body.length).toBeGreaterThan(0);
      expect(res.body.every((a: { status: string }) => a.status === 'paused')).toBe(true);
      expect(res.body.map((a: { id: string }) => a.id)).toContain(paused.id);
    });

    it('when skip is past the end, then the list is empty', async () => {
      await get().http.get('/agents?skip=2000000000').expect(200, []);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['skip=-1', 'skip'],
      ['skip=99999999999999999999', 'skip'],
      ['status=sleeping', 'status'],
      ['colour=red', 'colour'],
    ])('when the query has %s, then 422 names the parameter', async (query, field) => {
      const res = await get().http.get(`/agents?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.details.fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, in: 'query' })]),
      );
    });
  });

  describe('read, replace, update, delete', () => {
    it.each([
      ['a random UUID', '0190a8f0-0000-7000-8000-000000000000'],
      ['a non-UUID id', 'not-a-uuid'],
      ['a numeric id', '12345'],
      ['an SQL-looking id', "1' OR '1'='1"],
    ])('when the agent id is %s, then every method answers 404 Agent not found', async (_label, id) => {
      const path = `/agents/${encodeURIComponent(id)}`;
      const expected = { error: 'not_found', message: 'Agent not found', detail: 'Agent not found' };
      await get().http.get(path).expect(404, expected);
      await get().http.put(path).send({ name: 'a', type: 'type_a' }).expect(404, expected);
      await get().http.patch(path).send({ name: 'a' }).expect(404, expected);
      await get().http.delete(path).expect(404, expected);
      await get().http.get(`${path}/tasks`).expect(404, expected);
      await get().http.post(`${path}/tasks`).send({ title: 't' }).expect(404, expected);
    });

    it('when an agent is replaced, then name and type change and status and created_at stay', async () => {
      const agent = await createAgent({ name: 'old', type: 'type_a' });
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      const res = await get().http.put(`/agents/${agent.id}`).send({ name: 'new', type: 'type_c' }).expect(200);
      expect(res.body).toMatchObject({ id: agent.id, name: 'new', type: 'type_c', status: 'paused', created_at: agent.created_at });
      expect(res.body.updated_at >= agent.updated_at).toBe(true);
    });

    it('when a replacement is partial or carries a status, then 422 and nothing changes', async () => {
      const agent = await createAgent({ name: 'keep', type: 'type_a' });
      await get().http.put(`/agents/${agent.id}`).send({ name: 'only-name' }).expect(422);
      await get().http.put(`/agents/${agent.id}`).send({ name: 'x', type: 'type_b', status: 'error' }).expect(422);
      await get().http.get(`/agents/${agent.id}`).expect(200, agent);
    });

    it('when an agent is patched, then only the given fields change', async () => {
      const agent = await createAgent({ name: 'before', type: 'type_a' });
      const res = await get().http.patch(`/agents/${agent.id}`).send({ name: 'after' }).expect(200);
      expect(res.body).toMatchObject({ name: 'after', type: 'type_a', status: 'idle' });
    });

    it('when a patch is empty or has unknown fields, then 422', async () => {
      const agent = await createAgent();
      await get().http.patch(`/agents/${agent.id}`).send({}).expect(422);
      const res = await get().http.patch(`/agents/${agent.id}`).send({ owner: 'me' }).expect(422);
      expect(res.body.details.fields).toEqual([expect.objectContaining({ field: 'owner', in: 'body' })]);
    });

    it('when an agent is deleted, then it and its tasks are gone', async () => {
      const agent = await createAgent();
      const task = (await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 't' }).expect(201)).body;
      const res = await get().http.delete(`/agents/${agent.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await get().http.get(`/agents/${agent.id}`).expect(404);
      await get().http.delete(`/agents/${agent.id}`).expect(404);
      const rows = await get().database.db('tasks').where({ id: task.id });
      expect(rows).toHaveLength(0);
    });
  });

  describe('status transitions', () => {
    type Status = 'idle' | 'running' | 'paused' | 'error';
    /** Brings a fresh agent to `status` the way clients do: running needs a started task. */
    const agentIn = async (status: Status) => {
      const agent = await createAgent();
      if (status === 'running') {
        const task = (await get().http.post(`/agents/${agent.id}/tasks`).send({ title: 'work' }).expect(201)).body;
        await get().http.patch(`/agents/${agent.id}/tasks/${task.id}`).send({ status: 'running' }).expect(200);
      } else if (status !== 'idle') {
        await get().http.patch(`/agents/${agent.id}`).send({ status }).expect(200);
      }
      return (await get().http.get(`/agents/${agent.id}`).expect(200)).body as { id: string; status: Status };
    };

    it.each([
      ['idle', 'paused'],
      ['idle', 'error'],
      ['running', 'paused'],
      ['running', 'error'],
      ['paused', 'idle'],
      ['error', 'paused'],
      ['error', 'idle'],
    ] as Array<[Status, Status]>)('when an operator moves %s to %s, then it is allowed', async (from, to) => {
      const agent = await agentIn(from);
      expect(agent.status).toBe(from);
      const res = await get().http.patch(`/agents/${agent.id}`).send({ status: to });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(to);
    });

    it.each([
      ['idle', 'running'],
      ['paused', 'running'],
      ['paused', 'error'],
      ['error', 'running'],
    ] as Array<[Status, Status]>)('when an operator moves %s to %s, then 409 state_conflict and nothing changes', async (from, to) => {
      const agent = await agentIn(from);
      const res = await get().http.patch(`/agents/${agent.id}`).send({ status: to, name: 'renamed' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'state_conflict',
        message: `Cannot change agent status from ${from} to ${to}`,
        details: { from, to },
      });
      const after = (await get().http.get(`/agents/${agent.id}`).expect(200)).body;
      expect(after).toMatchObject({ status: from, name: 'agent' });
    });

    it('when an operator asks for the status the agent has, then nothing changes and 200', async () => {
      const agent = await agentIn('paused');
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
    });

    it('when a paused agent with a running task is resumed, then it is running', async () => {
      const agent = await agentIn('running');
      await get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      const res = await get().http.patch(`/agents/${agent.id}`).send({ status: 'idle' }).expect(200);
      expect(res.body.status).toBe('running');
    });

    it('when two operators race to pause and flag an idle agent, then the end state is a legal one', async () => {
      const agent = await agentIn('idle');
      const [a, b] = await Promise.all([
        get().http.patch(`/agents/${agent.id}`).send({ status: 'paused' }),
        get().http.patch(`/agents/${agent.id}`).send({ status: 'error' }),
      ]);
      const statuses = [a.status, b.status].sort();
      // paused then error is illegal; error then paused is legal: one or both may win, never a 5xx.
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      const final = (await get().http.get(`/agents/${agent.id}`).expect(200)).body.status;
      expect(['paused', 'error']).toContain(final);
    });
  });
});
