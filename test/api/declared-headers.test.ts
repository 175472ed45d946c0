import { randomUUID } from 'node:crypto';
import { loadApiDocument } from '../../src/contract/openapi';
import { createStore } from '../../src/data/store';
import { FANOUT_BATCH, fanOutEvents } from '../../src/domain/webhook-deliveries';
import { isRateLimited } from '../../src/http/rate-limit';
import { TEST_METRICS_TOKEN, reachableDatabaseKinds, type SignedInUser } from '../support/harness';
import { authorizeAtProvider, newLogin, PROVIDERS, signIn, startOAuthWorld, type OAuthWorld } from '../support/oauth-harness';
import { assetPath } from '../support/browser-assets';

type Node = Record<string, unknown>;
const document = loadApiDocument();

/** Follows local `$ref`s (`#/components/...`). */
function resolve(node: Node): Node {
  let current = node;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Node)[part], document) as Node;
  }
  return current;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `GET /agents 200` → the header names that answer declares, for every 2xx and 3xx api.yaml lists. */
const DECLARED = new Map<string, string[]>();
for (const [template, item] of Object.entries(document.paths as Record<string, Node>)) {
  for (const method of METHODS) {
    const operation = item[method] as Node | undefined;
    if (!operation) continue;
    for (const [status, response] of Object.entries(operation.responses as Record<string, Node>)) {
      if (!/^[23]/.test(status)) continue;
      DECLARED.set(`${method.toUpperCase()} ${template} ${status}`, Object.keys((resolve(response).headers ?? {}) as Node));
    }
  }
}

