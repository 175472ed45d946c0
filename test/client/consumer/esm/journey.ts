// A consumer's program: only @agent-fleet/client and TypeScript are installed beside it.
import { AgentFleetError, MemoryEtagCache, createAgentFleetClient, unwrap, type RetryEvent } from '@agent-fleet/client';

declare const process: { env: Record<string, string | undefined> };
const baseUrl = process.env['BASE_URL'] ?? '';
const limitedUrl = process.env['LIMITED_URL'] ?? '';
const apiKey = process.env['API_KEY'] ?? '';
const report: Record<string, unknown> = {};

// Sign up (no credential needed), then sign in with the password grant.
const email = `consumer-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
const password = 'violet-harbour-lantern-42';
const anonymous = createAgentFleetClient({ baseUrl });
const signedUp = await anonymous.POST('/api/v1/users', { body: { name: 'Consumer', email, password } });
if (signedUp.error) throw new Error(`sign-up failed: ${JSON.stringify(signedUp.error)}`);
report['signUp'] = { status: signedUp.response.status, email: signedUp.data.data.email, role: signedUp.data.data.role };

const token = await anonymous.requestToken({ grant_type: 'password', username: email, password });
if (token.error) throw new Error(`token failed: ${token.error.error}`);
report['token'] = { type: token.data.token_type, expiresIn: token.data.expires_in, refresh: typeof token.data.refresh_token };
const wrongPassword = await anonymous.requestToken({ grant_type: 'password', username: email, password: 'not-the-password' });
report['wrongPassword'] = { status: wrongPassword.response.status, error: wrongPassword.error?.error };

// From here on the client signs in by itself (password grant, refreshed before expiry).
const requests: { method: string; url: string; status: number; conditional: boolean }[] = [];
const cache = new MemoryEtagCache({ maxEntries: 100 });
const client = createAgentFleetClient({
  baseUrl,
  auth: { username: email, password },
  cache,
  fetch: async (request) => {
    const response = await fetch(request);
    requests.push({ method: request.method, url: request.url, status: response.status, conditional: request.headers.has('If-None-Match') });
    return response;
  },
});

const me = await unwrap(client.GET('/api/v1/me'));
report['me'] = me.data.email === email;

// Create agents on the conventions surface and tasks on the root surface.
const types = ['type_a', 'type_b', 'type_c'] as const;
const agentIds: string[] = [];
for (let i = 0; i < 25; i += 1) {
  const created = await client.POST('/api/v1/agents', { body: { name: `agent-${String(i).padStart(2, '0')}`, type: types[i % 3] ?? 'type_a' } });
  if (created.error) throw new Error(`create failed: ${created.error.error.code}`);
  agentIds.push(created.data.data.id);
  if (i === 0) report['created'] = { status: created.response.status, location: created.response.headers.get('Location') === `/api/v1/agents/${created.data.data.id}`, status_: created.data.data.status };
}
const firstAgent = agentIds[0] ?? '';
for (let i = 0; i < 7; i += 1) {
  await unwrap(client.POST('/agents/{agent_id}/tasks', { params: { path: { agent_id: firstAgent } }, body: { title: `task ${i}`, priority: i } }));
}

// Every page of a cursor collection, and of a skip collection.
const pageSizes: number[] = [];
for await (const page of client.pages('/api/v1/agents', { params: { query: { limit: 10 } } })) pageSizes.push(page.data.length);
const names: string[] = [];
for await (const agent of client.paginate('/api/v1/agents', { params: { query: { limit: 10, sort: 'name' } } })) names.push(agent.name);
const titles: string[] = [];
for await (const task of client.paginate('/agents/{agent_id}/tasks', { params: { path: { agent_id: firstAgent }, query: { limit: 3 } } })) titles.push(task.title);
report['pagination'] = { pageSizes, count: names.length, sorted: names.join() === [...names].sort().join(), tasks: titles.length };

// Filter, sort and sparse fields: the result is typed with only the fields asked for.
const filtered = await unwrap(
  client.GET('/api/v1/agents', { params: { query: { 'filter[type]': { in: 'type_b,type_c' }, 'filter[name]': { gte: 'agent-20' }, sort: '-name', fields: ['name', 'type'] } } }),
);
report['filtered'] = filtered.data.map((agent) => ({ keys: Object.keys(agent).sort().join(), name: agent.name, type: agent.type }));

// A typed 404, 409 and 412.
const missing = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: '01900000-0000-7000-8000-000000000000' } } });
report['notFound'] = { status: missing.response.status, code: missing.error?.error.code === 'NOT_FOUND' ? 'NOT_FOUND' : missing.error?.error.code };
const conflict = await client.PATCH('/api/v1/agents/{agent_id}', { params: { path: { agent_id: firstAgent } }, body: { status: 'running' } });
report['conflict'] = { status: conflict.response.status, code: conflict.error?.error.code };
const read = await client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: firstAgent } } });
const etag = read.response.headers.get('ETag') ?? '';
await unwrap(client.PUT('/api/v1/agents/{agent_id}', { params: { path: { agent_id: firstAgent }, header: { 'If-Match': etag } }, body: { name: 'renamed', type: 'type_a' } }));
const stale = await client.PUT('/api/v1/agents/{agent_id}', { params: { path: { agent_id: firstAgent }, header: { 'If-Match': etag } }, body: { name: 'again', type: 'type_a' } });
report['preconditionFailed'] = { status: stale.response.status, code: stale.error?.error.code };
try {
  await unwrap(client.GET('/agents/{agent_id}', { params: { path: { agent_id: 'nope' } } }));
} catch (error) {
  report['thrown'] = error instanceof AgentFleetError ? { status: error.status, message: error.message } : String(error);
}

// A repeated GET is revalidated: the service answers 304 and the cached data comes back.
requests.length = 0;
const second = agentIds[1] ?? '';
const fresh = await unwrap(client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: second } } }));
const again = await unwrap(client.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: second } } }));
report['cache'] = { statuses: requests.map((r) => r.status), conditional: requests.map((r) => r.conditional), same: JSON.stringify(fresh) === JSON.stringify(again), name: again.data.name };

// Rate limited: the client waits as long as Retry-After says, and the calls succeed.
const retries: RetryEvent[] = [];
const limited = createAgentFleetClient({ baseUrl: limitedUrl, auth: { apiKey }, retry: { retries: 3, onRetry: (event) => retries.push(event) } });
const started = Date.now();
const statuses: number[] = [];
for (let i = 0; i < 4; i += 1) statuses.push((await limited.GET('/api/v1/agents', { params: { query: { limit: 1 } } })).response.status);
report['rateLimited'] = { statuses, retries: retries.map((r) => ({ cause: r.cause, delayMs: r.delayMs })), elapsedMs: Date.now() - started };

// Cancellation.
const controller = new AbortController();
controller.abort();
report['aborted'] = await client.GET('/api/v1/me', { signal: controller.signal }).then(
  () => 'not aborted',
  (error: unknown) => (error instanceof Error ? error.name : String(error)),
);

console.log(JSON.stringify(report));
