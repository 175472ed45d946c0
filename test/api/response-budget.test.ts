import { describeEachDatabase, type TestApp } from '../support/harness';

type Item = { id: string } & Record<string, unknown>;
type CursorPage = { data: Item[]; meta: { nextCursor: string | null; hasMore: boolean } };

const KIB = 1024;
/** `{"blob":"xxx…"}` of exactly 64 KiB as JSON: the largest input and result a task may have. */
const fullPayload = (letter: string) => ({ blob: letter.repeat(64 * KIB - '{"blob":""}'.length) });

/**
 * One read can no longer be enormous (OWASP API4): `include` embeds a few summaries, never
 * payloads, and a page of large items stops at the response budget (MAX_RESPONSE_BYTES, 4 MiB by
 * default) with a cursor that continues after its last item.
 */
describeEachDatabase('the response budget', (get) => {
  let base: string;
  let owner: Awaited<ReturnType<TestApp['signUp']>>;
  let headers: Record<string, string>;
  let bigAgent: string;
  /** The big agent's tasks, oldest first. */
  const bigTasks: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, bytes: Buffer.byteLength(text, 'utf8'), body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    base = await get().listen();
    owner = await get().signUp();
    headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
    bigAgent = (await call('POST', '/agents', { name: 'heavy', type: 'type_a' })).body.id;
    for (let i = 0; i < 100; i++) {
      const created = await call('POST', `/agents/${bigAgent}/tasks`, { title: `big ${i}`, input: fullPayload('i') });
      expect(created.status).toBe(201);
      expect((await call('PATCH', `/agents/${bigAgent}/tasks/${created.body.id}`, { status: 'running' })).status).toBe(200);
      expect((await call('PATCH', `/agents/${bigAgent}/tasks/${created.body.id}`, { status: 'succeeded', result: fullPayload('r') })).status).toBe(200);
      bigTasks.push(created.body.id);
    }
  }, 300_000);

  it('when 100 tasks of 64 KiB input and 64 KiB result are listed with limit=100, then the page stays under the budget and its cursor walks every task exactly once', async () => {
    const budget = get().config.maxResponseBytes;
    const first = await call('GET', `/api/v1/agents/${bigAgent}/tasks?limit=100`);
    expect(first.status).toBe(200);
    expect(first.bytes).toBeLessThanOrEqual(budget);
    // About 12.8 MiB in all: the budget holds some tens of them, never all.
    expect(first.body.data.length).toBeGreaterThan(10);
    expect(first.body.data.length).toBeLessThan(100);
    expect(first.body.meta).toEqual({ nextCursor: first.body.data.at(-1).id, hasMore: true });
    expect(first.body.data[0].result).toEqual(fullPayload('r'));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; bytes: number; body: CursorPage } = await call('GET', `/api/v1/agents/${bigAgent}/tasks?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.bytes).toBeLessThanOrEqual(budget);
      expect(page.body.data.length).toBeGreaterThan(0);
      seen.push(...page.body.data.map((task) => task.id));
      cursor = page.body.meta.nextCursor;
      expect(cursor).toBe(page.body.meta.hasMore ? page.body.data.at(-1)?.id : null);
      pages += 1;
    } while (cursor !== null && pages < 50);
    expect(seen).toEqual([...bigTasks].reverse());
    expect(pages).toBeGreaterThanOrEqual(4);
  });

  it('when the root surface lists them with limit=1000, then each page stays under the budget and skip by the count received walks every task once, oldest first', async () => {
    const budget = get().config.maxResponseBytes;
    const seen: string[] = [];
    for (let pages = 0; seen.length < 100 && pages < 50; pages++) {
      const page = await call('GET', `/agents/${bigAgent}/tasks?limit=1000&skip=${seen.length}`);
      expect(page.status).toBe(200);
      expect(page.bytes).toBeLessThanOrEqual(budget);
      expect(page.body.length).toBeGreaterThan(0);
      expect(page.body.length).toBeLessThan(100);
      seen.push(...page.body.map((task: Item) => task.id));
    }
    expect(seen).toEqual(bigTasks);
    expect((await call('GET', `/agents/${bigAgent}/tasks?limit=1000&skip=100`)).body).toEqual([]);
  });

  it('when 100 agents are listed with include=tasks, then each carries at most its 10 newest tasks as summaries, without input or result', async () => {
    for (let i = 0; i < 99; i++) {
      const agent = (await call('POST', '/api/v1/agents', { name: `light ${i}`, type: 'type_b' })).body.data.id;
      if (i % 10 === 0) expect((await call('POST', `/agents/${agent}/tasks`, { title: 'small', input: { n: i } })).status).toBe(201);
    }
    const list = await call('GET', '/api/v1/agents?include=tasks&limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(100);
    // 100 agents, 110 summaries: a few tens of KiB where the full tasks were about 1.2 GiB.
    expect(list.bytes).toBeLessThan(128 * KIB);
    for (const agent of list.body.data as Array<{ id: string; tasks: Item[] }>) {
      expect(agent.tasks.length).toBeLessThanOrEqual(10);
      for (const task of agent.tasks) {
        expect(Object.keys(task).sort()).toEqual(['created_at', 'finished_at', 'id', 'priority', 'started_at', 'status', 'title', 'updated_at']);
      }
    }
    const heavy = (list.body.data as Array<{ id: string; tasks: Item[] }>).find((agent) => agent.id === bigAgent);
    expect(heavy?.tasks.map((task) => task.id)).toEqual([...bigTasks].reverse().slice(0, 10));
    expect(heavy?.tasks[0]).toMatchObject({ status: 'succeeded', title: 'big 99' });

    const one = await call('GET', `/api/v1/agents/${bigAgent}?include=tasks`);
    expect(one.body.data.tasks).toHaveLength(10);
    expect(JSON.stringify(one.body)).not.toMatch(/"(input|result|description|error)"/);
  });

  it('when posts with 300 kB bodies (50,000 characters JSON escapes to six bytes each) are listed, then pages stay under the budget, and include=posts embeds 10 summaries without bodies', async () => {
    const budget = get().config.maxResponseBytes;
    const userPath = `/api/v1/users/${owner.user.id}/posts`;
    const written: string[] = [];
    for (let i = 0; i < 20; i++) {
      const post = await call('POST', userPath, { title: `post ${i}`, body: '\u0001'.repeat(50_000) });
      expect(post.status).toBe(201);
      written.push(post.body.data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; bytes: number; body: CursorPage } = await call('GET', `${userPath}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.bytes).toBeLessThanOrEqual(budget);
      expect(page.body.data.length).toBeLessThan(20);
      seen.push(...page.body.data.map((post) => post.id));
      cursor = page.body.meta.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual([...written].reverse());

    const me = await call('GET', `/api/v1/users/${owner.user.id}?include=posts`);
    expect(me.status).toBe(200);
    expect(me.body.data.posts.map((post: Item) => post.id)).toEqual([...written].reverse().slice(0, 10));
    for (const post of me.body.data.posts) expect(Object.keys(post).sort()).toEqual(['created_at', 'id', 'title', 'updated_at']);
    expect(me.bytes).toBeLessThan(8 * KIB);
  });
});
