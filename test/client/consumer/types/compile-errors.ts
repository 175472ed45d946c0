// Compiled, never run: each @ts-expect-error must meet an error, or the compilation fails.
import { createAgentFleetClient, type ApiError, type RootError } from '@agent-fleet/client';

const client = createAgentFleetClient({ baseUrl: 'https://fleet.example.com', auth: { bearer: async () => 'token' } });

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error a path api.yaml does not declare
  await client.GET('/agent');
  // @ts-expect-error a method the path does not have
  await client.POST('/agents/{agent_id}', { params: { path: { agent_id: 'a' } }, body: { name: 'n', type: 'type_a' } });
  // @ts-expect-error a body field the schema does not have
  await client.POST('/agents', { body: { name: 'n', type: 'type_a', colour: 'red' } });
  // @ts-expect-error a required body field missing
  await client.POST('/api/v1/agents', { body: { name: 'n' } });
  // @ts-expect-error a value outside the enum
  await client.POST('/agents', { body: { name: 'n', type: 'type_z' } });
  // @ts-expect-error a query parameter the operation does not take
  await client.GET('/agents', { params: { query: { sort: 'name' } } });
  // @ts-expect-error a field name the collection does not have
  await client.GET('/api/v1/agents', { params: { query: { fields: ['colour'] } } });
  // @ts-expect-error a field the collection cannot be filtered by
  await client.GET('/api/v1/agents', { params: { query: { 'filter[colour]': { eq: 'red' } } } });
  // @ts-expect-error an operator the field does not take
  await client.GET('/api/v1/agents', { params: { query: { 'filter[status]': { gte: 'idle' } } } });
  // @ts-expect-error a path parameter missing
  await client.GET('/agents/{agent_id}', { params: { path: {} } });
  // @ts-expect-error not a collection: nothing to paginate
  client.paginate('/api/v1/agents/{agent_id}', { params: { path: { agent_id: 'a' } } });
}

export async function fullAndSparse(): Promise<void> {
  const full = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: 'a' } } });
  if (full.error) {
    const code: ApiError['error']['code'] = full.error.error.code;
    // @ts-expect-error not one of the surface's codes
    if (full.error.error.code === 'NOT_FOUNDD') return;
    void code;
    return;
  }
  // Required on the full representation: no `!`, no `?? ''`.
  const fields: [string, string, string, string, string | null] = [full.data.data.id, full.data.data.name, full.data.data.status, full.data.data.created_at, full.data.data.owner_id];
  void fields;

  const sparse = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: 'a' }, query: { fields: ['name'] } } });
  if (sparse.data) {
    const kept: [string, string] = [sparse.data.data.id, sparse.data.data.name];
    void kept;
    // @ts-expect-error `type` was not asked for, so the answer does not have it
    void sparse.data.data.type;
  }
}

export async function narrowedErrors(): Promise<void> {
  const created = await client.POST('/api/v1/agents', { body: { name: 'n', type: 'type_a' } });
  if (created.error?.error.code === 'QUOTA_EXCEEDED') {
    // The code narrows the body: a quota refusal says which quota, its limit and the usage.
    const usage: [string, number, number] = [created.error.error.details.quota, created.error.error.details.limit, created.error.error.details.usage];
    void usage;
  }
  const replaced = await client.PUT('/api/v1/agents/{agent_id}', { params: { path: { agent_id: 'a' } }, body: { name: 'n', type: 'type_a' } });
  // @ts-expect-error replacing an agent never answers a quota refusal, so the code cannot be QUOTA_EXCEEDED
  if (replaced.error?.error.code === 'QUOTA_EXCEEDED') return;
}

export async function everyCollectionPages(): Promise<void> {
  const ids: string[] = [];
  for await (const agent of client.paginate('/agents')) ids.push(agent.id);
  for await (const task of client.paginate('/agents/{agent_id}/tasks', { params: { path: { agent_id: 'a' } } })) ids.push(task.id);
  for await (const agent of client.paginate('/api/v1/agents')) ids.push(agent.id, agent.name);
  for await (const task of client.paginate('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: 'a' } } })) ids.push(task.id, task.title);
  for await (const user of client.paginate('/api/v1/users')) ids.push(user.id, user.email);
  for await (const post of client.paginate('/api/v1/users/{user_id}/posts', { params: { path: { user_id: 'u' } } })) ids.push(post.id, post.title);
  for await (const page of client.pages('/api/v1/users')) ids.push(String(page.meta.total));
  // @ts-expect-error the caller's connections are one list, not a paginated collection
  client.paginate('/api/v1/me/connections');
}

export async function rootErrors(): Promise<void> {
  const missing = await client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'a' } } });
  if (missing.error) {
    const code: RootError['error'] = missing.error.error;
    // @ts-expect-error not one of the root surface's codes
    if (missing.error.error === 'NotFound') return;
    void code;
  }
}
