import { createAgentFleetClient } from '../../src/client';
import { describeEachDatabase, type SignedInUser } from '../support/harness';

describeEachDatabase('sharing a fleet through the typed client, over real HTTP', (get) => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await get().listen();
  });
  const clientOf = (user: SignedInUser) => createAgentFleetClient({ baseUrl, headers: { Authorization: `Bearer ${user.token}` } });

  it('when an owner invites a teammate who accepts, then both work the workspace\'s agents with their roles, and a removed teammate loses them', async () => {
    const owner = await get().signUp();
    const teammate = await get().signUp();
    const ownerClient = clientOf(owner);
    const teammateClient = clientOf(teammate);

    const created = await ownerClient.POST('/api/v1/workspaces', { body: { name: 'Platform team' } });
    expect(created.response.status).toBe(201);
    const workspace = created.data?.data;
    expect(workspace).toMatchObject({ name: 'Platform team', kind: 'shared', role: 'owner' });
    const workspaceId = workspace?.id as string;

    const invited = await ownerClient.POST('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: workspaceId } }, body: { email: teammate.user.email, role: 'viewer' } });
    expect(invited.response.status).toBe(201);
    expect(invited.response.headers.get('cache-control')).toBe('no-store');
    const accepted = await teammateClient.POST('/api/v1/invitations/accept', { body: { token: invited.data?.data.token as string } });
    expect(accepted.data?.data).toMatchObject({ id: workspaceId, role: 'viewer' });

    const agent = (await ownerClient.POST('/api/v1/agents', { body: { name: 'shared', type: 'type_a', workspace_id: workspaceId } })).data?.data;
    expect(agent?.workspace_id).toBe(workspaceId);
    const seen = await teammateClient.GET('/api/v1/agents', { params: { query: { workspace_id: workspaceId } } });
    expect(seen.data?.data.map((item) => item.id)).toEqual([agent?.id]);

    // A viewer may not change it: 403 in the declared error shape.
    const refused = await teammateClient.PATCH('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agent?.id as string } }, body: { name: 'renamed' } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: { code: 'FORBIDDEN', message: 'This needs the operator role in the workspace; yours is viewer', requestId: expect.any(String) } });

    // Promoted, the teammate may.
    const promoted = await ownerClient.PATCH('/api/v1/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: workspaceId, user_id: teammate.user.id } }, body: { role: 'operator' } });
    expect(promoted.data?.data.role).toBe('operator');
    const renamed = await teammateClient.PATCH('/api/v1/agents/{agent_id}', { params: { path: { agent_id: agent?.id as string } }, body: { name: 'renamed' } });
    expect(renamed.data?.data.name).toBe('renamed');

    // Removed, the teammate reads nothing of it at once.
    const removed = await ownerClient.DELETE('/api/v1/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: workspaceId, user_id: teammate.user.id } } });
    expect(removed.response.status).toBe(204);
    const gone = await fetch(`${baseUrl}/api/v1/agents/${agent?.id}`, { headers: { Authorization: `Bearer ${teammate.token}` } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
