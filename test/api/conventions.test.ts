import { describeEachDatabase, TEST_API_KEY, type TestApp } from '../support/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Item = { id: string } & Record<string, unknown>;

/** Follows nextCursor from the first page to the last, returning every item in order. */
async function walk(app: TestApp, http: TestApp['http'], path: string, limit: number, during?: () => Promise<void>): Promise<Item[]> {
  const seen: Item[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await http.get(path).query({ limit, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.data);
    if (during) await during();
    if (!res.body.meta.hasMore) {
      expect(res.body.meta.nextCursor).toBeNull();
      return seen;
    }
    expect(res.body.meta.nextCursor).toBe(res.body.data.at(-1).id);
    cursor = res.body.meta.nextCursor;
  }
  throw new Error(`walking ${path} did not end (${app.config.port})`);
}

describeEachDatabase('the /api/v1 conventions surface', (get) => {
  describe('agents', () => {
    it('when an agent is created, then 201 returns it in the single-item envelope with a Location and an ETag', async () => {
      const res = await get().http.post('/api/v1/agents').send({ name: 'enveloped', type: 'type_a' });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`/api/v1/agents/${res.body.data.id}`);
      expect(res.headers.etag).toMatch(/^"[\x21\x23-\x7e]+"$/);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(UUID),
          owner_id: get().user.user.id,
          workspace_id: get().user.user.id,
          name: 'enveloped',
          type: 'type_a',
          status: 'idle',
          created_at: expect.stringMatching(ISO_MS),
          updated_at: expect.stringMatching(ISO_MS),
          max_concurrency: null,
        },
        meta: { timestamp: expect.stringMatching(ISO_MS) },
      });
      const read = await get().http.get(`/api/v1/agents/${res.body.data.id}`).expect(200);
      expect(read.body.data).toEqual(res.body.data);
      // The root surface shows the same agent, bare: one data layer, two representations.
      await get().http.get(`/agents/${res.body.data.id}`).expect(200, res.body.data);
    });

    it('when 250 agents are walked with cursors, then each comes exactly once, newest first, also while new ones are created', async () => {
      const walker = await get().signUp();
      const created: string[] = [];
      for (let i = 0; i < 250; i++) created.push((await walker.http.post('/agents').send({ name: `walk-${i}`, type: 'type_b' }).expect(201)).body.id);
      let extra = 0;
      const seen = await walk(get(), walker.http, '/api/v1/agents', 40, async () => {
        await walker.http.post('/api/v1/agents').send({ name: `during-${extra++}`, type: 'type_c' }).expect(201);
      });
      const ids = seen.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...created].reverse());
    });

    it('when no limit is given, then 20 come back; when 100 is asked, then up to 100', async () => {
      const walker = await get().signUp();
      for (let i = 0; i < 25; i++) await walker.http.post('/agents').send({ name: `d-${i}`, type: 'type_a' }).expect(201);
      const first = await walker.http.get('/api/v1/agents').expect(200);
      expect(first.body.data).toHaveLength(20);
      expect(first.body.meta).toEqual({ nextCursor: first.body.data[19].id, hasMore: true });
      const all = await walker.http.get('/api/v1/agents?limit=100').expect(200);
      expect(all.body.data).toHaveLength(25);
      expect(all.body.meta).toEqual({ nextCursor: null, hasMore: false });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=0', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1e309', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['cursor=0190a8f0-0000-7000-8000-000000000000&sort=name', 'cursor'],
      ['sort=colour', 'sort'],
      ['sort=name&sort=-name', 'sort'],
      ['sort=--name', 'sort'],
      ['fields=name,password_hash', 'fields'],
      ['fields=owner', 'fields'],
      ['include=owner', 'include'],
      ['status=sleeping', 'status'],
      ['filter[colour][eq]=red', 'filter.colour'],
      ['filter[name][like]=a%25', 'filter.name.like'],
      ['filter[status][gt]=idle', 'filter.status.gt'],
      ['filter[created_at][gte]=yesterday', 'filter.created_at.gte'],
      ['filter[status][in]=idle,asleep', 'filter.status.in'],
      ['filter=name', 'filter'],
      ['colour=red', 'colour'],
    ])('when the query has %s, then 400 VALIDATION_ERROR names %s', async (query, field) => {
      const res = await get().http.get(`/api/v1/agents?${query}`).set('X-Request-ID', 'query-check-1');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          requestId: 'query-check-1',
          details: expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
        },
      });
    });

    it.each([
      "'; drop table agents; --",
      "a' or '1'='1",
      'x%" union select password_hash from users --',
      '\\',
      '%',
      '_',
      'NULL',
    ])('when a filter value is the SQL-ish %p, then it is only ever a value', async (value) => {
      const owner = await get().signUp();
      await owner.http.post('/agents').send({ name: value, type: 'type_a' }).expect(201);
      await owner.http.post('/agents').send({ name: 'plain', type: 'type_a' }).expect(201);
      for (const op of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in']) {
        const res = await owner.http.get('/api/v1/agents').query({ [`filter[name][${op}]`]: value });
        expect(res.status).toBe(200);
      }
      const exact = await owner.http.get('/api/v1/agents').query({ 'filter[name][eq]': value }).expect(200);
      expect(exact.body.data.map((a: Item) => a.name)).toEqual([value]);
      // Both agents and the table are still there.
      expect((await owner.http.get('/api/v1/agents').expect(200)).body.data).toHaveLength(2);
    });

    it.each([
      ['type', 'eq'],
      ['status', 'ne'],
      ['created_at', 'gte'],
      ['updated_at', 'lt'],
      ['status', 'in'],
    ])('when filter[%s][%s] carries SQL, then 400 and never a 500', async (field, op) => {
      const res = await get().http.get('/api/v1/agents').query({ [`filter[${field}][${op}]`]: "idle' or 1=1 --" });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: `filter.${field}.${op}` })]);
    });

    it('when sorted, filtered and restricted to fields, then exactly those items, in that order, with those fields', async () => {
      const owner = await get().signUp();
      for (const [name, type] of [['delta', 'type_a'], ['alpha', 'type_b'], ['charlie', 'type_a'], ['bravo', 'type_c']]) {
        await owner.http.post('/agents').send({ name, type }).expect(201);
      }
      const byName = await owner.http.get('/api/v1/agents?sort=name&fields=name').expect(200);
      expect(byName.body.data.map((a: Item) => a.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(Object.keys(byName.body.data[0]).sort()).toEqual(['id', 'name']);

      const descending = await owner.http.get('/api/v1/agents?sort=-name&filter[type][in]=type_a,type_c').expect(200);
      expect(descending.body.data.map((a: Item) => a.name)).toEqual(['delta', 'charlie', 'bravo']);

      const ranged = await owner.http.get('/api/v1/agents?sort=name&filter[name][gt]=alpha&filter[name][lte]=charlie').expect(200);
      expect(ranged.body.data.map((a: Item) => a.name)).toEqual(['bravo', 'charlie']);

      const notA = await owner.http.get('/api/v1/agents?filter[type][ne]=type_a&sort=created_at').expect(200);
      expect(notA.body.data.map((a: Item) => a.name)).toEqual(['alpha', 'bravo']);
    });

    it('when filter[field][contains] is given, then it matches anywhere, ignoring case, with % and _ as plain characters', async () => {
      const owner = await get().signUp();
      for (const name of ['Nightly Report', 'report-2026', 'reprt', '100% done', '100 done', 'a_b', 'axb']) {
        await owner.http.post('/agents').send({ name, type: 'type_a' }).expect(201);
      }
      const names = async (text: string) =>
        (await owner.http.get('/api/v1/agents').query({ sort: 'name', 'filter[name][contains]': text }).expect(200)).body.data.map((a: Item) => a.name);
      expect(await names('REPORT')).toEqual(['Nightly Report', 'report-2026']);
      expect(await names('0%')).toEqual(['100% done']);
      expect(await names('_')).toEqual(['a_b']);
      const empty = await owner.http.get('/api/v1/agents').query({ 'filter[name][contains]': '' }).expect(400);
      expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('when a sorted collection is walked with cursors, then the order holds across pages', async () => {
      const owner = await get().signUp();
      const names = ['m', 'c', 'x', 'a', 'q', 'c', 'b', 'z', 'k', 'c'];
      for (const name of names) await owner.http.post('/agents').send({ name, type: 'type_a' }).expect(201);
      const seen = await walk(get(), owner.http, '/api/v1/agents?sort=name', 3);
      expect(seen.map((a) => a.name)).toEqual([...names].sort());
      expect(new Set(seen.map((a) => a.id)).size).toBe(names.length);
    });

    it('when filtered by time, then the bounds apply', async () => {
      const owner = await get().signUp();
      const first = (await owner.http.post('/agents').send({ name: 'early', type: 'type_a' }).expect(201)).body;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = (await owner.http.post('/agents').send({ name: 'late', type: 'type_a' }).expect(201)).body;
      const after = await owner.http.get('/api/v1/agents').query({ 'filter[created_at][gt]': first.created_at }).expect(200);
      expect(after.body.data.map((a: Item) => a.id)).toEqual([second.id]);
      const until = await owner.http.get('/api/v1/agents').query({ 'filter[created_at][lte]': first.created_at }).expect(200);
      expect(until.body.data.map((a: Item) => a.id)).toEqual([first.id]);
    });

    it('when include=tasks is asked, then each agent carries its newest tasks', async () => {
      const owner = await get().signUp();
      const agent = (await owner.http.post('/agents').send({ name: 'with tasks', type: 'type_a' }).expect(201)).body;
      const idle = (await owner.http.post('/agents').send({ name: 'no tasks', type: 'type_a' }).expect(201)).body;
      const t1 = (await owner.http.post(`/agents/${agent.id}/tasks`).send({ title: 'one' }).expect(201)).body;
      const t2 = (await owner.http.post(`/agents/${agent.id}/tasks`).send({ title: 'two' }).expect(201)).body;
      const list = await owner.http.get('/api/v1/agents?include=tasks').expect(200);
      const byId = new Map(list.body.data.map((a: Item) => [a.id, a]));
      expect((byId.get(agent.id) as { tasks: Item[] }).tasks.map((t) => t.id)).toEqual([t2.id, t1.id]);
      // Embedded tasks are summaries: their state, never their payloads.
      expect(Object.keys((byId.get(agent.id) as { tasks: Item[] }).tasks[0] ?? {}).sort()).toEqual(
        ['created_at', 'finished_at', 'id', 'priority', 'started_at', 'status', 'title', 'updated_at'],
      );
      expect((byId.get(idle.id) as { tasks: Item[] }).tasks).toEqual([]);
      const one = await owner.http.get(`/api/v1/agents/${agent.id}?include=tasks&fields=name`).expect(200);
      expect(Object.keys(one.body.data).sort()).toEqual(['id', 'name', 'tasks']);
    });

    it('when an agent is replaced, patched and deleted, then the envelope and the status codes follow the spec', async () => {
      const agent = (await get().http.post('/api/v1/agents').send({ name: 'v1', type: 'type_a' }).expect(201)).body.data;
      const replaced = await get().http.put(`/api/v1/agents/${agent.id}`).send({ name: 'v1b', type: 'type_c' }).expect(200);
      expect(replaced.body.data).toMatchObject({ id: agent.id, name: 'v1b', type: 'type_c', status: 'idle' });
      const patched = await get().http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
      expect(patched.body.data.status).toBe('paused');
      const conflict = await get().http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'running' });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('CONFLICT');
      await get().http.delete(`/api/v1/agents/${agent.id}`).expect(204, '');
      const gone = await get().http.get(`/api/v1/agents/${agent.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found', requestId: expect.any(String) } });
    });

    it("when another user's agent is asked for, then 404 NOT_FOUND, and listings never show it", async () => {
      const other = await get().signUp();
      const theirs = (await other.http.post('/api/v1/agents').send({ name: 'theirs', type: 'type_a' }).expect(201)).body.data;
      expect((await get().http.get(`/api/v1/agents/${theirs.id}`)).status).toBe(404);
      expect((await get().http.patch(`/api/v1/agents/${theirs.id}`).send({ name: 'mine' })).status).toBe(404);
      const mine = await get().http.get('/api/v1/agents?limit=100').expect(200);
      expect(mine.body.data.map((a: Item) => a.id)).not.toContain(theirs.id);
    });
  });

  describe('tasks', () => {
    it('when tasks are created and listed, then they are enveloped, cursor-paginated and filterable', async () => {
      const owner = await get().signUp();
      const agent = (await owner.http.post('/api/v1/agents').send({ name: 'worker', type: 'type_a' }).expect(201)).body.data;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await owner.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: `t${i}`, priority: i % 3 }).expect(201);
        expect(res.headers.location).toBe(`/api/v1/agents/${agent.id}/tasks/${res.body.data.id}`);
        ids.push(res.body.data.id);
      }
      const seen = await walk(get(), owner.http, `/api/v1/agents/${agent.id}/tasks`, 3);
      expect(seen.map((t) => t.id)).toEqual([...ids].reverse());

      const urgent = await owner.http.get(`/api/v1/agents/${agent.id}/tasks?filter[priority][gte]=2&sort=title&fields=title,priority`).expect(200);
      expect(urgent.body.data).toEqual([
        { id: ids[2], title: 't2', priority: 2 },
        { id: ids[5], title: 't5', priority: 2 },
      ]);
      const some = await owner.http.get(`/api/v1/agents/${agent.id}/tasks?filter[priority][in]=0,1&status=queued`).expect(200);
      expect(some.body.data).toHaveLength(5);

      await owner.http.patch(`/api/v1/agents/${agent.id}/tasks/${ids[0]}`).send({ status: 'running' }).expect(200);
      const running = await owner.http.get(`/api/v1/agents/${agent.id}/tasks?status=running`).expect(200);
      expect(running.body.data.map((t: Item) => t.id)).toEqual([ids[0]]);
      await owner.http.delete(`/api/v1/agents/${agent.id}/tasks/${ids[1]}`).expect(204);
      expect((await owner.http.get(`/api/v1/agents/${agent.id}/tasks/${ids[1]}`)).status).toBe(404);
    });
  });

  describe('users', () => {
    it('when an admin lists users, then pages are numbered with total, page and limit', async () => {
      const admin = await get().signUp({ role: 'admin' });
      const total = (await admin.http.get('/api/v1/users?limit=1').expect(200)).body.meta.total as number;
      const first = await admin.http.get('/api/v1/users?page=1&limit=2').expect(200);
      expect(first.body.meta).toEqual({ total, page: 1, limit: 2 });
      expect(first.body.data).toHaveLength(Math.min(2, total));
      const beyond = await admin.http.get(`/api/v1/users?page=${total + 1}&limit=1`).expect(200);
      expect(beyond.body).toEqual({ data: [], meta: { total, page: total + 1, limit: 1 } });

      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(total / 3); page++) {
        pages.push(...(await admin.http.get(`/api/v1/users?page=${page}&limit=3`).expect(200)).body.data.map((u: Item) => u.id));
      }
      expect(new Set(pages).size).toBe(total);
    });

    it.each(['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'sort=password', 'fields=password', 'fields=password_hash', 'filter[password_hash][eq]=x'])(
      'when an admin lists users with %s, then 400 VALIDATION_ERROR',
      async (query) => {
        const admin = await get().signUp({ role: 'admin' });
        const res = await admin.http.get(`/api/v1/users?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.text).not.toMatch(/argon2/);
      },
    );

    it('when users are filtered, sorted and restricted to fields, then no password hash ever shows', async () => {
      const admin = await get().signUp({ role: 'admin' });
      const res = await admin.http.get('/api/v1/users?fields=email,role&sort=-email&filter[role][eq]=admin&include=posts').expect(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const user of res.body.data) expect(Object.keys(user).sort()).toEqual(['email', 'id', 'posts', 'role']);
      expect(res.body.data.every((u: Item) => u.role === 'admin')).toBe(true);
      const emails = res.body.data.map((u: Item) => u.email as string);
      expect(emails).toEqual([...emails].sort().reverse());
      expect(res.text).not.toMatch(/password|argon2/);
    });

    it('when a plain user or an API key lists users, then 403 FORBIDDEN', async () => {
      const res = await get().http.get('/api/v1/users');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect((await get().anonymous.get('/api/v1/users').set('X-API-Key', TEST_API_KEY)).status).toBe(403);
    });

    it('when a user reads, replaces, patches and deletes themself, then each works; another user is 404 to them, and their e-mail 409 to a patch or a replace', async () => {
      const me = await get().signUp();
      const other = await get().signUp();
      const read = await me.http.get(`/api/v1/users/${me.user.id}`).expect(200);
      expect(read.body.data).toEqual({ ...me.user });
      expect((await me.http.get(`/api/v1/users/${other.user.id}`)).status).toBe(404);
      expect((await me.http.patch(`/api/v1/users/${other.user.id}`).send({ name: 'x' })).status).toBe(404);
      expect((await me.http.delete(`/api/v1/users/${other.user.id}`)).status).toBe(404);

      const replaced = await me.http
        .put(`/api/v1/users/${me.user.id}`)
        .send({ name: '  Renamed  ', email: `Renamed-${me.user.id}@Example.TEST`, current_password: me.password })
        .expect(200);
      expect(replaced.body.data).toMatchObject({ name: 'Renamed', email: `renamed-${me.user.id}@example.test`, age: null, role: 'user' });
      const patched = await me.http.patch(`/api/v1/users/${me.user.id}`).send({ age: 42 }).expect(200);
      expect(patched.body.data).toMatchObject({ name: 'Renamed', age: 42 });

      const taken = await me.http.patch(`/api/v1/users/${me.user.id}`).send({ email: other.user.email.toUpperCase(), current_password: me.password });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('CONFLICT');
      const takenByReplace = await me.http.put(`/api/v1/users/${me.user.id}`).send({ name: 'Renamed', email: other.user.email, age: 42, current_password: me.password });
      expect(takenByReplace.status).toBe(409);
      expect(takenByReplace.headers['content-type']).toMatch(/^application\/json/);
      expect(takenByReplace.body).toEqual({ error: { code: 'CONFLICT', message: 'A user with this email already exists', requestId: takenByReplace.headers['x-request-id'] } });

      for (const body of [{ role: 'admin' }, { id: other.user.id }, { password_hash: 'x' }, {}, { age: 151 }, { name: '' }]) {
        const res = await me.http.patch(`/api/v1/users/${me.user.id}`).send(body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
      expect((await me.http.get(`/api/v1/users/${me.user.id}`).expect(200)).body.data.role).toBe('user');

      await me.http.patch(`/api/v1/users/${me.user.id}`).send({ password: 'a brand new password', current_password: me.password }).expect(200);
      const login = await get().anonymous.post('/api/auth/login').send({ email: `renamed-${me.user.id}@example.test`, password: 'a brand new password' });
      expect(login.status).toBe(200);

      await me.http.delete(`/api/v1/users/${me.user.id}`).expect(204);
      expect((await me.http.get('/api/v1/me')).status).toBe(401);
    });

    it('when a user is deleted, then their agents, tasks and posts go with them', async () => {
      const admin = await get().signUp({ role: 'admin' });
      const doomed = await get().signUp();
      const agent = (await doomed.http.post('/agents').send({ name: 'doomed', type: 'type_a' }).expect(201)).body;
      await doomed.http.post(`/agents/${agent.id}/tasks`).send({ title: 'doomed task' }).expect(201);
      await doomed.http.post(`/api/v1/users/${doomed.user.id}/posts`).send({ title: 'last words' }).expect(201);
      await admin.http.delete(`/api/v1/users/${doomed.user.id}`).expect(204);
      expect((await admin.http.get(`/agents/${agent.id}`)).status).toBe(404);
      expect((await admin.http.get(`/api/v1/users/${doomed.user.id}/posts`)).status).toBe(404);
    });
  });

  describe('posts', () => {
    it('when a user writes posts, then anyone signed in reads them newest first, and nobody else writes them', async () => {
      const author = await get().signUp();
      const reader = await get().signUp();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await author.http.post(`/api/v1/users/${author.user.id}/posts`).send({ title: `post ${i}`, body: 'x'.repeat(i) }).expect(201);
        expect(res.body.data).toMatchObject({ user_id: author.user.id, title: `post ${i}`, body: 'x'.repeat(i) });
        ids.push(res.body.data.id);
      }
      const seen = await walk(get(), reader.http, `/api/v1/users/${author.user.id}/posts`, 2);
      expect(seen.map((p) => p.id)).toEqual([...ids].reverse());
      const viaKey = await get().anonymous.get(`/api/v1/users/${author.user.id}/posts?fields=title&sort=title&limit=2`).set('X-API-Key', TEST_API_KEY).expect(200);
      expect(viaKey.body.data).toEqual([
        { id: ids[0], title: 'post 0' },
        { id: ids[1], title: 'post 1' },
      ]);

      const forged = await reader.http.post(`/api/v1/users/${author.user.id}/posts`).send({ title: 'not mine' });
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('FORBIDDEN');
      const admin = await get().signUp({ role: 'admin' });
      await admin.http.post(`/api/v1/users/${author.user.id}/posts`).send({ title: 'moderator note' }).expect(201);

      for (const body of [{ title: '' }, { title: 'x'.repeat(201) }, { title: 'ok', body: 'x'.repeat(50_001) }, { title: 'ok', user_id: reader.user.id }]) {
        expect((await author.http.post(`/api/v1/users/${author.user.id}/posts`).send(body)).status).toBe(400);
      }
      expect((await reader.http.get('/api/v1/users/0190a8f0-0000-7000-8000-000000000000/posts')).status).toBe(404);
    });
  });

  describe('errors', () => {
    it('when an /api route does not exist or the method is wrong, then 404 and 405 in the convention envelope', async () => {
      const missing = await get().http.get('/api/v1/nothing-here');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });
      const wrong = await get().http.put('/api/v1/agents');
      expect(wrong.status).toBe(405);
      expect(wrong.body.error.code).toBe('METHOD_NOT_ALLOWED');
    });

    it('when an /api body is not JSON or too large, then 415 and 413 in the envelope', async () => {
      const text = await get().http.post('/api/v1/agents').set('Content-Type', 'text/plain').send('hello');
      expect(text.status).toBe(415);
      expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const large = await get().http.post('/api/v1/agents').send({ name: 'a', type: 'type_a', pad: 'x'.repeat(1024 * 1024 + 1) });
      expect(large.status).toBe(413);
      expect(large.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});
