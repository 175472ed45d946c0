import { createHash } from 'node:crypto';
import { describeEachDatabase, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';

type Workspace = { id: string; name: string; kind: string; role: string | null; created_at: string; updated_at: string };
type Member = { user_id: string; name: string; email: string; role: string };

const FORBIDDEN = { error: { code: 'FORBIDDEN', message: expect.any(String), requestId: expect.any(String) } };
const NOT_FOUND = { error: { code: 'NOT_FOUND', message: expect.any(String), requestId: expect.any(String) } };
const CONFLICT = { error: { code: 'CONFLICT', message: expect.any(String), requestId: expect.any(String) } };

async function newWorkspace(owner: SignedInUser, name = 'Team'): Promise<Workspace> {
  return (await owner.http.post('/api/v1/workspaces').send({ name }).expect(201)).body.data as Workspace;
}

async function invite(by: SignedInUser, workspaceId: string, email: string, role: string): Promise<{ id: string; token: string }> {
  return (await by.http.post(`/api/v1/workspaces/${workspaceId}/invitations`).send({ email, role }).expect(201)).body.data;
}

/** Joins `user` to the workspace with `role` the way people do: an invitation, accepted. */
async function join(by: SignedInUser, user: SignedInUser, workspaceId: string, role: string): Promise<void> {
  const { token } = await invite(by, workspaceId, user.user.email, role);
  await user.http.post('/api/v1/invitations/accept').send({ token }).expect(200);
}

async function newAgent(by: SignedInUser, workspaceId: string): Promise<{ id: string; workspace_id: string }> {
  return (await by.http.post('/api/v1/agents').send({ name: 'shared', type: 'type_a', workspace_id: workspaceId }).expect(201)).body.data;
}

describeEachDatabase('workspaces', (get) => {
  let alice: SignedInUser;
  let bob: SignedInUser;
  let carol: SignedInUser;
  let outsider: SignedInUser;
  const app = (): TestApp => get();

  beforeAll(async () => {
    alice = await app().signUp();
    bob = await app().signUp();
    carol = await app().signUp();
    outsider = await app().signUp();
  });

  describe('personal workspaces', () => {
    it('when a user signs up, then they own a personal workspace whose id is theirs, and their agents go there', async () => {
      const listed = (await alice.http.get('/api/v1/workspaces').expect(200)).body;
      expect(listed).toEqual({ data: [{ id: alice.user.id, name: alice.user.name, kind: 'personal', role: 'owner', created_at: alice.user.created_at, updated_at: alice.user.created_at }], meta: { nextCursor: null, hasMore: false } });
      const root = (await alice.http.post('/agents').send({ name: 'mine', type: 'type_a' }).expect(201)).body;
      expect(root.workspace_id).toBe(alice.user.id);
      const v1 = (await alice.http.post('/api/v1/agents').send({ name: 'mine too', type: 'type_a' }).expect(201)).body.data;
      expect(v1.workspace_id).toBe(alice.user.id);
    });

    it('when the owner deletes their personal workspace or leaves it, then 409 and it stays', async () => {
      expect((await alice.http.delete(`/api/v1/workspaces/${alice.user.id}`)).body).toEqual(CONFLICT);
      expect((await alice.http.delete(`/api/v1/workspaces/${alice.user.id}/members/${alice.user.id}`).expect(409)).body).toEqual(CONFLICT);
      await alice.http.get(`/api/v1/workspaces/${alice.user.id}`).expect(200);
    });

    it("when a service key creates an agent, then it goes to the `service` workspace, which only admins and service keys reach", async () => {
      const agent = (await app().anonymous.post('/api/v1/agents').set('X-API-Key', TEST_API_KEY).send({ name: 'svc', type: 'type_b' }).expect(201)).body.data;
      const service = (await app().anonymous.get(`/api/v1/workspaces/${agent.workspace_id}`).set('X-API-Key', TEST_API_KEY).expect(200)).body.data;
      expect(service).toMatchObject({ id: agent.workspace_id, name: 'service', kind: 'service', role: null });
      await alice.http.get(`/api/v1/agents/${agent.id}`).expect(404);
      await alice.http.get(`/api/v1/workspaces/${agent.workspace_id}`).expect(404);
    });
  });

  describe('shared workspaces', () => {
    it('when a user creates a workspace, then 201 answers it with Location and the creator as its only member, an owner', async () => {
      const res = await alice.http.post('/api/v1/workspaces').send({ name: '  Research  ' });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`/api/v1/workspaces/${res.body.data.id}`);
      expect(res.body.data).toEqual({ id: expect.any(String), name: 'Research', kind: 'shared', role: 'owner', created_at: expect.any(String), updated_at: expect.any(String) });
      const members = (await alice.http.get(`/api/v1/workspaces/${res.body.data.id}/members`).expect(200)).body;
      expect(members.data).toEqual([{ user_id: alice.user.id, name: alice.user.name, email: alice.user.email, role: 'owner', created_at: expect.any(String), updated_at: expect.any(String) }]);
    });

    it('when the name is blank once trimmed, then 400 names the field and nothing is created', async () => {
      const before = (await alice.http.get('/api/v1/workspaces?limit=100').expect(200)).body.data.length;
      const res = await alice.http.post('/api/v1/workspaces').send({ name: '   ' }).expect(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'name' })]);
      expect((await alice.http.get('/api/v1/workspaces?limit=100').expect(200)).body.data).toHaveLength(before);
    });

    it('when a service key or an agent key creates a workspace, then 403: a workspace needs a person as its owner', async () => {
      expect((await app().anonymous.post('/api/v1/workspaces').set('X-API-Key', TEST_API_KEY).send({ name: 'x' }).expect(403)).body).toEqual(FORBIDDEN);
    });

    it('when an admin renames it, then 200; a viewer is refused (403) and a non-member gets 404', async () => {
      const team = await newWorkspace(alice);
      await join(alice, bob, team.id, 'admin');
      await join(alice, carol, team.id, 'viewer');
      const renamed = (await bob.http.patch(`/api/v1/workspaces/${team.id}`).send({ name: 'Renamed' }).expect(200)).body.data;
      expect(renamed).toMatchObject({ id: team.id, name: 'Renamed', role: 'admin' });
      expect((await carol.http.patch(`/api/v1/workspaces/${team.id}`).send({ name: 'no' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await outsider.http.patch(`/api/v1/workspaces/${team.id}`).send({ name: 'no' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await alice.http.get(`/api/v1/workspaces/${team.id}`).expect(200)).body.data.name).toBe('Renamed');
    });

    it('when the owner deletes a workspace that holds agents, then 409; once they are gone, 204 and it is gone for everyone', async () => {
      const team = await newWorkspace(alice);
      await join(alice, bob, team.id, 'admin');
      const agent = await newAgent(alice, team.id);
      expect((await alice.http.delete(`/api/v1/workspaces/${team.id}`).expect(409)).body).toEqual(CONFLICT);
      expect((await bob.http.delete(`/api/v1/workspaces/${team.id}`).expect(403)).body).toEqual(FORBIDDEN);
      await alice.http.delete(`/api/v1/agents/${agent.id}`).expect(204);
      await alice.http.delete(`/api/v1/workspaces/${team.id}`).expect(204);
      await alice.http.get(`/api/v1/workspaces/${team.id}`).expect(404);
      await bob.http.get(`/api/v1/workspaces/${team.id}/members`).expect(404);
    });
  });

  describe('sharing a fleet', () => {
    it("when members share a workspace, then each reaches its agents with their role's rights and outsiders reach nothing", async () => {
      const team = await newWorkspace(alice);
      await join(alice, bob, team.id, 'operator');
      await join(alice, carol, team.id, 'viewer');
      const agent = await newAgent(bob, team.id);
      expect(agent.workspace_id).toBe(team.id);
      // The viewer reads the agent and its tasks, on both surfaces, and changes nothing.
      await carol.http.get(`/api/v1/agents/${agent.id}`).expect(200);
      await carol.http.get(`/agents/${agent.id}/tasks`).expect(200, []);
      expect((await carol.http.patch(`/api/v1/agents/${agent.id}`).send({ name: 'no' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await carol.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'no' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await carol.http.post('/api/v1/agents').send({ name: 'no', type: 'type_a', workspace_id: team.id }).expect(403)).body).toEqual(FORBIDDEN);
      // The operator works the agent.
      await bob.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'go' }).expect(201);
      await bob.http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      // Lists show the workspace's agents to its members, filtered when asked.
      const listed = (await carol.http.get(`/api/v1/agents?workspace_id=${team.id}`).expect(200)).body.data.map((a: { id: string }) => a.id);
      expect(listed).toEqual([agent.id]);
      expect((await carol.http.get('/agents?limit=1000').expect(200)).body.map((a: { id: string }) => a.id)).toContain(agent.id);
      // Outsiders: 404 everywhere, the workspace's existence not revealed.
      expect((await outsider.http.get(`/api/v1/agents/${agent.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await outsider.http.get(`/api/v1/agents?workspace_id=${team.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await outsider.http.post('/api/v1/agents').send({ name: 'no', type: 'type_a', workspace_id: team.id }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await outsider.http.get('/agents?limit=1000').expect(200)).body.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    });

    it('when a member is removed, then they lose the workspace and its agents at once; a member may leave', async () => {
      const team = await newWorkspace(alice);
      await join(alice, bob, team.id, 'operator');
      await join(alice, carol, team.id, 'viewer');
      const agent = await newAgent(alice, team.id);
      await bob.http.get(`/api/v1/agents/${agent.id}`).expect(200);
      await alice.http.delete(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).expect(204);
      await bob.http.get(`/api/v1/agents/${agent.id}`).expect(404);
      await bob.http.get(`/api/v1/workspaces/${team.id}`).expect(404);
      await carol.http.delete(`/api/v1/workspaces/${team.id}/members/${carol.user.id}`).expect(204);
      await carol.http.get(`/api/v1/agents/${agent.id}`).expect(404);
      const members = (await alice.http.get(`/api/v1/workspaces/${team.id}/members`).expect(200)).body.data as Member[];
      expect(members.map((member) => member.user_id)).toEqual([alice.user.id]);
    });
  });

  describe('roles', () => {
    let team: Workspace;
    beforeEach(async () => {
      team = await newWorkspace(alice);
      await join(alice, bob, team.id, 'admin');
      await join(alice, carol, team.id, 'viewer');
    });

    it('when an admin changes a member up to admin, then 200; making an owner or touching one needs an owner (403)', async () => {
      const changed = (await bob.http.patch(`/api/v1/workspaces/${team.id}/members/${carol.user.id}`).send({ role: 'admin' }).expect(200)).body.data;
      expect(changed).toMatchObject({ user_id: carol.user.id, role: 'admin' });
      expect((await bob.http.patch(`/api/v1/workspaces/${team.id}/members/${carol.user.id}`).send({ role: 'owner' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await bob.http.patch(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).send({ role: 'viewer' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await bob.http.delete(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).expect(403)).body).toEqual(FORBIDDEN);
      await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${carol.user.id}`).send({ role: 'owner' }).expect(200);
    });

    it('when a viewer removes someone else, then 403; an unknown role is 400; a user who is not a member is 404', async () => {
      expect((await carol.http.delete(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).expect(403)).body).toEqual(FORBIDDEN);
      const bad = await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${carol.user.id}`).send({ role: 'superuser' }).expect(400);
      expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'role' })]);
      expect((await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${outsider.user.id}`).send({ role: 'viewer' }).expect(404)).body).toEqual(NOT_FOUND);
      const members = (await alice.http.get(`/api/v1/workspaces/${team.id}/members`).expect(200)).body.data as Member[];
      expect(Object.fromEntries(members.map((member) => [member.user_id, member.role]))).toEqual({ [alice.user.id]: 'owner', [bob.user.id]: 'admin', [carol.user.id]: 'viewer' });
    });

    it('when the last owner is demoted or leaves, then 409 and nothing changes; with a second owner, both work', async () => {
      expect((await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).send({ role: 'admin' }).expect(409)).body).toEqual(CONFLICT);
      expect((await alice.http.delete(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).expect(409)).body).toEqual(CONFLICT);
      await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).send({ role: 'owner' }).expect(200);
      await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).send({ role: 'admin' }).expect(200);
      expect((await bob.http.delete(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).expect(409)).body).toEqual(CONFLICT);
    });

    it('when two owners demote each other at once, then one change wins and the workspace keeps an owner', async () => {
      await alice.http.patch(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).send({ role: 'owner' }).expect(200);
      const [first, second] = await Promise.all([
        alice.http.patch(`/api/v1/workspaces/${team.id}/members/${bob.user.id}`).send({ role: 'viewer' }),
        bob.http.patch(`/api/v1/workspaces/${team.id}/members/${alice.user.id}`).send({ role: 'viewer' }),
      ]);
      // The loser finds itself a viewer already (403) or the other the last owner (409).
      const [won, lost] = [first.status, second.status].sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const owners = ((await app().anonymous.get(`/api/v1/workspaces/${team.id}/members`).set('X-API-Key', TEST_API_KEY).expect(200)).body.data as Member[]).filter((member) => member.role === 'owner');
      expect(owners).toHaveLength(1);
    });
  });

  describe('invitations', () => {
    let team: Workspace;
    beforeEach(async () => {
      team = await newWorkspace(alice);
    });

    it('when an admin invites, then the token is shown once (no-store), stored as a digest, and listed without it', async () => {
      const res = await alice.http.post(`/api/v1/workspaces/${team.id}/invitations`).send({ email: bob.user.email.toUpperCase(), role: 'operator' }).expect(201);
      expect(res.headers['cache-control']).toBe('no-store');
      const created = res.body.data;
      expect(created).toEqual({
        id: expect.any(String),
        workspace_id: team.id,
        email: bob.user.email,
        role: 'operator',
        invited_by: alice.user.id,
        created_at: expect.any(String),
        expires_at: expect.any(String),
        token: expect.stringMatching(/^afi_[A-Za-z0-9_-]{43}$/),
      });
      expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(7 * 24 * 3600 * 1000);
      const row = await app().database.db('workspace_invitations').where({ id: created.id }).first();
      expect(row.token_digest).toBe(createHash('sha256').update(created.token).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(created.token);
      const { token: _token, ...shown } = created;
      expect(res.headers.location).toBe(`/api/v1/workspaces/${team.id}/invitations/${created.id}`);
      expect((await alice.http.get(String(res.headers.location)).expect(200)).body.data).toEqual(shown);
      expect((await alice.http.get(`/api/v1/workspaces/${team.id}/invitations`).expect(200)).body.data).toEqual([shown]);
    });

    it('when the invited user accepts, then they join with the role, once; a second accept is 409 and changes nothing', async () => {
      const { id, token } = await invite(alice, team.id, bob.user.email, 'operator');
      const joined = (await bob.http.post('/api/v1/invitations/accept').send({ token }).expect(200)).body.data;
      expect(joined).toMatchObject({ id: team.id, role: 'operator', kind: 'shared' });
      expect((await bob.http.post('/api/v1/invitations/accept').send({ token }).expect(409)).body).toEqual(CONFLICT);
      expect((await alice.http.get(`/api/v1/workspaces/${team.id}/invitations`).expect(200)).body.data).toEqual([]);
      await alice.http.get(`/api/v1/workspaces/${team.id}/invitations/${id}`).expect(404);
    });

    it('when another user, an expired, a revoked or an unknown token is used, then a clear 4xx and nobody joins', async () => {
      const forBob = await invite(alice, team.id, bob.user.email, 'viewer');
      expect((await carol.http.post('/api/v1/invitations/accept').send({ token: forBob.token }).expect(403)).body).toEqual(FORBIDDEN);
      const revoked = await invite(alice, team.id, carol.user.email, 'viewer');
      await alice.http.delete(`/api/v1/workspaces/${team.id}/invitations/${revoked.id}`).expect(204);
      await alice.http.delete(`/api/v1/workspaces/${team.id}/invitations/${revoked.id}`).expect(404);
      expect((await carol.http.post('/api/v1/invitations/accept').send({ token: revoked.token }).expect(409)).body).toEqual(CONFLICT);
      const expired = await invite(alice, team.id, outsider.user.email, 'viewer');
      await app().database.db('workspace_invitations').where({ id: expired.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      expect((await outsider.http.post('/api/v1/invitations/accept').send({ token: expired.token }).expect(409)).body).toEqual(CONFLICT);
      expect((await outsider.http.post('/api/v1/invitations/accept').send({ token: 'afi_unknown' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await outsider.http.post('/api/v1/invitations/accept').send({}).expect(400)).body.error.code).toBe('VALIDATION_ERROR');
      const members = (await alice.http.get(`/api/v1/workspaces/${team.id}/members`).expect(200)).body.data as Member[];
      expect(members.map((member) => member.user_id)).toEqual([alice.user.id]);
      // The refused ones still work for their own user.
      await bob.http.post('/api/v1/invitations/accept').send({ token: forBob.token }).expect(200);
    });

    it('when someone who is a member already is invited, then 409; inviting an owner needs an owner (403); a viewer may not invite (403)', async () => {
      await join(alice, bob, team.id, 'admin');
      await join(alice, carol, team.id, 'viewer');
      expect((await alice.http.post(`/api/v1/workspaces/${team.id}/invitations`).send({ email: bob.user.email, role: 'viewer' }).expect(409)).body).toEqual(CONFLICT);
      expect((await bob.http.post(`/api/v1/workspaces/${team.id}/invitations`).send({ email: outsider.user.email, role: 'owner' }).expect(403)).body).toEqual(FORBIDDEN);
      expect((await carol.http.post(`/api/v1/workspaces/${team.id}/invitations`).send({ email: outsider.user.email, role: 'viewer' }).expect(403)).body).toEqual(FORBIDDEN);
      await bob.http.post(`/api/v1/workspaces/${team.id}/invitations`).send({ email: outsider.user.email, role: 'admin' }).expect(201);
    });
  });
});
