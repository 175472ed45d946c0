import { loadApiDocument } from '../../src/contract/openapi';
import { createStore } from '../../src/data/store';
import { FANOUT_BATCH, fanOutEvents } from '../../src/domain/webhook-deliveries';
import { WORKSPACE_ROLES } from '../../src/domain/access';
import type { WorkspaceRole } from '../../src/model';
import { describeEachDatabase, type SignedInUser, type TestApp } from '../support/harness';

/**
 * Walks every operation api.yaml marks with `x-workspace-role` with a member of each role and
 * with someone who is not a member: 2xx at or above the operation's role, 403 below it, 404 for
 * the non-member. Each call gets fresh data in a fresh workspace, so that what one call changes
 * (a deletion) never decides another's answer.
 */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation = { method: Method; path: string; operationId: string; role: WorkspaceRole; queryParameters: Set<string> };

const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];
const PUBLIC_URL = 'https://93.184.216.34/hooks/walk';

function operationsWithRoles(): Operation[] {
  const document = loadApiDocument() as { paths: Record<string, Record<string, { operationId: string; 'x-workspace-role'?: WorkspaceRole; parameters?: Array<{ $ref?: string; name?: string; in?: string }> }>> };
  const parameters = (document as unknown as { components: { parameters: Record<string, { name: string; in: string }> } }).components.parameters;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.['x-workspace-role']) continue;
      const queryParameters = new Set(
        (operation.parameters ?? [])
          .map((parameter) => (parameter.$ref ? parameters[parameter.$ref.split('/').pop() as string] : parameter))
          .filter((parameter) => parameter?.in === 'query')
          .map((parameter) => parameter?.name as string),
      );
      operations.push({ method, path, operationId: operation.operationId, role: operation['x-workspace-role'], queryParameters });
    }
  }
  return operations;
}

/** What each operation is sent: its body, and the query that names the workspace's data in a collection. */
const BODIES: Record<string, (ids: Record<string, string>) => object | undefined> = {
  createAgent: () => ({ name: 'walked', type: 'type_a' }),
  replaceAgent: () => ({ name: 'walked', type: 'type_b' }),
  updateAgent: () => ({ name: 'walked' }),
  createTask: () => ({ title: 'walked' }),
  updateTask: () => ({ priority: 3 }),
  createAgentV1: (ids) => ({ name: 'walked', type: 'type_a', workspace_id: ids.workspace_id }),
  replaceAgentV1: () => ({ name: 'walked', type: 'type_b' }),
  updateAgentV1: () => ({ name: 'walked' }),
  createTaskV1: () => ({ title: 'walked' }),
  updateTaskV1: () => ({ priority: 3 }),
  createAgentKey: () => ({ name: 'walked' }),
  claimLease: () => ({}),
  updateLease: () => ({ ttl_seconds: 60 }),
  appendLeaseLogs: () => ({ lines: [{ level: 'info', message: 'walked' }] }),
  createTaskBatch: (ids) => ({ action: 'cancel', ids: [ids.task_id] }),
  createSchedule: () => ({ cron: '0 3 * * *', template: { title: 'walked' } }),
  updateSchedule: () => ({ name: 'walked' }),
  createWebhook: (ids) => ({ url: PUBLIC_URL, workspace_id: ids.workspace_id }),
  updateWebhook: () => ({ description: 'walked' }),
  updateWorkspace: () => ({ name: 'walked' }),
  updateWorkspaceMember: () => ({ role: 'operator' }),
  createInvitation: () => ({ email: `invited-${Math.random().toString(36).slice(2)}@example.test`, role: 'viewer' }),
};

/** Operations whose data is the caller's own (lists across workspaces, the root surface's creates): every member passes, a non-member sees nothing of the workspace. */
const CALLERS_OWN = new Set(['listAgents', 'createAgent', 'listWorkspaces']);

