import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgentFleetClient, type AgentFleetClient } from '../../generated/client';
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
});