/** How each declared success or redirect is produced for real. */
type Recipe = (context: Context) => Promise<Response>;
interface Context {
  world: OAuthWorld;
  owner: SignedInUser;
  admin: SignedInUser;
  ids: Record<'agent' | 'task' | 'v1Agent' | 'v1Task', string>;
  call(method: string, path: string, options?: { as?: SignedInUser | null; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** A GET, then the same GET with `If-None-Match` set to its ETag. */
  revalidate(path: string, as?: SignedInUser): Promise<Response>;
}

const RECIPES: Record<string, Recipe> = {
  'GET /agents 200': (c) => c.call('GET', '/agents'),
  'GET /agents 304': (c) => c.revalidate('/agents'),
  'POST /agents 201': (c) => replayed(c, 'POST', '/agents', { body: { name: 'headers', type: 'type_a' } }),
  'GET /agents/{agent_id} 200': (c) => c.call('GET', `/agents/${c.ids.agent}`),
  'GET /agents/{agent_id} 304': (c) => c.revalidate(`/agents/${c.ids.agent}`),
  'PUT /agents/{agent_id} 200': (c) => c.call('PUT', `/agents/${c.ids.agent}`, { body: { name: 'replaced', type: 'type_b' } }),
  'PATCH /agents/{agent_id} 200': (c) => c.call('PATCH', `/agents/${c.ids.agent}`, { body: { name: 'patched' } }),
  'DELETE /agents/{agent_id} 204': async (c) => c.call('DELETE', `/agents/${await created(c, '/agents')}`),
  'GET /agents/{agent_id}/tasks 200': (c) => c.call('GET', `/agents/${c.ids.agent}/tasks`),
  'GET /agents/{agent_id}/tasks 304': (c) => c.revalidate(`/agents/${c.ids.agent}/tasks`),
  'POST /agents/{agent_id}/tasks 201': (c) => replayed(c, 'POST', `/agents/${c.ids.agent}/tasks`, { body: { title: 'headers' } }),
  'GET /agents/{agent_id}/tasks/{task_id} 200': (c) => c.call('GET', `/agents/${c.ids.agent}/tasks/${c.ids.task}`),
  'GET /agents/{agent_id}/tasks/{task_id} 304': (c) => c.revalidate(`/agents/${c.ids.agent}/tasks/${c.ids.task}`),
  'PATCH /agents/{agent_id}/tasks/{task_id} 200': (c) => c.call('PATCH', `/agents/${c.ids.agent}/tasks/${c.ids.task}`, { body: { priority: 3 } }),
  'DELETE /agents/{agent_id}/tasks/{task_id} 204': async (c) =>
    c.call('DELETE', `/agents/${c.ids.agent}/tasks/${await created(c, `/agents/${c.ids.agent}/tasks`, { title: 'doomed' })}`),
  'GET /protected 200': (c) => c.call('GET', '/protected'),
  'POST /token 200': (c) =>
    fetch(`${c.world.baseUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: c.owner.user.email, password: c.owner.password }).toString(),
    }),
  'GET /api/v1/users 200': (c) => c.call('GET', '/api/v1/users', { as: c.admin }),
  'GET /api/v1/users 304': (c) => c.revalidate('/api/v1/users', c.admin),
  'POST /api/v1/users 201': (c) => replayed(c, 'POST', '/api/v1/users', { as: null, body: { name: 'Headers', email: `${newLogin('headers')}@example.test`, password: 'long enough password' } }),
  'GET /api/v1/users/{user_id} 200': (c) => c.call('GET', `/api/v1/users/${c.owner.user.id}`),
  'GET /api/v1/users/{user_id} 304': (c) => c.revalidate(`/api/v1/users/${c.owner.user.id}`),
  'PUT /api/v1/users/{user_id} 200': (c) => c.call('PUT', `/api/v1/users/${c.owner.user.id}`, { body: { name: 'Replaced', email: c.owner.user.email } }),
  'PATCH /api/v1/users/{user_id} 200': (c) => c.call('PATCH', `/api/v1/users/${c.owner.user.id}`, { body: { age: 40 } }),
  'DELETE /api/v1/users/{user_id} 204': async (c) => {
    const doomed = await c.world.app.signUp();
    return c.call('DELETE', `/api/v1/users/${doomed.user.id}`, { as: doomed });
  },
  'GET /api/v1/users/{user_id}/posts 200': (c) => c.call('GET', `/api/v1/users/${c.owner.user.id}/posts`),
  'GET /api/v1/users/{user_id}/posts 304': (c) => c.revalidate(`/api/v1/users/${c.owner.user.id}/posts`),
  'POST /api/v1/users/{user_id}/posts 201': (c) => replayed(c, 'POST', `/api/v1/users/${c.owner.user.id}/posts`, { body: { title: 'headers', body: 'text' } }),
  'GET /api/v1/agents 200': (c) => c.call('GET', '/api/v1/agents'),
  'GET /api/v1/agents 304': (c) => c.revalidate('/api/v1/agents'),
  'POST /api/v1/agents 201': (c) => replayed(c, 'POST', '/api/v1/agents', { body: { name: 'headers', type: 'type_c' } }),
  'GET /api/v1/agents/{agent_id} 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}`),
  'GET /api/v1/agents/{agent_id} 304': (c) => c.revalidate(`/api/v1/agents/${c.ids.v1Agent}`),
  'PUT /api/v1/agents/{agent_id} 200': (c) => c.call('PUT', `/api/v1/agents/${c.ids.v1Agent}`, { body: { name: 'replaced', type: 'type_a' } }),
  'PATCH /api/v1/agents/{agent_id} 200': (c) => c.call('PATCH', `/api/v1/agents/${c.ids.v1Agent}`, { body: { type: 'type_b' } }),
  'DELETE /api/v1/agents/{agent_id} 204': async (c) => c.call('DELETE', `/api/v1/agents/${await created(c, '/agents')}`),
  'GET /api/v1/agents/{agent_id}/tasks 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/tasks`),
  'GET /api/v1/agents/{agent_id}/tasks 304': (c) => c.revalidate(`/api/v1/agents/${c.ids.v1Agent}/tasks`),
  'POST /api/v1/agents/{agent_id}/tasks 201': (c) => replayed(c, 'POST', `/api/v1/agents/${c.ids.v1Agent}/tasks`, { body: { title: 'headers' } }),
  'GET /api/v1/agents/{agent_id}/tasks/{task_id} 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/tasks/${c.ids.v1Task}`),
  'GET /api/v1/agents/{agent_id}/tasks/{task_id} 304': (c) => c.revalidate(`/api/v1/agents/${c.ids.v1Agent}/tasks/${c.ids.v1Task}`),
  'PATCH /api/v1/agents/{agent_id}/tasks/{task_id} 200': (c) => c.call('PATCH', `/api/v1/agents/${c.ids.v1Agent}/tasks/${c.ids.v1Task}`, { body: { title: 'patched' } }),
  'DELETE /api/v1/agents/{agent_id}/tasks/{task_id} 204': async (c) =>
    c.call('DELETE', `/api/v1/agents/${c.ids.v1Agent}/tasks/${await created(c, `/agents/${c.ids.v1Agent}/tasks`, { title: 'doomed' })}`),
  'GET /api/v1/agents/{agent_id}/keys 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/keys`),
  'POST /api/v1/agents/{agent_id}/keys 201': (c) => replayed(c, 'POST', `/api/v1/agents/${c.ids.v1Agent}/keys`, { body: { name: 'headers' } }),
  'GET /api/v1/agents/{agent_id}/keys/{key_id} 200': async (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/keys/${await newKey(c)}`),
  'DELETE /api/v1/agents/{agent_id}/keys/{key_id} 204': async (c) => c.call('DELETE', `/api/v1/agents/${c.ids.v1Agent}/keys/${await newKey(c)}`),
  'POST /api/v1/agents/{agent_id}/leases 201': async (c) => replayed(c, 'POST', `/api/v1/agents/${await agentWithTask(c)}/leases`, { body: {} }),
  'POST /api/v1/agents/{agent_id}/leases 204': async (c) => replayed(c, 'POST', `/api/v1/agents/${await created(c, '/agents')}/leases`, { body: { wait_seconds: 0 } }),
  'GET /api/v1/agents/{agent_id}/leases/{lease_id} 200': async (c) => c.call('GET', await newLease(c)),
  'PATCH /api/v1/agents/{agent_id}/leases/{lease_id} 200': async (c) => c.call('PATCH', await newLease(c), { body: { progress: { percent: 10 } } }),
  'DELETE /api/v1/agents/{agent_id}/leases/{lease_id} 204': async (c) => c.call('DELETE', await newLease(c)),
  'POST /api/v1/agents/{agent_id}/leases/{lease_id}/logs 204': async (c) => c.call('POST', `${await newLease(c)}/logs`, { body: { lines: [{ level: 'info', message: 'headers' }] } }),
  'GET /api/v1/agents/{agent_id}/tasks/{task_id}/attempts 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/tasks/${c.ids.v1Task}/attempts`),
  'GET /api/v1/agents/{agent_id}/tasks/{task_id}/logs 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/tasks/${c.ids.v1Task}/logs`),
  'POST /api/v1/agents/{agent_id}/tasks/{task_id}/attempts 202': async (c) => c.call('POST', `${await cancelledTask(c)}/attempts`),
  'POST /api/v1/agents/{agent_id}/task-batches 200': async (c) => {
    const task = await cancelledTask(c);
    return c.call('POST', `/api/v1/agents/${c.ids.v1Agent}/task-batches`, { body: { action: 'retry', ids: [task.split('/').pop()] } });
  },
  'GET /api/v1/agents/{agent_id}/schedules 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/schedules`),
  'POST /api/v1/agents/{agent_id}/schedules 201': (c) => replayed(c, 'POST', `/api/v1/agents/${c.ids.v1Agent}/schedules`, { body: SCHEDULE }),
  'GET /api/v1/agents/{agent_id}/schedules/{schedule_id} 200': async (c) => c.call('GET', await newSchedule(c)),
  'PATCH /api/v1/agents/{agent_id}/schedules/{schedule_id} 200': async (c) => c.call('PATCH', await newSchedule(c), { body: { paused: true } }),
  'DELETE /api/v1/agents/{agent_id}/schedules/{schedule_id} 204': async (c) => c.call('DELETE', await newSchedule(c)),
  'GET /api/v1/agents/{agent_id}/usage 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/usage`),
  'GET /api/v1/agents/{agent_id}/workers 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/workers`),
  'GET /api/v1/agents/{agent_id}/stats 200': (c) => c.call('GET', `/api/v1/agents/${c.ids.v1Agent}/stats`),
  'GET /api/v1/events 200': (c) => c.call('GET', `/api/v1/events?agent_id=${c.ids.v1Agent}&limit=5`),
  'GET /api/v1/webhooks 200': (c) => c.call('GET', '/api/v1/webhooks'),
  'POST /api/v1/webhooks 201': (c) => replayed(c, 'POST', '/api/v1/webhooks', { body: { url: WEBHOOK_URL } }),
  'GET /api/v1/webhooks/{webhook_id} 200': async (c) => c.call('GET', `/api/v1/webhooks/${await newWebhook(c)}`),
  'PATCH /api/v1/webhooks/{webhook_id} 200': async (c) => c.call('PATCH', `/api/v1/webhooks/${await newWebhook(c)}`, { body: { enabled: false } }),
  'DELETE /api/v1/webhooks/{webhook_id} 204': async (c) => c.call('DELETE', `/api/v1/webhooks/${await newWebhook(c)}`),
  'GET /api/v1/webhooks/{webhook_id}/deliveries 200': async (c) => c.call('GET', `/api/v1/webhooks/${await newWebhook(c)}/deliveries`),
  'POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/attempts 202': async (c) => c.call('POST', `${await newDelivery(c)}/attempts`),
  'GET /api/v1/workspaces 200': (c) => c.call('GET', '/api/v1/workspaces'),
  'POST /api/v1/workspaces 201': (c) => replayed(c, 'POST', '/api/v1/workspaces', { body: { name: 'headers' } }),
  'GET /api/v1/workspaces/{workspace_id} 200': async (c) => c.call('GET', await newWorkspace(c)),
  'PATCH /api/v1/workspaces/{workspace_id} 200': async (c) => c.call('PATCH', await newWorkspace(c), { body: { name: 'renamed' } }),
  'DELETE /api/v1/workspaces/{workspace_id} 204': async (c) => c.call('DELETE', await newWorkspace(c)),
  'GET /api/v1/workspaces/{workspace_id}/members 200': async (c) => c.call('GET', `${await newWorkspace(c)}/members`),
  'PATCH /api/v1/workspaces/{workspace_id}/members/{user_id} 200': async (c) => c.call('PATCH', `${await newWorkspace(c)}/members/${c.owner.user.id}`, { body: { role: 'owner' } }),
  'DELETE /api/v1/workspaces/{workspace_id}/members/{user_id} 204': async (c) => {
    const workspace = await newWorkspace(c);
    await joined(c, workspace);
    return c.call('DELETE', `${workspace}/members/${c.admin.user.id}`, { as: c.admin });
  },
  'GET /api/v1/workspaces/{workspace_id}/invitations 200': async (c) => c.call('GET', `${await newWorkspace(c)}/invitations`),
  'POST /api/v1/workspaces/{workspace_id}/invitations 201': async (c) => replayed(c, 'POST', `${await newWorkspace(c)}/invitations`, { body: { email: 'headers@example.test', role: 'viewer' } }),
  'GET /api/v1/workspaces/{workspace_id}/invitations/{invitation_id} 200': async (c) => {
    const workspace = await newWorkspace(c);
    return c.call('GET', `${workspace}/invitations/${(await invitation(c, workspace)).id}`);
  },
  'DELETE /api/v1/workspaces/{workspace_id}/invitations/{invitation_id} 204': async (c) => {
    const workspace = await newWorkspace(c);
    const { id } = await invitation(c, workspace);
    return c.call('DELETE', `${workspace}/invitations/${id}`);
  },
  'POST /api/v1/invitations/accept 200': async (c) => c.call('POST', '/api/v1/invitations/accept', { as: c.admin, body: { token: (await invitation(c, await newWorkspace(c))).token } }),
  'GET /api/v1/me 200': (c) => c.call('GET', '/api/v1/me'),
  'GET /api/v1/me 304': (c) => c.revalidate('/api/v1/me'),
  'POST /api/auth/login 200': (c) => c.call('POST', '/api/auth/login', { as: null, body: { email: c.owner.user.email, password: c.owner.password } }),
  'POST /api/auth/logout 204': async (c) => c.call('POST', '/api/auth/logout', { as: await c.world.app.signUp() }),
  'POST /api/auth/logout-all 204': async (c) => c.call('POST', '/api/auth/logout-all', { as: await c.world.app.signUp() }),
  'GET /api/auth/oauth/{provider} 302': (c) => c.world.browser().get(new URL(`/api/auth/oauth/${PROVIDERS.confidential}`, c.world.baseUrl)),
  'GET /api/auth/oauth/{provider}/callback 302': async (c) => (await signIn(c.world)).callback,
  'GET /api/v1/me/connections 200': (c) => c.call('GET', '/api/v1/me/connections'),
  'GET /api/v1/me/connections 304': (c) => c.revalidate('/api/v1/me/connections'),
  'POST /api/v1/me/connections/{provider} 200': (c) => startLink(c, c.owner, { Accept: 'application/json' }),
  'POST /api/v1/me/connections/{provider} 303': (c) => startLink(c, c.owner),
  'DELETE /api/v1/me/connections/{provider} 204': async (c) => {
    const linked = await c.world.app.signUp();
    const browser = browserOf(c, linked);
    const start = await startLink(c, linked, {}, browser);
    await browser.get(await authorizeAtProvider(browser, new URL(start.headers.get('location') ?? ''), { login: newLogin('unlinked') }));
    return c.call('DELETE', `/api/v1/me/connections/${PROVIDERS.confidential}`, { as: linked });
  },
  'GET /login 200': (c) => c.call('GET', '/login', { as: null }),
  'GET / 200': (c) => browserOf(c, c.owner).get(new URL('/', c.world.baseUrl)),
  'GET / 302': (c) => c.world.browser().get(new URL('/', c.world.baseUrl)),
  'GET /health 200': (c) => c.call('GET', '/health', { as: null }),
  'GET /health/ready 200': (c) => c.call('GET', '/health/ready', { as: null }),
  'GET /openapi.json 200': (c) => c.call('GET', '/openapi.json', { as: null }),
  'GET /docs 200': (c) => c.call('GET', '/docs', { as: null }),
  'GET /docs/{file} 200': (c) => c.call('GET', '/docs/swagger-ui.css', { as: null }),
  'GET /client 200': (c) => c.call('GET', '/client', { as: null }),
  'GET /redoc 200': (c) => c.call('GET', '/redoc', { as: null }),
  'GET /redoc/{file} 200': (c) => c.call('GET', '/redoc/redoc.standalone.js', { as: null }),
  'GET /assets/{file} 200': (c) => c.call('GET', assetPath('pages.css'), { as: null }),
  'GET /favicon.ico 200': (c) => c.call('GET', '/favicon.ico', { as: null }),
  'GET /sign-up 200': (c) => c.call('GET', '/sign-up', { as: null }),
  'GET /metrics 200': (c) => c.call('GET', '/metrics', { as: null, headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } }),
};

/**
 * A create sent twice with one Idempotency-Key: the second answer is the first one replayed, which
 * carries every header the first does and `Idempotent-Replayed` too.
 */
async function replayed(c: Context, method: string, path: string, options: Parameters<Context['call']>[2] = {}): Promise<Response> {
  const sent = { ...options, headers: { ...options.headers, 'idempotency-key': `headers-${randomUUID()}` } };
  const first = await c.call(method, path, sent);
  await first.arrayBuffer();
  const again = await c.call(method, path, sent);
  if (again.status !== first.status) throw new Error(`${method} ${path} answered ${first.status}, then ${again.status} when replayed`);
  return again;
}

/** The id of a new item of the collection at `path` (root surface, so the body is bare). */
async function created(c: Context, path: string, body: unknown = { name: 'doomed', type: 'type_a' }): Promise<string> {
  const res = await c.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** The id of a new key of the v1 agent. */
async function newKey(c: Context): Promise<string> {
  const res = await c.call('POST', `/api/v1/agents/${c.ids.v1Agent}/keys`, { body: { name: 'headers' } });
  if (res.status !== 201) throw new Error(`creating a key answered ${res.status}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** The path of a new cancelled task of the v1 agent. */
async function cancelledTask(c: Context): Promise<string> {
  const path = `/api/v1/agents/${c.ids.v1Agent}/tasks/${await created(c, `/agents/${c.ids.v1Agent}/tasks`, { title: 'again' })}`;
  const res = await c.call('PATCH', path, { body: { status: 'cancelled' } });
  if (res.status !== 200) throw new Error(`cancelling a task answered ${res.status}`);
  return path;
}

const SCHEDULE = { cron: '0 9 * * MON-FRI', timezone: 'Europe/Paris', template: { title: 'headers' } };

/** The path of a new schedule of the v1 agent (the Location of its create). */
async function newSchedule(c: Context): Promise<string> {
  const res = await c.call('POST', `/api/v1/agents/${c.ids.v1Agent}/schedules`, { body: SCHEDULE });
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new Error(`creating a schedule answered ${res.status}`);
  return location;
}

/** A public address: endpoints are checked without name resolution. */
const WEBHOOK_URL = 'https://93.184.216.34/hook';

/** The id of a new webhook endpoint of the owner. */
async function newWebhook(c: Context): Promise<string> {
  const res = await c.call('POST', '/api/v1/webhooks', { body: { url: WEBHOOK_URL } });
  if (res.status !== 201) throw new Error(`creating a webhook answered ${res.status}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** The path of a delivery of a new endpoint (never sent: no engine runs here). */
async function newDelivery(c: Context): Promise<string> {
  const webhookId = await newWebhook(c);
  // An event after the endpoint's creation, turned into its delivery as an engine's fan-out does.
  await created(c, '/agents');
  const store = createStore(c.world.app.database.db);
  while ((await fanOutEvents(store)) === FANOUT_BATCH) {
    // A backlog of the earlier recipes' events: the next step.
  }
  const res = await c.call('GET', `/api/v1/webhooks/${webhookId}/deliveries`);
  const [delivery] = ((await res.json()) as { data: Array<{ id: string }> }).data;
  if (!delivery) throw new Error(`the endpoint has no delivery (listing answered ${res.status})`);
  return `/api/v1/webhooks/${webhookId}/deliveries/${delivery.id}`;
}

/** The path of a new workspace of the owner (the Location of its create). */
async function newWorkspace(c: Context): Promise<string> {
  const res = await c.call('POST', '/api/v1/workspaces', { body: { name: 'headers' } });
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new Error(`creating a workspace answered ${res.status}`);
  return location;
}

/** An invitation of the admin (by e-mail) to the workspace at `workspace`. */
async function invitation(c: Context, workspace: string): Promise<{ id: string; token: string }> {
  const res = await c.call('POST', `${workspace}/invitations`, { body: { email: c.admin.user.email, role: 'viewer' } });
  if (res.status !== 201) throw new Error(`inviting answered ${res.status}`);
  return ((await res.json()) as { data: { id: string; token: string } }).data;
}

/** The admin, a member of the workspace at `workspace` by an accepted invitation. */
async function joined(c: Context, workspace: string): Promise<void> {
  const res = await c.call('POST', '/api/v1/invitations/accept', { as: c.admin, body: { token: (await invitation(c, workspace)).token } });
  if (res.status !== 200) throw new Error(`accepting answered ${res.status}`);
}

/** A new agent with one queued task: its id. */
async function agentWithTask(c: Context): Promise<string> {
  const agent = await created(c, '/agents');
  await created(c, `/agents/${agent}/tasks`, { title: 'leased' });
  return agent;
}

/** The path of a new active lease (Location of its claim). */
async function newLease(c: Context): Promise<string> {
  const res = await c.call('POST', `/api/v1/agents/${await agentWithTask(c)}/leases`, { body: {} });
  const location = res.headers.get('location');
  if (res.status !== 201 || !location) throw new Error(`claiming answered ${res.status}`);
  return location;
}

const SESSION = 'agent_fleet_session';
function browserOf(c: Context, user: SignedInUser) {
  const browser = c.world.browser();
  browser.jar.set({ name: SESSION, value: user.token, host: '127.0.0.1', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' });
  return browser;
}

/** What the home page does to link a provider: the session cookie, its own Origin. */
function startLink(c: Context, user: SignedInUser, headers: Record<string, string> = {}, browser = browserOf(c, user)): Promise<Response> {
  return browser.request(new URL(`/api/v1/me/connections/${PROVIDERS.confidential}`, c.world.baseUrl), 'POST', { Origin: c.world.baseUrl, ...headers });
}

/** The answers only Node's HTTP parser gives (a request refused before it reached an operation's chain). */
const PARSER_ONLY = new Set(['#/components/responses/RequestRefused', '#/components/responses/TokenRequestRefused']);

describe('api.yaml declares the headers of its answers', () => {
  it('when api.yaml is walked, then each of its 2xx and 3xx answers is produced below, and nothing else', () => {
    expect(Object.keys(RECIPES).sort()).toEqual([...DECLARED.keys()].sort());
  });

  it('when api.yaml is walked, then every 201 declares Location, every 429 and 503 Retry-After, every read answering 304 takes If-None-Match, and every answer of a limited operation that comes after counting (all but 405, 408, 417, 431) RateLimit', () => {
    const gaps: string[] = [];
    for (const [template, item] of Object.entries(document.paths as Record<string, Node>)) {
      for (const method of METHODS) {
        const operation = item[method] as Node | undefined;
        if (!operation) continue;
        const where = `${method.toUpperCase()} ${template}`;
        const responses = operation.responses as Record<string, Node>;
        const headersOf = (status: string) => Object.keys((resolve(responses[status] as Node).headers ?? {}) as Node);
        const parameters = ((operation.parameters ?? []) as Node[]).map((parameter) => resolve(parameter).name);
        for (const status of Object.keys(responses)) {
          const headers = headersOf(status);
          if (status === '201' && !headers.includes('Location')) gaps.push(`${where} 201 without Location`);
          if ((status === '429' || status === '503') && !headers.includes('Retry-After')) gaps.push(`${where} ${status} without Retry-After`);
          const limited = isRateLimited(operation);
          if (/^[23]|^429$/.test(status) && limited !== headers.includes('RateLimit')) gaps.push(`${where} ${status} ${limited ? 'without' : 'with'} RateLimit`);
          // Node's parser (408, 417, 431, and 400 where nothing else refuses) and the route table (405) answer before any counter runs; every other answer was counted.
          const beforeCounting = ['405', '408', '417', '431'].includes(status) || PARSER_ONLY.has(String((responses[status] as Node).$ref));
          if (limited && /^[45]/.test(status) && !beforeCounting && !headers.includes('RateLimit')) gaps.push(`${where} ${status} without RateLimit`);
          if (headers.includes('RateLimit') !== headers.includes('RateLimit-Policy')) gaps.push(`${where} ${status}: RateLimit and RateLimit-Policy go together`);
        }
        if (responses['304'] && !parameters.includes('If-None-Match')) gaps.push(`${where} answers 304 without an If-None-Match parameter`);
      }
    }
    // A post has no address of its own to send in Location; readiness's 503 is a probe's answer, not a retry hint.
    expect(gaps).toEqual(['POST /api/v1/users/{user_id}/posts 201 without Location', 'GET /health/ready 503 without Retry-After']);
  });
});

/**
 * Walks api.yaml: every success and redirect it declares is produced for real, and every header
 * that answer declares is sent (RateLimit too: these apps count in process, where the limiter never
 * skips them). A 201's Location leads to what was created.
 */
describe.each(reachableDatabaseKinds())('declared headers are sent [%s]', (kind) => {
  let world: OAuthWorld & { close(): Promise<void> };
  let context: Context;

  beforeAll(async () => {
    world = await startOAuthWorld(kind);
    const owner = await world.app.signUp();
    const admin = await world.app.signUp({ role: 'admin' });
    const call: Context['call'] = (method, path, options = {}) => {
      const as = options.as === undefined ? owner : options.as;
      return fetch(`${world.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: { ...(as ? { authorization: `Bearer ${as.token}` } : {}), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    };
    const ids = { agent: '', task: '', v1Agent: '', v1Task: '' };
    context = {
      world,
      owner,
      admin,
      ids,
      call,
      revalidate: async (path, as = owner) => {
        const first = await call('GET', path, { as });
        const etag = first.headers.get('etag');
        if (!etag) throw new Error(`GET ${path} answered ${first.status} without an ETag`);
        return call('GET', path, { as, headers: { 'if-none-match': etag } });
      },
    };
    ids.agent = await created(context, '/agents');
    ids.task = await created(context, `/agents/${ids.agent}/tasks`, { title: 'kept' });
    ids.v1Agent = await created(context, '/agents');
    ids.v1Task = await created(context, `/agents/${ids.v1Agent}/tasks`, { title: 'kept' });
    await call('POST', `/api/v1/users/${owner.user.id}/posts`, { body: { title: 'kept' } });
  });
  afterAll(() => world?.close());

  it.each([...DECLARED.keys()])('when %s is produced, then every header it declares is sent', async (key) => {
    const recipe = RECIPES[key];
    if (!recipe) throw new Error(`no recipe for ${key}`);
    const res = await recipe(context);
    const status = Number(key.split(' ').at(-1));
    expect(res.status).toBe(status);
    const missing = (DECLARED.get(key) ?? []).filter((name) => res.headers.get(name) === null);
    expect(missing).toEqual([]);
    if (status === 304) expect(await res.text()).toBe('');
    if (status === 201 && res.headers.get('location')) {
      // An admin reads any user; the owner of the agents sees the rest anyway.
      const as = key.startsWith('POST /api/v1/users ') ? context.admin : context.owner;
      expect((await context.call('GET', res.headers.get('location') as string, { as })).status).toBe(200);
    }
  });
});