describeEachDatabase('workspace roles, walked from api.yaml', (get) => {
  const app = (): TestApp => get();
  const operations = operationsWithRoles();
  let owner: SignedInUser;
  let outsider: SignedInUser;
  const members = new Map<WorkspaceRole, SignedInUser>();

  beforeAll(async () => {
    owner = await app().signUp();
    outsider = await app().signUp();
    for (const role of WORKSPACE_ROLES) members.set(role, await app().signUp());
  });

  it('when api.yaml is read, then it names a role on the operations of every kind of workspace data', () => {
    const ids = new Set(operations.map((operation) => operation.operationId));
    for (const operationId of ['getAgent', 'createTaskV1', 'claimLease', 'createAgentKey', 'listEvents', 'createWebhook', 'deleteWorkspace', 'createInvitation']) expect(ids).toContain(operationId);
    expect(operations.length).toBeGreaterThanOrEqual(60);
  });

  /** A workspace with a member of every role (the owner who made it is another), and the data `path` names. */
  async function freshWorld(operation: Operation): Promise<Record<string, string>> {
    const api = owner.http;
    const workspace = (await api.post('/api/v1/workspaces').send({ name: 'walk' }).expect(201)).body.data;
    const store = createStore(app().database.db);
    const at = new Date().toISOString();
    // Members are joined in the database here: invitations have their own tests.
    for (const [role, member] of members) await store.workspaces.insertMember({ workspace_id: workspace.id, user_id: member.user.id, role, created_at: at, updated_at: at });
    const ids: Record<string, string> = { workspace_id: workspace.id };
    const needs = (name: string) => operation.path.includes(`{${name}}`);
    if (needs('agent_id') || operation.queryParameters.has('agent_id') || CALLERS_OWN.has(operation.operationId)) {
      ids.agent_id = (await api.post('/api/v1/agents').send({ name: 'walked', type: 'type_a', workspace_id: workspace.id }).expect(201)).body.data.id;
    }
    if (needs('task_id') || needs('lease_id') || operation.operationId === 'createTaskBatch' || operation.operationId === 'claimLease') {
      ids.task_id = (await api.post(`/api/v1/agents/${ids.agent_id}/tasks`).send({ title: 'walked' }).expect(201)).body.data.id;
    }
    if (operation.operationId === 'retryTask') await api.patch(`/api/v1/agents/${ids.agent_id}/tasks/${ids.task_id}`).send({ status: 'cancelled' }).expect(200);
    if (needs('lease_id')) {
      ids.lease_id = (await api.post(`/api/v1/agents/${ids.agent_id}/leases`).send({}).expect(201)).body.data.id;
    }
    if (needs('key_id')) ids.key_id = (await api.post(`/api/v1/agents/${ids.agent_id}/keys`).send({ name: 'walked' }).expect(201)).body.data.id;
    if (needs('schedule_id')) ids.schedule_id = (await api.post(`/api/v1/agents/${ids.agent_id}/schedules`).send({ cron: '0 3 * * *', template: { title: 'walked' } }).expect(201)).body.data.id;
    if (needs('webhook_id')) ids.webhook_id = (await api.post('/api/v1/webhooks').send({ url: PUBLIC_URL, workspace_id: workspace.id }).expect(201)).body.data.id;
    if (needs('delivery_id')) {
      await api.post('/api/v1/agents').send({ name: 'an event', type: 'type_a', workspace_id: workspace.id }).expect(201);
      while ((await fanOutEvents(store)) === FANOUT_BATCH) {
        // The earlier walks' backlog: the next step.
      }
      const deliveries = (await api.get(`/api/v1/webhooks/${ids.webhook_id}/deliveries`).expect(200)).body.data;
      ids.delivery_id = deliveries[0].id;
    }
    if (needs('invitation_id')) ids.invitation_id = (await api.post(`/api/v1/workspaces/${workspace.id}/invitations`).send({ email: 'walked@example.test', role: 'viewer' }).expect(201)).body.data.id;
    return ids;
  }

  function send(caller: SignedInUser, operation: Operation, ids: Record<string, string>) {
    const userId = operation.operationId === 'removeWorkspaceMember' ? caller.user.id : members.get('viewer')?.user.id;
    const path = operation.path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => (name === 'user_id' ? String(userId) : String(ids[name])));
    const query: Record<string, string> = {};
    const { workspace_id: workspaceId, agent_id: agentId } = ids;
    if (operation.queryParameters.has('workspace_id') && workspaceId) query.workspace_id = workspaceId;
    if (operation.queryParameters.has('agent_id') && agentId && !path.includes(agentId)) query.agent_id = agentId;
    if (operation.operationId === 'listEvents') query.after = '0';
    const request = caller.http[operation.method](path).query(query);
    const body = BODIES[operation.operationId]?.(ids);
    return body === undefined ? request : request.send(body);
  }

  const callers: Array<WorkspaceRole | 'non-member'> = ['non-member', ...WORKSPACE_ROLES];
  for (const operation of operationsWithRoles()) {
    for (const caller of callers) {
      const expected = caller === 'non-member' ? 404 : WORKSPACE_ROLES.indexOf(caller) >= WORKSPACE_ROLES.indexOf(operation.role) ? '2xx' : 403;
      const own = CALLERS_OWN.has(operation.operationId);
      it(`when ${operation.method.toUpperCase()} ${operation.path} (${operation.operationId}, ${operation.role}) is called by a ${caller}, then ${own ? "it acts on the caller's own" : expected}`, async () => {
        const ids = await freshWorld(operation);
        const who = caller === 'non-member' ? outsider : (members.get(caller) as SignedInUser);
        const res = await send(who, operation, ids);
        if (own) {
          // Not confined to one workspace: each caller acts on what is theirs, and sees the workspace's data only as a member.
          expect(res.status).toBeLessThan(300);
          if (operation.operationId === 'listAgents') expect((res.body as Array<{ id: string }>).some((agent) => agent.id === ids.agent_id)).toBe(caller !== 'non-member');
          if (operation.operationId === 'listWorkspaces') expect((res.body.data as Array<{ id: string }>).some((workspace) => workspace.id === ids.workspace_id)).toBe(caller !== 'non-member');
          return;
        }
        if (expected === '2xx') {
          expect({ status: res.status, body: res.status < 300 ? undefined : res.body }).toEqual({ status: expect.any(Number), body: undefined });
          expect(res.status).toBeGreaterThanOrEqual(200);
        } else {
          expect({ status: res.status, code: res.body?.error?.code ?? res.body?.error }).toEqual({ status: expected, code: expected === 404 ? expect.stringMatching(/^(NOT_FOUND|not_found)$/) : expect.stringMatching(/^(FORBIDDEN|forbidden)$/) });
        }
      });
    }
  }
});
