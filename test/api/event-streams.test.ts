import { createStore } from '../../src/data/store';
import { pruneEvents } from '../../src/domain/events';
import { describeEachDatabase, TEST_API_KEY } from '../support/harness';
import { openEventStream, type EventStreamReader } from '../support/event-stream-client';

describeEachDatabase(
  'event streams (Server-Sent Events over real HTTP)',
  (get) => {
    let base = '';
    const open: EventStreamReader[] = [];
    beforeAll(async () => {
      base = await get().listen();
    });
    afterEach(() => {
      for (const reader of open.splice(0)) reader.close();
    });
    const bearer = (token = get().user.token) => ({ Authorization: `Bearer ${token}` });
    const stream = async (query = '', headers: Record<string, string> = bearer()) => {
      const reader = await openEventStream(`${base}/api/v1/events${query}`, headers);
      open.push(reader);
      return reader;
    };
    const createAgent = async () => (await get().http.post('/api/v1/agents').send({ name: 'streamed', type: 'type_a' }).expect(201)).body.data;
    const createTaskOn = async (agentId: string, title = 'summarise') => (await get().http.post(`/api/v1/agents/${agentId}/tasks`).send({ title }).expect(201)).body.data;
    const pageOf = async (agentId: string) => (await get().http.get('/api/v1/events').query({ agent_id: agentId, limit: 100 }).expect(200)).body.data;

    it('when a stream is open, then it starts with retry, and each new event comes as id, event and data (the Event JSON), with keep-alive comments between', async () => {
      const agent = await createAgent();
      const reader = await stream(`?agent_id=${agent.id}`);
      expect(reader.status).toBe(200);
      expect(reader.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(reader.headers.get('cache-control')).toBe('no-store');
      expect(reader.headers.get('x-request-id')).toEqual(expect.any(String));
      const task = await createTaskOn(agent.id);
      const [message] = await reader.waitFor(1);
      expect(reader.retries).toEqual([3000]);
      const [recorded] = (await pageOf(agent.id)).slice(-1);
      expect(message).toEqual({ id: recorded.id, event: 'task.created', data: JSON.stringify(recorded) });
      expect(JSON.parse(message?.data ?? '{}')).toMatchObject({ type: 'task.created', agent_id: agent.id, task_id: task.id, data: task });
      // EVENTS_HEARTBEAT_MS is 200 here.
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(reader.comments.filter((comment) => comment.trim() === 'keep-alive').length).toBeGreaterThanOrEqual(1);
    });

    it('when a reader reconnects with Last-Event-ID, then it gets every later event once, in order, the history first and then live ones', async () => {
      const agent = await createAgent();
      const first = await stream(`?agent_id=${agent.id}`);
      for (const title of ['a', 'b', 'c']) await createTaskOn(agent.id, title);
      const seen = await first.waitFor(3);
      first.close();
      await first.ended;
      // Missed while away.
      for (const title of ['d', 'e']) await createTaskOn(agent.id, title);
      const resumed = await stream(`?agent_id=${agent.id}`, { ...bearer(), 'Last-Event-ID': seen[1]?.id ?? '' });
      await createTaskOn(agent.id, 'f');
      const after = await resumed.waitFor(4);
      expect(after.map((message) => JSON.parse(message.data).data.title)).toEqual(['c', 'd', 'e', 'f']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(resumed.messages).toHaveLength(4);
      const ids = resumed.messages.map((message) => BigInt(message.id ?? ''));
      expect(ids.every((id, index) => index === 0 || id > (ids[index - 1] as bigint))).toBe(true);
    });

    it("when two users stream, then neither sees the other's agents; an agent key streams its agent's events only", async () => {
      const other = await get().signUp();
      const mine = await createAgent();
      const theirs = (await other.http.post('/api/v1/agents').send({ name: 'theirs', type: 'type_b' }).expect(201)).body.data;
      const key = (await get().http.post(`/api/v1/agents/${mine.id}/keys`).send({ name: 'reader', scopes: ['tasks:read'] }).expect(201)).body.data.secret;
      const asMe = await stream('?types=task.created');
      const asKey = await stream('', { 'X-API-Key': key });
      await other.http.post(`/api/v1/agents/${theirs.id}/tasks`).send({ title: 'not yours' }).expect(201);
      await createTaskOn(mine.id, 'yours');
      const [mineSeen] = await asMe.waitFor(1);
      const [keySeen] = await asKey.waitFor(1);
      expect(JSON.parse(mineSeen?.data ?? '{}').data.title).toBe('yours');
      expect(JSON.parse(keySeen?.data ?? '{}').data.title).toBe('yours');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(asMe.messages).toHaveLength(1);
      expect(asKey.messages).toHaveLength(1);
      await expect(openEventStream(`${base}/api/v1/events?agent_id=${theirs.id}`, { 'X-API-Key': key })).rejects.toMatchObject({ status: 404 });
    });

    const endsWithin = async (reader: EventStreamReader, ms: number) => {
      const outcome = await Promise.race([reader.ended.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, ms, 'still open'))]);
      expect(outcome).toBe('ended');
    };

    it('when the session a stream was opened with ends, then the stream ends within a heartbeat and opening it again is 401', async () => {
      const person = await get().signUp();
      const reader = await stream('', bearer(person.token));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reader.comments.filter((comment) => comment.trim() === 'keep-alive').length).toBeGreaterThanOrEqual(1);
      await person.http.post('/api/auth/logout').expect(204);
      // EVENTS_HEARTBEAT_MS is 200 here.
      await endsWithin(reader, 2000);
      const refused = await openEventStream(`${base}/api/v1/events`, bearer(person.token)).catch((error: { status: number }) => error);
      expect(refused).toMatchObject({ status: 401 });
    });

    it('when the agent key a stream was opened with is revoked, then the stream ends within a heartbeat and opening it again is 403, while the owner’s stream goes on', async () => {
      const agent = await createAgent();
      const key = (await get().http.post(`/api/v1/agents/${agent.id}/keys`).send({ name: 'watcher', scopes: ['tasks:read'] }).expect(201)).body.data;
      const asKey = await stream('', { 'X-API-Key': key.secret });
      const asOwner = await stream(`?agent_id=${agent.id}`);
      await get().http.delete(`/api/v1/agents/${agent.id}/keys/${key.id}`).expect(204);
      await endsWithin(asKey, 2000);
      const refused = await openEventStream(`${base}/api/v1/events`, { 'X-API-Key': key.secret }).catch((error: { status: number }) => error);
      expect(refused).toMatchObject({ status: 403 });
      await createTaskOn(agent.id, 'still watched');
      // The owner (of their personal workspace) reads its audit trail too: the revocation comes first.
      const [revoked, seen] = await asOwner.waitFor(2);
      expect(revoked?.event).toBe('agent_key.revoked');
      expect(JSON.parse(revoked?.data ?? '{}')).toMatchObject({ agent_id: agent.id, workspace_id: get().user.user.id, actor: { type: 'user', id: get().user.user.id }, data: { id: key.id } });
      expect(seen?.event).toBe('task.created');
      expect(JSON.parse(seen?.data ?? '{}').data.title).toBe('still watched');
    });

    it('when a principal already holds its streams, then one more is 429 with Retry-After, until one closes', async () => {
      const reader = await get().signUp();
      const headers = bearer(reader.token);
      const held = [await stream('', headers), await stream('', headers)];
      const refused = await openEventStream(`${base}/api/v1/events`, headers).catch((error: { status: number; body: string; headers: Headers }) => error);
      expect(refused).toMatchObject({ status: 429 });
      const { status, body, headers: answered } = refused as { status: number; body: string; headers: Headers };
      expect(status).toBe(429);
      expect(answered.get('retry-after')).toBe('5');
      expect(JSON.parse(body).error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', message: expect.stringContaining('2 event streams') });
      // Others are not affected.
      await stream('', { 'X-API-Key': TEST_API_KEY });
      held[0]?.close();
      await held[0]?.ended;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await stream('', headers)).status).toBe(200);
    });

    it('when the cursor is older than what was pruned, then the stream is refused with 410 before it starts', async () => {
      const agent = await createAgent();
      const [created] = await pageOf(agent.id);
      await get().database.db('events').where('id', '<=', Number(created.id)).update({ occurred_at: new Date(Date.now() - 500 * 3_600_000).toISOString() });
      await pruneEvents(createStore(get().database.db), 168);
      const refused = await openEventStream(`${base}/api/v1/events`, { ...bearer(), 'Last-Event-ID': '0' }).catch((error: { status: number; body: string }) => error);
      expect(refused).toMatchObject({ status: 410 });
      expect(JSON.parse((refused as { body: string }).body).error.code).toBe('EVENTS_EXPIRED');
    });

    it('when asked for JSON or anything else, then the answer is a page, not a stream', async () => {
      const res = await fetch(`${base}/api/v1/events?limit=1`, { headers: { ...bearer(), Accept: 'text/event-stream;q=0.5, application/json' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ data: expect.any(Array), meta: { hasMore: expect.any(Boolean) } });
    });
  },
  { events: { retentionHours: 168, heartbeatMs: 200, pollMs: 500, streamsPerPrincipal: 2 } },
);
