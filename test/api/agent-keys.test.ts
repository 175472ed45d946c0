import { createHash } from 'node:crypto';
import { describeEachDatabase, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';

const ALL_SCOPES = ['tasks:read', 'tasks:write', 'tasks:work'];
const KEY_SHAPE = {
  id: expect.any(String),
  agent_id: expect.any(String),
  name: expect.any(String),
  prefix: expect.stringMatching(/^afk_[A-Za-z0-9_-]{8}$/),
  scopes: expect.any(Array),
  created_at: expect.any(String),
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
};
const INVALID_API_KEY = { error: 'forbidden', message: 'Invalid API key', detail: 'Invalid API key' };

type Key = { id: string; agent_id: string; secret: string; prefix: string; scopes: string[]; expires_at: string | null; last_used_at: string | null; revoked_at: string | null };

async function newAgent(owner: SignedInUser, name = 'worker'): Promise<string> {
  const res = await owner.http.post('/api/v1/agents').send({ name, type: 'type_a' }).expect(201);
  return res.body.data.id as string;
}

async function newKey(owner: SignedInUser, agentId: string, body: Record<string, unknown> = { name: 'key' }): Promise<Key> {
  const res = await owner.http.post(`/api/v1/agents/${agentId}/keys`).send(body).expect(201);
  return res.body.data as Key;
}

describeEachDatabase('agent keys', (get) => {
  let owner: SignedInUser;
  let agentId: string;
  beforeAll(async () => {
    owner = await get().signUp();
    agentId = await newAgent(owner);
  });
  const asKey = (app: TestApp, secret: string) => ({
    get: (path: string) => app.anonymous.get(path).set('X-API-Key', secret),
    post: (path: string) => app.anonymous.post(path).set('X-API-Key', secret),
    patch: (path: string) => app.anonymous.patch(path).set('X-API-Key', secret),
    put: (path: string) => app.anonymous.put(path).set('X-API-Key', secret),
    delete: (path: string) => app.anonymous.delete(path).set('X-API-Key', secret),
  });

  describe('create, list, read, revoke', () => {
    it('when the owner creates a key, then 201 answers it with its secret (once), Location and Cache-Control: no-store, all three scopes by default', async () => {
      const res = await owner.http.post(`/api/v1/agents/${agentId}/keys`).set('X-Request-ID', 'key-create').send({ name: 'builder 1' });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.location).toBe(`/api/v1/agents/${agentId}/keys/${res.body.data.id}`);
      expect(res.body).toEqual({
        data: { ...KEY_SHAPE, agent_id: agentId, name: 'builder 1', scopes: ALL_SCOPES, secret: expect.stringMatching(/^afk_[A-Za-z0-9_-]{51}$/) },
        meta: { timestamp: expect.any(String) },
      });
      expect(res.body.data.secret.startsWith(res.body.data.prefix)).toBe(true);
    });

    it('when the key is read or listed, then the secret never appears, and the table holds only its SHA-256 digest', async () => {
      const key = await newKey(owner, agentId, { name: 'digest only' });
      const read = await owner.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(200);
      expect(read.body).toEqual({ data: { ...KEY_SHAPE, id: key.id, agent_id: agentId, name: 'digest only', prefix: key.prefix, scopes: ALL_SCOPES }, meta: { timestamp: expect.any(String) } });
      const list = await owner.http.get(`/api/v1/agents/${agentId}/keys`).expect(200);
      for (const text of [read.text, list.text]) {
        expect(text).not.toContain(key.secret);
        expect(text).not.toContain('secret');
      }
      const row = await get().database.db('agent_keys').where({ id: key.id }).first();
      expect(row.secret_digest).toBe(createHash('sha256').update(key.secret).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(key.secret.slice(key.prefix.length));
    });

    it('when keys are listed, then they come newest first in cursor pages, revoked ones included', async () => {
      const agent = await newAgent(owner, 'listed');
      const made = [];
      for (const name of ['one', 'two', 'three']) made.push(await newKey(owner, agent, { name }));
      await owner.http.delete(`/api/v1/agents/${agent}/keys/${made[0]!.id}`).expect(204);
      const first = await owner.http.get(`/api/v1/agents/${agent}/keys?limit=2`).expect(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.body.data.map((key: Key) => key.id)).toEqual([made[2]!.id, made[1]!.id]);
      expect(first.body.meta).toEqual({ nextCursor: made[1]!.id, hasMore: true });
      const second = await owner.http.get(`/api/v1/agents/${agent}/keys?limit=2&cursor=${first.body.meta.nextCursor}`).expect(200);
      expect(second.body.data).toEqual([expect.objectContaining({ id: made[0]!.id, revoked_at: expect.any(String) })]);
      expect(second.body.meta).toEqual({ nextCursor: null, hasMore: false });
    });

    it('when scopes and expires_in_days are given, then the key has exactly those scopes and expires that many days on', async () => {
      const key = await newKey(owner, agentId, { name: 'reader', scopes: ['tasks:work', 'tasks:read'], expires_in_days: 30 });
      expect(key.scopes).toEqual(['tasks:read', 'tasks:work']);
      expect(Date.parse(key.expires_at!) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
      expect(Date.parse(key.expires_at!) - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    });

    it('when a key is revoked twice, then both answer 204 and it keeps the time of the first', async () => {
      const key = await newKey(owner, agentId);
      await owner.http.delete(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(204);
      const first = (await owner.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(200)).body.data.revoked_at;
      expect(first).toEqual(expect.any(String));
      const again = await owner.http.delete(`/api/v1/agents/${agentId}/keys/${key.id}`);
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect((await owner.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(200)).body.data.revoked_at).toBe(first);
    });

    it('when an admin or a service key manages another user’s agent’s keys, then they may', async () => {
      const admin = await get().signUp({ role: 'admin' });
      const byAdmin = await admin.http.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'admin made' });
      expect(byAdmin.status).toBe(201);
      const byService = await get().anonymous.post(`/api/v1/agents/${agentId}/keys`).set('X-API-Key', TEST_API_KEY).send({ name: 'service made' });
      expect(byService.status).toBe(201);
      await get().anonymous.get(`/api/v1/agents/${agentId}/keys/${byAdmin.body.data.id}`).set('X-API-Key', TEST_API_KEY).expect(200);
      await admin.http.delete(`/api/v1/agents/${agentId}/keys/${byService.body.data.id}`).expect(204);
    });
  });

  describe('refusals', () => {
    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a name of 101 characters', { name: 'x'.repeat(101) }],
      ['an unknown scope', { name: 'k', scopes: ['agents:write'] }],
      ['no scopes at all', { name: 'k', scopes: [] }],
      ['a scope twice', { name: 'k', scopes: ['tasks:read', 'tasks:read'] }],
      ['expires_in_days 0', { name: 'k', expires_in_days: 0 }],
      ['expires_in_days 366', { name: 'k', expires_in_days: 366 }],
      ['a secret of its own', { name: 'k', secret: 'afk_chosen' }],
    ])('when the body has %s, then 400 VALIDATION_ERROR and no key is made', async (_what, body) => {
      const before = await get().database.db('agent_keys').where({ agent_id: agentId }).count({ n: '*' }).first();
      const res = await owner.http.post(`/api/v1/agents/${agentId}/keys`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: expect.any(String) });
      const after = await get().database.db('agent_keys').where({ agent_id: agentId }).count({ n: '*' }).first();
      expect(Number(after?.n)).toBe(Number(before?.n));
    });

    it('when another user manages this agent’s keys, then every operation answers 404 Agent not found', async () => {
      const stranger = await get().signUp();
      const key = await newKey(owner, agentId);
      const answers = await Promise.all([
        stranger.http.get(`/api/v1/agents/${agentId}/keys`),
        stranger.http.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'mine now' }),
        stranger.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`),
        stranger.http.delete(`/api/v1/agents/${agentId}/keys/${key.id}`),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
      }
      expect((await owner.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(200)).body.data.revoked_at).toBeNull();
    });

    it('when the key id names no key of this agent, then 404 Agent key not found', async () => {
      const other = await newAgent(owner, 'other');
      const elsewhere = await newKey(owner, other);
      for (const keyId of ['0190a8f0-0000-7000-8000-000000000000', 'not-a-uuid', elsewhere.id]) {
        const read = await owner.http.get(`/api/v1/agents/${agentId}/keys/${keyId}`);
        expect(read.status).toBe(404);
        expect(read.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent key not found' });
        const revoke = await owner.http.delete(`/api/v1/agents/${agentId}/keys/${keyId}`);
        expect(revoke.status).toBe(404);
        expect(revoke.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent key not found' });
      }
      expect((await owner.http.get(`/api/v1/agents/${other}/keys/${elsewhere.id}`).expect(200)).body.data.revoked_at).toBeNull();
    });

    it('when an agent key manages keys, even its own agent’s, then every operation answers 403', async () => {
      const key = await newKey(owner, agentId);
      const as = asKey(get(), key.secret);
      const answers = await Promise.all([
        as.get(`/api/v1/agents/${agentId}/keys`),
        as.post(`/api/v1/agents/${agentId}/keys`).send({ name: 'escalate' }),
        as.get(`/api/v1/agents/${agentId}/keys/${key.id}`),
        as.delete(`/api/v1/agents/${agentId}/keys/${key.id}`),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'An agent key acts as its agent only: this operation is not open to it' });
      }
      expect((await owner.http.get(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(200)).body.data.revoked_at).toBeNull();
    });

    it('when the cursor is no key of this collection, then 400', async () => {
      const res = await owner.http.get(`/api/v1/agents/${agentId}/keys?cursor=not-a-cursor`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('when the agent is deleted, then its keys go with it and stop working', async () => {
      const doomed = await newAgent(owner, 'doomed');
      const key = await newKey(owner, doomed);
      await asKey(get(), key.secret).get(`/api/v1/agents/${doomed}`).expect(200);
      await owner.http.delete(`/api/v1/agents/${doomed}`).expect(204);
      expect(await get().database.db('agent_keys').where({ id: key.id }).first()).toBeUndefined();
      const res = await asKey(get(), key.secret).get(`/agents/${doomed}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVALID_API_KEY);
    });
  });

  describe('what a key may do', () => {
    const scoped = async (scopes: string[]) => (await newKey(owner, agentId, { name: scopes.join('+') || 'none', scopes })).secret;

    it('when a key has tasks:read, then it reads its agent and its tasks on both surfaces, and may not create tasks', async () => {
      const task = (await owner.http.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'seeded' }).expect(201)).body.data;
      const as = asKey(get(), await scoped(['tasks:read']));
      expect((await as.get(`/api/v1/agents/${agentId}`)).body.data).toMatchObject({ id: agentId });
      expect((await as.get(`/agents/${agentId}`).expect(200)).body).toMatchObject({ id: agentId });
      expect((await as.get(`/api/v1/agents/${agentId}/tasks`).expect(200)).body.data.map((t: { id: string }) => t.id)).toContain(task.id);
      expect((await as.get(`/agents/${agentId}/tasks`).expect(200)).body.map((t: { id: string }) => t.id)).toContain(task.id);
      await as.get(`/api/v1/agents/${agentId}/tasks/${task.id}`).expect(200);
      await as.get(`/agents/${agentId}/tasks/${task.id}`).expect(200);
      const create = await as.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'not allowed' });
      expect(create.status).toBe(403);
      expect(create.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'This agent key lacks the scope tasks:write' });
      const root = await as.post(`/agents/${agentId}/tasks`).send({ title: 'not allowed' });
      expect(root.status).toBe(403);
      expect(root.body).toEqual({ error: 'forbidden', message: 'This agent key lacks the scope tasks:write', detail: 'This agent key lacks the scope tasks:write' });
    });

    it('when a key has tasks:write only, then it queues tasks on its agent and reads nothing', async () => {
      const as = asKey(get(), await scoped(['tasks:write']));
      const created = await as.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'from the agent' });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ agent_id: agentId, title: 'from the agent', status: 'queued' });
      await as.post(`/agents/${agentId}/tasks`).send({ title: 'root too' }).expect(201);
      for (const path of [`/api/v1/agents/${agentId}`, `/api/v1/agents/${agentId}/tasks`, `/api/v1/agents/${agentId}/tasks/${created.body.data.id}`]) {
        const res = await as.get(path);
        expect(res.status).toBe(403);
        expect(res.body.error.message).toBe('This agent key lacks the scope tasks:read');
      }
    });

    it('when a key has tasks:work only, then the reads and writes of tasks are refused for want of their scopes', async () => {
      const as = asKey(get(), await scoped(['tasks:work']));
      expect((await as.get(`/api/v1/agents/${agentId}`)).status).toBe(403);
      expect((await as.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'x' })).status).toBe(403);
    });

    it('when a key reaches for another agent, even its owner’s, then 404 Agent not found', async () => {
      const sibling = await newAgent(owner, 'sibling');
      const as = asKey(get(), await scoped(ALL_SCOPES));
      for (const res of [await as.get(`/api/v1/agents/${sibling}`), await as.get(`/api/v1/agents/${sibling}/tasks`), await as.post(`/api/v1/agents/${sibling}/tasks`).send({ title: 'x' })]) {
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found' });
      }
      const root = await as.get(`/agents/${sibling}`);
      expect(root.status).toBe(404);
      expect(root.body).toMatchObject({ error: 'not_found', message: 'Agent not found' });
      expect(await get().database.db('tasks').where({ agent_id: sibling }).first()).toBeUndefined();
    });

    it('when a key with every scope calls anything else, then 403: users, other collections, changes of its own agent and its tasks', async () => {
      const task = (await owner.http.post(`/api/v1/agents/${agentId}/tasks`).send({ title: 'guarded' }).expect(201)).body.data;
      const as = asKey(get(), await scoped(ALL_SCOPES));
      const refused: Array<[string, () => PromiseLike<{ status: number; body: { error?: { message?: string } | string; message?: string } }>]> = [
        ['GET /api/v1/users', () => as.get('/api/v1/users')],
        ['GET /api/v1/users/{id}', () => as.get(`/api/v1/users/${owner.user.id}`)],
        ['GET /api/v1/me', () => as.get('/api/v1/me')],
        ['GET /api/v1/users/{id}/posts', () => as.get(`/api/v1/users/${owner.user.id}/posts`)],
        ['GET /api/v1/agents', () => as.get('/api/v1/agents')],
        ['GET /agents', () => as.get('/agents')],
        ['POST /api/v1/agents', () => as.post('/api/v1/agents').send({ name: 'spawn', type: 'type_a' })],
        ['POST /agents', () => as.post('/agents').send({ name: 'spawn', type: 'type_a' })],
        ['PATCH /api/v1/agents/{id}', () => as.patch(`/api/v1/agents/${agentId}`).send({ status: 'paused' })],
        ['PUT /agents/{id}', () => as.put(`/agents/${agentId}`).send({ name: 'renamed', type: 'type_a' })],
        ['DELETE /api/v1/agents/{id}', () => as.delete(`/api/v1/agents/${agentId}`)],
        ['PATCH /api/v1/agents/{id}/tasks/{id}', () => as.patch(`/api/v1/agents/${agentId}/tasks/${task.id}`).send({ status: 'running' })],
        ['DELETE /agents/{id}/tasks/{id}', () => as.delete(`/agents/${agentId}/tasks/${task.id}`)],
        ['GET /api/v1/me/connections', () => as.get('/api/v1/me/connections')],
      ];
      for (const [what, send] of refused) {
        const res = await send();
        const message = typeof res.body.error === 'object' ? res.body.error.message : res.body.message;
        expect([what, res.status, message]).toEqual([what, 403, 'An agent key acts as its agent only: this operation is not open to it']);
      }
      expect((await owner.http.get(`/api/v1/agents/${agentId}`).expect(200)).body.data.status).toBe('idle');
      expect((await owner.http.get(`/api/v1/agents/${agentId}/tasks/${task.id}`).expect(200)).body.data.status).toBe('queued');
    });
  });

  describe('keys that no longer work', () => {
    it('when a key is revoked, then it is refused at once with exactly the answer a wrong configured key gets', async () => {
      const key = await newKey(owner, agentId);
      await asKey(get(), key.secret).get(`/agents/${agentId}`).expect(200);
      await owner.http.delete(`/api/v1/agents/${agentId}/keys/${key.id}`).expect(204);
      const revoked = await asKey(get(), key.secret).get(`/agents/${agentId}`);
      const wrong = await asKey(get(), 'not-a-key-of-this-service').get(`/agents/${agentId}`);
      expect(revoked.status).toBe(403);
      expect(revoked.body).toEqual(INVALID_API_KEY);
      expect(revoked.body).toEqual(wrong.body);
      const v1 = await asKey(get(), key.secret).get(`/api/v1/agents/${agentId}`);
      expect(v1.status).toBe(403);
      expect(v1.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Invalid API key' });
    });

    it('when a key is unknown (a made-up afk_ secret, or one altered by a character), then 403 Invalid API key', async () => {
      const key = await newKey(owner, agentId);
      const altered = `${key.secret.slice(0, -1)}${key.secret.endsWith('A') ? 'B' : 'A'}`;
      for (const secret of ['afk_', `afk_${'x'.repeat(51)}`, altered]) {
        const res = await asKey(get(), secret).get(`/agents/${agentId}`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(INVALID_API_KEY);
      }
    });

    it('when a key has expired, then 403 Invalid API key', async () => {
      const key = await newKey(owner, agentId, { name: 'short', expires_in_days: 1 });
      await asKey(get(), key.secret).get(`/agents/${agentId}`).expect(200);
      await get().database.db('agent_keys').where({ id: key.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
      const res = await asKey(get(), key.secret).get(`/agents/${agentId}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVALID_API_KEY);
    });
  });

  describe('last_used_at', () => {
    const lastUsed = async (keyId: string) => (await owner.http.get(`/api/v1/agents/${agentId}/keys/${keyId}`).expect(200)).body.data.last_used_at as string | null;

    it('when a key is used, then last_used_at is set; used again within the minute, it is not written again', async () => {
      const key = await newKey(owner, agentId);
      expect(await lastUsed(key.id)).toBeNull();
      const before = Date.now();
      await asKey(get(), key.secret).get(`/agents/${agentId}`).expect(200);
      const first = await lastUsed(key.id);
      expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 5);
      const updates: string[] = [];
      const listener = (query: { sql: string }) => {
        if (/^update\b.*agent_keys/i.test(query.sql)) updates.push(query.sql);
      };
      get().database.db.on('query', listener);
      try {
        for (let i = 0; i < 5; i++) await asKey(get(), key.secret).get(`/agents/${agentId}`).expect(200);
      } finally {
        get().database.db.off('query', listener);
      }
      expect(updates).toEqual([]);
      expect(await lastUsed(key.id)).toBe(first);
    });

    it('when the last use is more than a minute old, then the next use writes it anew', async () => {
      const key = await newKey(owner, agentId);
      const old = new Date(Date.now() - 61_000).toISOString();
      await get().database.db('agent_keys').where({ id: key.id }).update({ last_used_at: old });
      await asKey(get(), key.secret).get(`/agents/${agentId}`).expect(200);
      const now = await lastUsed(key.id);
      expect(Date.parse(now!)).toBeGreaterThan(Date.parse(old) + 60_000);
    });
  });
});
