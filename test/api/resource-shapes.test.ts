import type { components } from '../../generated/api';
import { loadContract, type Contract } from '../support/fuzzer/contract';
import { describeEachDatabase, type TestApp } from '../support/harness';

type Schemas = components['schemas'];

/** `true` only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

// What api.yaml promises consumers of the generated types, checked by the compiler (`npm run typecheck`).
// A full representation requires every field of its entity (the one schema each field is defined in).
const fullAgentKeys: Same<RequiredKeys<Schemas['AgentResource']>, keyof Schemas['AgentEntity']> = true;
const fullTaskKeys: Same<RequiredKeys<Schemas['TaskResource']>, keyof Schemas['TaskEntity']> = true;
const fullUserKeys: Same<RequiredKeys<Schemas['UserResource']>, keyof Schemas['UserEntity']> = true;
const fullPostKeys: Same<RequiredKeys<Schemas['PostResource']>, keyof Schemas['PostEntity']> = true;
const rootAgentKeys: Same<RequiredKeys<Schemas['Agent']>, keyof Schemas['AgentEntity']> = true;
const rootTaskKeys: Same<RequiredKeys<Schemas['Task']>, keyof Schemas['TaskEntity']> = true;
const sparseKeys: Same<RequiredKeys<Schemas['AgentFieldset'] | Schemas['TaskFieldset'] | Schemas['UserFieldset'] | Schemas['PostFieldset']>, 'id'> = true;
const itemUnion: Same<Schemas['AgentItem']['data'], Schemas['AgentResource'] | Schemas['AgentFieldset']> = true;
const pageUnion: Same<Schemas['PostCollection']['data'][number], Schemas['PostResource'] | Schemas['PostFieldset']> = true;

const AGENT_FIELDS = ['id', 'owner_id', 'workspace_id', 'name', 'type', 'status', 'created_at', 'updated_at', 'max_concurrency'];
const TASK_FIELDS = ['id', 'agent_id', 'title', 'description', 'input', 'priority', 'status', 'result', 'error', 'created_at', 'updated_at', 'started_at', 'finished_at', 'attempts', 'max_attempts', 'available_at', 'progress', 'lease_id', 'last_error', 'usage', 'run_at', 'timeout_seconds', 'deadline_at', 'schedule_id'];
const USER_FIELDS = ['id', 'name', 'email', 'age', 'role', 'created_at', 'updated_at'];
const POST_FIELDS = ['id', 'user_id', 'title', 'body', 'created_at', 'updated_at'];

const sorted = (keys: string[]) => [...keys].sort();

/**
 * Every representation a conventions read can answer: the full resource (every always-present
 * field), with and without its include, and what `fields=` answers (`id`, the fields named, the
 * include). Each is checked against api.yaml by the contract oracle too, beside the service's own
 * response validation.
 */
describeEachDatabase('full and sparse representations on /api/v1', (get) => {
  let contract: Contract;
  const paths: Record<string, string> = {};
  let adminHttp: TestApp['http'];

  beforeAll(async () => {
    contract = await loadContract();
    const admin = await get().signUp({ role: 'admin' });
    const agent = (await admin.http.post('/api/v1/agents').send({ name: 'shaped', type: 'type_b' }).expect(201)).body.data;
    const task = (await admin.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'shaped task' }).expect(201)).body.data;
    await admin.http.post(`/api/v1/users/${admin.user.id}/posts`).send({ title: 'shaped post', body: 'text' }).expect(201);
    Object.assign(paths, {
      agent: `/api/v1/agents/${agent.id}`,
      agents: `/api/v1/agents?filter[name][eq]=shaped`,
      task: `/api/v1/agents/${agent.id}/tasks/${task.id}`,
      tasks: `/api/v1/agents/${agent.id}/tasks`,
      user: `/api/v1/users/${admin.user.id}`,
      users: `/api/v1/users?filter[email][eq]=${encodeURIComponent(admin.user.email)}`,
      posts: `/api/v1/users/${admin.user.id}/posts`,
    });
    adminHttp = admin.http;
  });
  const join = (path: string, query: string) => (query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path);

  it.each([
    ['agent', '', AGENT_FIELDS],
    ['agent', 'include=tasks', [...AGENT_FIELDS, 'tasks']],
    ['agent', 'fields=name', ['id', 'name']],
    ['agent', 'fields=status&include=tasks', ['id', 'status', 'tasks']],
    ['agents', '', AGENT_FIELDS],
    ['agents', 'include=tasks', [...AGENT_FIELDS, 'tasks']],
    ['agents', 'fields=type,updated_at', ['id', 'type', 'updated_at']],
    ['agents', 'fields=name&include=tasks', ['id', 'name', 'tasks']],
    ['task', '', TASK_FIELDS],
    ['task', 'fields=result,status', ['id', 'result', 'status']],
    ['tasks', '', TASK_FIELDS],
    ['tasks', 'fields=title', ['id', 'title']],
    ['user', '', USER_FIELDS],
    ['user', 'include=posts', [...USER_FIELDS, 'posts']],
    ['user', 'fields=age', ['id', 'age']],
    ['user', 'fields=email&include=posts', ['id', 'email', 'posts']],
    ['users', '', USER_FIELDS],
    ['users', 'include=posts', [...USER_FIELDS, 'posts']],
    ['users', 'fields=id', ['id']],
    ['posts', '', POST_FIELDS],
    ['posts', 'fields=body', ['id', 'body']],
  ])('when GET %s?%s is read, then 200 with exactly %j, valid against api.yaml', async (which, query, keys) => {
    const target = join(paths[which] as string, query);
    const res = await adminHttp.get(target);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const items: Array<Record<string, unknown>> = Array.isArray(res.body.data) ? res.body.data : [res.body.data];
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(sorted(Object.keys(item))).toEqual(sorted(keys));
    const verdict = contract.check({ method: 'GET', target, status: res.status, headers: res.headers as Record<string, string>, body: Buffer.from(res.text) });
    expect(verdict).toMatchObject({ ok: true });
  });

  it('when a full representation loses an always-present field, then api.yaml refuses it; a fieldset without id too', async () => {
    const res = await adminHttp.get(paths.agent as string).expect(200);
    const { name: _name, ...withoutName } = res.body.data as Record<string, unknown>;
    const check = (data: unknown) =>
      contract.check({ method: 'GET', target: paths.agent as string, status: 200, headers: { 'content-type': 'application/json', etag: res.headers.etag as string }, body: Buffer.from(JSON.stringify({ data, meta: res.body.meta })) });
    // Without `name` it is a fieldset (any field may be absent) ...
    expect(check(withoutName)).toMatchObject({ ok: true });
    // ... but never one without `id`, nor one with a field no representation has.
    const { id: _id, ...withoutId } = res.body.data as Record<string, unknown>;
    expect(check(withoutId)).toMatchObject({ ok: false, category: 'contract', reason: '200 body does not match its schema' });
    expect(check({ ...res.body.data, secret: 1 })).toMatchObject({ ok: false, category: 'contract', reason: '200 body does not match its schema' });
  });
});

export const typeChecks = [fullAgentKeys, fullTaskKeys, fullUserKeys, fullPostKeys, rootAgentKeys, rootTaskKeys, sparseKeys, itemUnion, pageUnion];
