import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgentFleetClient, serializeQuery, type AgentFleetClient } from '../../src/client';
import { describeEachDatabase } from '../support/harness';

describeEachDatabase('the generated typed client', (get) => {
  let server: Server;
  let client: AgentFleetClient;

  beforeAll(async () => {
    server = createServer(get().app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = createAgentFleetClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      headers: { Authorization: `Bearer ${get().user.token}` },
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('when an agent and a task are driven through the client, then every call is typed and succeeds', async () => {
    const created = await client.POST('/agents', { body: { name: 'typed', type: 'type_b' } });
    expect(created.response.status).toBe(201);
    const agent = created.data!;
    expect(agent).toMatchObject({ name: 'typed', type: 'type_b', status: 'idle' });

    const read = await client.GET('/agents/{agent_id}', { params: { path: { agent_id: agent.id } } });
    expect(read.data).toEqual(agent);

    const listed = await client.GET('/agents', { params: { query: { limit: 1000, status: 'idle' } } });
    expect(listed.data?.map((a) => a.id)).toContain(agent.id);

    const task = await client.POST('/agents/{agent_id}/tasks', {
      params: { path: { agent_id: agent.id } },
      body: { title: 'typed task', priority: 7 },
    });
    expect(task.response.status).toBe(201);
    const started = await client.PATCH('/agents/{agent_id}/tasks/{task_id}', {
      params: { path: { agent_id: agent.id, task_id: task.data!.id } },
      body: { status: 'running' },
    });
    expect(started.data?.status).toBe('running');

    const removed = await client.DELETE('/agents/{agent_id}', { params: { path: { agent_id: agent.id } } });
    expect(removed.response.status).toBe(204);
  });

  it('when the service answers an error, then the client exposes the declared error body', async () => {
    const missing = await client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'nope' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ error: 'not_found', message: 'Agent not found', detail: 'Agent not found' });

    const invalid = await client.GET('/agents', { params: { query: { limit: 0 } } });
    expect(invalid.response.status).toBe(422);
    expect(invalid.error).toMatchObject({ error: 'validation_error', details: { fields: [{ field: 'limit', in: 'query' }] } });
  });

  it('when the conventions query language goes through the client, then filter[f][op], fields, sort and cursors arrive as meant', async () => {
    const mine = await get().signUp();
    const own = createAgentFleetClient({ baseUrl: baseUrlOf(server), headers: { Authorization: `Bearer ${mine.token}` } });
    for (const [name, type] of [['gamma', 'type_a'], ['alpha', 'type_b'], ['beta', 'type_a'], ['delta', 'type_c']] as const) {
      expect((await own.POST('/api/v1/agents', { body: { name, type } })).response.status).toBe(201);
    }
    const page = await own.GET('/api/v1/agents', {
      params: { query: { sort: 'name', fields: ['name', 'type'], limit: 1, filter: { type: { in: 'type_a,type_b' }, name: { gte: 'alpha' } } } },
    });
    expect(page.response.status).toBe(200);
    expect(page.data?.data).toEqual([{ id: expect.any(String), name: 'alpha', type: 'type_b' }]);
    expect(page.data?.meta.hasMore).toBe(true);
    const next = await own.GET('/api/v1/agents', {
      params: { query: { sort: 'name', fields: ['name'], limit: 5, cursor: page.data!.meta.nextCursor!, 'filter[type]': { in: 'type_a,type_b' } } },
    });
    expect(next.data?.data.map((agent) => agent.name)).toEqual(['beta', 'gamma']);
    expect(next.data?.meta).toEqual({ nextCursor: null, hasMore: false });

    const refused = await own.GET('/api/v1/agents', { params: { query: { 'filter[name]': { eq: "x' or '1'='1" } } } });
    expect(refused.response.status).toBe(200);
    expect(refused.data?.data).toEqual([]);
  });

  it('when query values are serialised, then arrays are comma-joined and nested objects bracketed and encoded', () => {
    expect(serializeQuery({ fields: ['name', 'type'], filter: { created_at: { gte: '2026-01-01T00:00:00.000Z' } }, limit: 5, skip: undefined })).toBe(
      'fields=name,type&filter[created_at][gte]=2026-01-01T00%3A00%3A00.000Z&limit=5',
    );
    expect(serializeQuery({ filter: { name: { eq: 'a&b=c' } } })).toBe('filter[name][eq]=a%26b%3Dc');
  });
});

function baseUrlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
