import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import knex from 'knex';
import { purgeExpiredKeys } from '../../src/domain/idempotency';
import { createStore } from '../../src/data/store';
import { reachableDatabaseKinds, describeWithPostgres, startTestApp, TEST_API_KEY, type SignedInUser, type TestApp } from '../support/harness';
import { sendRaw } from '../support/raw-http';
import { listeningPort, serviceEnv, useServerProcesses } from '../support/server-process';
import { PG_TEST_URL } from '../support/services';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface PostOptions {
  key?: string;
  /** A user (bearer token), the service key, or nobody. */
  as?: SignedInUser | 'service' | null;
  headers?: Record<string, string>;
  /** Sent as it is instead of JSON.stringify(body). */
  raw?: string;
}

const newKey = () => `key-${randomUUID()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(base: string, method: string, path: string, body: unknown, options: PostOptions, fallback: SignedInUser): Promise<Answer> {
  const as = options.as === undefined ? fallback : options.as;
  const headers: Record<string, string> = { ...options.headers };
  if (as === 'service') headers['X-API-Key'] = TEST_API_KEY;
  else if (as) headers.Authorization = `Bearer ${as.token}`;
  if (options.key !== undefined) headers['Idempotency-Key'] = options.key;
  if (body !== undefined || options.raw !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

/** The headers a replay repeats, as the first answer sent them. */
const repeated = (answer: Answer) => ({
  status: answer.status,
  text: answer.text,
  location: answer.headers.get('location'),
  etag: answer.headers.get('etag'),
  contentType: answer.headers.get('content-type'),
});

describe.each(reachableDatabaseKinds())('Idempotency-Key on creates [%s]', (kind) => {
  let app: TestApp;
  let base: string;
  const post = (path: string, body: unknown, options: PostOptions = {}) => send(base, 'POST', path, body, options, app.user);
  const get = (path: string, as: SignedInUser = app.user) => send(base, 'GET', path, undefined, { as }, app.user);
  const rowsOf = (key: string) => app.database.db('idempotency_keys').where({ key });
  const newAgent = async (as: SignedInUser = app.user) => (await post('/api/v1/agents', { name: 'holder', type: 'type_a' }, { as })).body.data.id as string;

  beforeAll(async () => {
    app = await startTestApp(kind, { logLevel: 'silent' });
    base = await app.listen();
  });
  afterAll(() => app?.close());

  it('when a create is sent again with its key, then the first answer comes back (status, body, Location, ETag, Content-Type) marked replayed, and one agent exists', async () => {
    const key = newKey();
    const name = `replayed-${randomBytes(4).toString('hex')}`;
    const first = await post('/api/v1/agents', { name, type: 'type_b' }, { key });
    const again = await post('/api/v1/agents', { type: 'type_b', name }, { key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(repeated(again)).toEqual(repeated(first));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('location')).toBe(`/api/v1/agents/${first.body.data.id}`);
    const listed = await get('/api/v1/agents?limit=100');
    expect(listed.body.data.filter((agent: { name: string }) => agent.name === name)).toHaveLength(1);
    // The body is compared as parsed JSON: key order and spacing do not make another request.
    const spaced = await post('/api/v1/agents', undefined, { key, raw: `{ "type" : "type_b",\n "name": ${JSON.stringify(name)} }` });
    expect(repeated(spaced)).toEqual(repeated(first));
  });

  it('when the root surface replays a task create, then the bare body and its headers come back', async () => {
    const agent = await post('/agents', { name: 'root', type: 'type_a' });
    const key = newKey();
    const first = await post(`/agents/${agent.body.id}/tasks`, { title: 'once' }, { key });
    const again = await post(`/agents/${agent.body.id}/tasks`, { title: 'once' }, { key });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(repeated(again)).toEqual(repeated(first));
    expect((await get(`/agents/${agent.body.id}/tasks`)).body).toHaveLength(1);
  });

  it('when the same key comes with another body or another path, then the answer is 422 IDEMPOTENCY_KEY_REUSED and nothing is created', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const key = newKey();
    expect((await post(`/api/v1/agents/${agent}/tasks`, { title: 'first' }, { key })).status).toBe(201);
    const otherBody = await post(`/api/v1/agents/${agent}/tasks`, { title: 'second' }, { key });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String), requestId: expect.any(String) } });
    const otherPath = await post(`/api/v1/agents/${other}/tasks`, { title: 'first' }, { key });
    expect(otherPath.status).toBe(422);
    expect(otherPath.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await get(`/api/v1/agents/${other}/tasks`)).body.data).toEqual([]);
    // The root surface speaks its own error shape.
    const rootKey = newKey();
    expect((await post('/agents', { name: 'a', type: 'type_a' }, { key: rootKey })).status).toBe(201);
    const root = await post('/agents', { name: 'b', type: 'type_a' }, { key: rootKey });
    expect(root.status).toBe(422);
    expect(root.body).toEqual({ error: 'idempotency_key_reused', message: expect.any(String) });
  });

  it('when two principals send the same key, then each gets its own create: keys belong to their principal', async () => {
    const other = await app.signUp();
    const key = newKey();
    const mine = await post('/api/v1/agents', { name: 'shared key', type: 'type_a' }, { key });
    const theirs = await post('/api/v1/agents', { name: 'shared key', type: 'type_a' }, { key, as: other });
    const service = await post('/api/v1/agents', { name: 'shared key', type: 'type_a' }, { key, as: 'service' });
    for (const answer of [mine, theirs, service]) {
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([mine.body.data.id, theirs.body.data.id, service.body.data.id]).size).toBe(3);
    expect(await rowsOf(key)).toHaveLength(3);
  });

  it('when an anonymous sign-up is sent again with its key, then it is replayed by client address', async () => {
    const key = newKey();
    const body = { name: 'Anon', email: `anon-${randomBytes(4).toString('hex')}@example.test`, password: 'a long enough password' };
    const first = await post('/api/v1/users', body, { key, as: null });
    const again = await post('/api/v1/users', body, { key, as: null });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(repeated(again)).toEqual(repeated(first));
    expect((await rowsOf(key).first('principal')).principal).toMatch(/^address:/);
  });

  it('when the first request is still running (a long poll), then the same request is 409 IDEMPOTENCY_KEY_IN_USE with Retry-After, and later gets its answer', async () => {
    const agent = await newAgent();
    const key = newKey();
    const waiting = post(`/api/v1/agents/${agent}/leases`, { wait_seconds: 2 }, { key });
    await sleep(400);
    const meanwhile = await post(`/api/v1/agents/${agent}/leases`, { wait_seconds: 2 }, { key });
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    expect(meanwhile.body).toEqual({ error: { code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.any(String), requestId: expect.any(String) } });
    const first = await waiting;
    expect(first.status).toBe(204);
    const later = await post(`/api/v1/agents/${agent}/leases`, { wait_seconds: 2 }, { key });
    expect(later.status).toBe(204);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when 20 identical creates with one key arrive at once, then exactly one agent is created and every answer is that 201 or 409', async () => {
    const key = newKey();
    const name = `stampede-${randomBytes(4).toString('hex')}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/api/v1/agents', { name, type: 'type_a' }, { key })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.data.id)).size).toBe(1);
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const listed = await get('/api/v1/agents?limit=100');
    expect(listed.body.data.filter((agent: { name: string }) => agent.name === name)).toHaveLength(1);
  });

  it('when a request is refused before it runs (validation 400, no credential 401), then nothing is kept and the same key then succeeds', async () => {
    const key = newKey();
    const invalid = await post('/api/v1/agents', { name: '', type: 'type_a' }, { key });
    expect(invalid.status).toBe(400);
    const anonymous = await post('/api/v1/agents', { name: 'ok', type: 'type_a' }, { key, as: null });
    expect(anonymous.status).toBe(401);
    expect(await rowsOf(key)).toEqual([]);
    const valid = await post('/api/v1/agents', { name: 'ok', type: 'type_a' }, { key });
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
  });

  it('when the create fails with a 5xx, then nothing is kept and the same key runs again', async () => {
    const key = newKey();
    const db = app.database.db;
    await db.schema.renameTable('agents', 'agents_gone');
    try {
      expect((await post('/api/v1/agents', { name: 'after a fault', type: 'type_a' }, { key })).status).toBe(500);
    } finally {
      await db.schema.renameTable('agents_gone', 'agents');
    }
    expect(await rowsOf(key)).toEqual([]);
    const retried = await post('/api/v1/agents', { name: 'after a fault', type: 'type_a' }, { key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it("when the handler refuses the create (a paused agent's 409), then that answer is kept and replayed even after the agent resumes", async () => {
    const agent = await newAgent();
    expect((await send(base, 'PATCH', `/api/v1/agents/${agent}`, { status: 'paused' }, {}, app.user)).status).toBe(200);
    const key = newKey();
    const refused = await post(`/api/v1/agents/${agent}/tasks`, { title: 'too early' }, { key });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await send(base, 'PATCH', `/api/v1/agents/${agent}`, { status: 'idle' }, {}, app.user)).status).toBe(200);
    const again = await post(`/api/v1/agents/${agent}/tasks`, { title: 'too early' }, { key });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('when an agent key is created twice with one key, then the secret comes back with no-store, and the table holds it only sealed', async () => {
    const agent = await newAgent();
    const key = newKey();
    const first = await post(`/api/v1/agents/${agent}/keys`, { name: 'worker' }, { key });
    const again = await post(`/api/v1/agents/${agent}/keys`, { name: 'worker' }, { key });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.body.data.secret).toBe(first.body.data.secret);
    const row = await rowsOf(key).first();
    expect(row.body).not.toContain(first.body.data.secret);
    expect(Boolean(row.sealed)).toBe(true);
    expect((await get(`/api/v1/agents/${agent}/keys`)).body.data).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a tab', 'tab\there'],
    ['non-ASCII', 'clé'],
  ])('when the key is %s, then the request is a schema violation (400 under /api, 422 on the root surface) and nothing runs', async (_what, key) => {
    const api = await post('/api/v1/agents', { name: 'bad key', type: 'type_a' }, { key: Buffer.from(key, 'utf8').toString('latin1') });
    expect(api.status).toBe(400);
    expect(api.body.error.code).toBe('VALIDATION_ERROR');
    const root = await post('/agents', { name: 'bad key', type: 'type_a' }, { key: Buffer.from(key, 'utf8').toString('latin1') });
    expect(root.status).toBe(422);
    expect(root.body.details.fields.length).toBeGreaterThan(0);
    for (const field of root.body.details.fields) expect(field).toMatchObject({ in: 'header', field: 'idempotency-key' });
  });

  it('when the key holds a control character, then the request is refused before anything runs', async () => {
    const body = JSON.stringify({ name: 'control', type: 'type_a' });
    const res = await sendRaw(
      base,
      `POST /api/v1/agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.user.token}\r\nIdempotency-Key: a\x01b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(400);
  });

  it('when a key of 255 visible characters is sent, then it is accepted', async () => {
    const key = `${'~'.repeat(254)}!`;
    expect((await post('/api/v1/agents', { name: 'long key', type: 'type_a' }, { key })).status).toBe(201);
    expect((await post('/api/v1/agents', { name: 'long key', type: 'type_a' }, { key })).headers.get('idempotent-replayed')).toBe('true');
  });

  it('when an attempt has been in flight beyond the bound (its process crashed), then the next request with its key takes it over and runs', async () => {
    const key = newKey();
    const minutesAgo = new Date(Date.now() - 120_000).toISOString();
    await app.database.db('idempotency_keys').insert({
      principal: `user:${app.user.user.id}`,
      key,
      fingerprint: 'f'.repeat(64),
      owner: randomUUID(),
      started_at: minutesAgo,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const taken = await post('/api/v1/agents', { name: 'taken over', type: 'type_a' }, { key });
    expect(taken.status).toBe(201);
    expect((await post('/api/v1/agents', { name: 'taken over', type: 'type_a' }, { key })).headers.get('idempotent-replayed')).toBe('true');
  });

  it('when a key has expired, then it is free again (another body runs), and the purge deletes expired keys only', async () => {
    const key = newKey();
    expect((await post('/api/v1/agents', { name: 'before', type: 'type_a' }, { key })).status).toBe(201);
    await rowsOf(key).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const after = await post('/api/v1/agents', { name: 'after', type: 'type_a' }, { key });
    expect(after.status).toBe(201);
    expect(after.body.data.name).toBe('after');
    const kept = newKey();
    expect((await post('/api/v1/agents', { name: 'kept', type: 'type_a' }, { key: kept })).status).toBe(201);
    await rowsOf(key).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await purgeExpiredKeys(createStore(app.database.db))).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(key)).toEqual([]);
    expect(await rowsOf(kept)).toHaveLength(1);
  });
});

/** Two real service processes on one database: a key's answer is in the database, so either replays it. */
describe('Idempotency-Key across two server processes', () => {
  const processes = useServerProcesses();
  const API_KEY = 'idempotency-key-0123456789abcdef';

  async function replayAcross(databaseUrl: string): Promise<void> {
    const env = serviceEnv(API_KEY, { DATABASE_URL: databaseUrl, RATE_LIMIT_API_MAX: '1000000', RATE_LIMIT_USER_MAX: '1000000' });
    const first = processes.spawn(env);
    const port = await listeningPort(first);
    // The second starts once the first has migrated the database.
    const second = processes.spawn(env);
    const otherPort = await listeningPort(second);
    const key = newKey();
    const create = (on: number) =>
      fetch(`http://127.0.0.1:${on}/api/v1/agents`, {
        method: 'POST',
        headers: { 'X-API-Key': API_KEY, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ name: 'across', type: 'type_a' }),
      });
    const created = await create(port);
    const replayed = await create(otherPort);
    expect(created.status).toBe(201);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('location')).toBe(created.headers.get('location'));
    expect(await replayed.text()).toBe(await created.text());
  }

  it('when the key is replayed on another process sharing the SQLite file, then it gets the first answer', async () => {
    await replayAcross(`sqlite:${path.join(processes.tempDir(), 'fleet.sqlite')}`);
  }, 60_000);

  describeWithPostgres('on PostgreSQL', () => {
    it('when the key is replayed on another process sharing the schema, then it gets the first answer', async () => {
      const schema = `idem_${randomBytes(6).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: PG_TEST_URL });
      await admin.raw('create schema ??', [schema]);
      try {
        await replayAcross(`${PG_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`);
      } finally {
        await admin.raw('drop schema ?? cascade', [schema]);
        await admin.destroy();
      }
    }, 60_000);
  });
});
