import { createStore } from '../../src/data/store';
import { fireDueSchedules } from '../../src/domain/schedules';
import { describeEachDatabase, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';
import { openEventStream } from '../support/event-stream-client';

type Event = { id: string; type: string; agent_id: string | null; workspace_id: string; actor: { type: string; id: string } | null; task_id: string | null; data: Record<string, unknown> };

const PUBLIC_URL = 'https://93.184.216.34/hooks/audit';

describeEachDatabase('the audit trail', (get) => {
  const app = (): TestApp => get();
  let owner: SignedInUser;
  let operator: SignedInUser;
  let viewer: SignedInUser;
  let outsider: SignedInUser;

  beforeAll(async () => {
    owner = await app().signUp();
    operator = await app().signUp();
    viewer = await app().signUp();
    outsider = await app().signUp();
  });

  async function join(workspaceId: string, user: SignedInUser, role: string): Promise<void> {
    const { token } = (await owner.http.post(`/api/v1/workspaces/${workspaceId}/invitations`).send({ email: user.user.email, role }).expect(201)).body.data;
    await user.http.post('/api/v1/invitations/accept').send({ token }).expect(200);
  }

  const eventsOf = async (user: SignedInUser | 'service', workspaceId: string): Promise<Event[]> => {
    const request = user === 'service' ? app().anonymous.get('/api/v1/events').set('X-API-Key', TEST_API_KEY) : user.http.get('/api/v1/events');
    return (await request.query({ workspace_id: workspaceId, after: '0', limit: 100 }).expect(200)).body.data as Event[];
  };
  const typesOf = (events: Event[]) => events.map((event) => event.type);

  it("when a workspace is shared and worked, then each change is an event naming its actor and workspace, written with it; admins and owners read all, viewers and operators the agents' and tasks'", async () => {
    const workspace = (await owner.http.post('/api/v1/workspaces').send({ name: 'Audited' }).expect(201)).body.data;
    await join(workspace.id, operator, 'operator');
    await join(workspace.id, viewer, 'viewer');
    await owner.http.patch(`/api/v1/workspaces/${workspace.id}`).send({ name: 'Audited team' }).expect(200);
    const agent = (await operator.http.post('/api/v1/agents').send({ name: 'audited', type: 'type_a', workspace_id: workspace.id }).expect(201)).body.data;
    const key = (await operator.http.post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'worker' }).expect(201)).body.data;
    await operator.http.delete(`/api/v1/agents/${agent.id}/keys/${key.id}`).expect(204);
    const webhook = (await owner.http.post('/api/v1/webhooks').send({ url: PUBLIC_URL, workspace_id: workspace.id }).expect(201)).body.data;
    await owner.http.patch(`/api/v1/webhooks/${webhook.id}`).send({ enabled: false }).expect(200);
    await owner.http.delete(`/api/v1/webhooks/${webhook.id}`).expect(204);
    await owner.http.patch(`/api/v1/workspaces/${workspace.id}/members/${viewer.user.id}`).send({ role: 'operator' }).expect(200);
    await owner.http.patch(`/api/v1/workspaces/${workspace.id}/members/${viewer.user.id}`).send({ role: 'viewer' }).expect(200);
    const revoked = (await owner.http.post(`/api/v1/workspaces/${workspace.id}/invitations`).send({ email: outsider.user.email, role: 'viewer' }).expect(201)).body.data;
    await owner.http.delete(`/api/v1/workspaces/${workspace.id}/invitations/${revoked.id}`).expect(204);

    const all = await eventsOf(owner, workspace.id);
    expect(typesOf(all)).toEqual([
      'member.added',
      'invitation.created',
      'invitation.accepted',
      'member.added',
      'invitation.created',
      'invitation.accepted',
      'member.added',
      'workspace.updated',
      'agent.created',
      'agent_key.created',
      'agent_key.revoked',
      'webhook.created',
      'webhook.updated',
      'webhook.deleted',
      'member.role_changed',
      'member.role_changed',
      'invitation.created',
      'invitation.revoked',
    ]);
    expect(all.every((event) => event.workspace_id === workspace.id)).toBe(true);
    const ownerActor = { type: 'user', id: owner.user.id };
    const operatorActor = { type: 'user', id: operator.user.id };
    const byType = (type: string) => all.filter((event) => event.type === type);
    expect(byType('workspace.updated')).toEqual([expect.objectContaining({ actor: ownerActor, agent_id: null, data: { name: 'Audited team', previous_name: 'Audited' } })]);
    expect(byType('agent.created')[0]).toMatchObject({ actor: operatorActor, agent_id: agent.id });
    expect(byType('agent_key.created')[0]).toMatchObject({ actor: operatorActor, agent_id: agent.id, data: { id: key.id, name: 'worker', prefix: key.prefix } });
    expect(byType('member.role_changed')[0]).toMatchObject({ actor: ownerActor, data: { user_id: viewer.user.id, role: 'operator', previous_role: 'viewer' } });
    expect(byType('invitation.accepted')[1]).toMatchObject({ actor: { type: 'user', id: viewer.user.id }, data: { email: viewer.user.email, role: 'viewer', user_id: viewer.user.id } });
    // No secret, token or digest is ever in the trail.
    const text = JSON.stringify(all);
    expect(text).not.toContain(key.secret);
    expect(text).not.toMatch(/afi_|whsec_|token|digest/);
    // Owners (and platform admins, service keys) read it all; viewers and operators the agent's events only.
    expect(await eventsOf('service', workspace.id)).toEqual(all);
    expect(typesOf(await eventsOf(viewer, workspace.id))).toEqual(['agent.created']);
    expect(typesOf(await eventsOf(operator, workspace.id))).toEqual(['agent.created']);
    await outsider.http.get('/api/v1/events').query({ workspace_id: workspace.id }).expect(404);
  });

  it('when a change is refused, then no event is written', async () => {
    const workspace = (await owner.http.post('/api/v1/workspaces').send({ name: 'Quiet' }).expect(201)).body.data;
    await join(workspace.id, viewer, 'viewer');
    const before = (await eventsOf(owner, workspace.id)).length;
    await viewer.http.patch(`/api/v1/workspaces/${workspace.id}`).send({ name: 'no' }).expect(403);
    await owner.http.patch(`/api/v1/workspaces/${workspace.id}/members/${owner.user.id}`).send({ role: 'viewer' }).expect(409);
    await outsider.http.post('/api/v1/invitations/accept').send({ token: 'afi_nothing' }).expect(404);
    expect(await eventsOf(owner, workspace.id)).toHaveLength(before);
  });

  it('when a service key acts, its events name it by position; what the service does itself names no actor', async () => {
    const agent = (await app().anonymous.post('/api/v1/agents').set('X-API-Key', TEST_API_KEY).send({ name: 'svc', type: 'type_a' }).expect(201)).body.data;
    const [created] = (await app().anonymous.get('/api/v1/events').set('X-API-Key', TEST_API_KEY).query({ agent_id: agent.id, after: '0' }).expect(200)).body.data as Event[];
    expect(created).toMatchObject({ type: 'agent.created', actor: { type: 'service_key', id: '1' }, workspace_id: agent.workspace_id });
    // A schedule's firing is the service's own.
    await app().anonymous.post(`/api/v1/agents/${agent.id}/schedules`).set('X-API-Key', TEST_API_KEY).send({ interval_seconds: 60, template: { title: 'tick' } }).expect(201);
    await fireDueSchedules(createStore(app().database.db), { quotas: app().config.quotas }, new Date(Date.now() + 61_000).toISOString());
    const fired = ((await app().anonymous.get('/api/v1/events').set('X-API-Key', TEST_API_KEY).query({ agent_id: agent.id, types: 'task.created', after: '0' }).expect(200)).body.data as Event[])[0];
    expect(fired).toMatchObject({ type: 'task.created', actor: null });
  });

  it("when a member is removed, then their open event stream ends at its next keep-alive and reconnecting reads without the workspace", async () => {
    const workspace = (await owner.http.post('/api/v1/workspaces').send({ name: 'Streamed' }).expect(201)).body.data;
    const watcher = await app().signUp();
    await join(workspace.id, watcher, 'viewer');
    const baseUrl = await app().listen();
    const stream = await openEventStream(`${baseUrl}/api/v1/events`, { Authorization: `Bearer ${watcher.token}` });
    try {
      const agent = (await owner.http.post('/api/v1/agents').send({ name: 'seen', type: 'type_a', workspace_id: workspace.id }).expect(201)).body.data;
      const [seen] = await stream.waitFor(1);
      expect(JSON.parse(String(seen?.data))).toMatchObject({ type: 'agent.created', agent_id: agent.id });
      await owner.http.delete(`/api/v1/workspaces/${workspace.id}/members/${watcher.user.id}`).expect(204);
      await stream.ended;
    } finally {
      stream.close();
    }
    await watcher.http.get('/api/v1/events').query({ workspace_id: workspace.id }).expect(404);
  });
}, { events: { retentionHours: 168, heartbeatMs: 200, pollMs: 50, streamsPerPrincipal: 10 } });
