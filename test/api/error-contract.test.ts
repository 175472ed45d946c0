import supertest from 'supertest';
import { createAgentFleetClient, type AgentFleetClient } from '../../src/client';
import { buildApp } from '../../src/app';
import { createTokenService } from '../../src/auth/tokens';
import { createLogger } from '../../src/logger';
import { loadContract, type Contract, type ObservedResponse } from '../support/fuzzer/contract';
import { describeEachDatabase, openTestDatabase, TEST_API_KEY, testConfig, type SignedInUser } from '../support/harness';
import { sendRaw } from '../support/raw-http';

const MISSING = '0190a8f0-0000-7000-8000-000000000000';
const QUOTAS = { agentsPerUser: 2, tasksPerAgent: 2, storedBytesPerUser: 40_000 };

/** The code an error body carries, on either surface. */
function codeOf(body: unknown): unknown {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : error;
}

function observed(method: string, target: string, res: { status: number; headers: Record<string, string>; body: string }): ObservedResponse {
  return { method, target, status: res.status, headers: res.headers, body: Buffer.from(res.body) };
}

/**
 * api.yaml narrows each error status to the code (or the few codes) every path producing it uses.
 * Here each status is produced for real on both surfaces and checked against its declared response
 * by the contract oracle (the fuzzer's), because the service's own response validation never sees
 * the errors raised before it (authentication, body parsing, request validation, rate limits).
 */
describeEachDatabase(
  'error codes narrowed per status',
  (get, kind) => {
    let base: string;
    let contract: Contract;
    let owner: SignedInUser;

    /** One request over real HTTP, as the contract oracle sees it. */
    const send = async (method: string, target: string, init: { headers?: Record<string, string>; body?: string; as?: SignedInUser | null } = {}) => {
      const credential: Record<string, string> = init.as === null ? {} : { authorization: `Bearer ${(init.as ?? owner).token}` };
      const res = await fetch(`${base}${target}`, { method, headers: { ...credential, ...init.headers }, body: init.body });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return observed(method, target, { status: res.status, headers, body: await res.text() });
    };
    const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
    const expectDeclared = (res: ObservedResponse, status: number, code: string) => {
      expect({ status: res.status, code: codeOf(JSON.parse(res.body.toString('utf8'))) }).toEqual({ status, code });
      expect(contract.check(res)).toEqual({ ok: true, template: expect.any(String) });
    };
    /** An agent of a user of its own, so that the agents-per-user quota never gets in the way. */
    const newAgent = async (): Promise<{ id: string; as: SignedInUser; client: AgentFleetClient }> => {
      const as = await get().signUp();
      const { id } = (await as.http.post('/agents').send({ name: 'errors', type: 'type_a' }).expect(201)).body as { id: string };
      return { id, as, client: createAgentFleetClient({ baseUrl: base, headers: { authorization: `Bearer ${as.token}` } }) };
    };

    beforeAll(async () => {
      base = await get().listen();
      contract = await loadContract();
      owner = await get().signUp();
    });

    describe('/api/v1', () => {
      it('when the query breaks the schema, the JSON is malformed or Node refuses the framing, then 400 VALIDATION_ERROR, details a list of fields when there are any', async () => {
        const schema = await send('GET', '/api/v1/agents?limit=0');
        expectDeclared(schema, 400, 'VALIDATION_ERROR');
        expect(JSON.parse(schema.body.toString()).error.details).toEqual([{ field: 'limit', message: expect.any(String) }]);
        const malformed = await send('POST', '/api/v1/agents', { headers: { 'content-type': 'application/json' }, body: '{"name":' });
        expectDeclared(malformed, 400, 'VALIDATION_ERROR');
        expect(JSON.parse(malformed.body.toString()).error.details).toBeUndefined();
        const raw = await sendRaw(base, 'GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
        expectDeclared(observed('GET', '/api/v1/agents', raw), 400, 'VALIDATION_ERROR');
      });

      it('when the body is JSON but not an object (null, a string, an array), then 400 names the body, not malformed JSON; a blank name says it is blank', async () => {
        for (const text of ['null', '"agent"', '[]', '7']) {
          const res = await send('POST', '/api/v1/agents', { headers: { 'content-type': 'application/json' }, body: text });
          expectDeclared(res, 400, 'VALIDATION_ERROR');
          expect(JSON.parse(res.body.toString()).error).toMatchObject({ message: 'Request validation failed', details: [{ field: '(body)', message: 'must be object' }] });
        }
        const blank = await send('POST', '/api/v1/agents', json({ name: '   ', type: 'type_a' }));
        expectDeclared(blank, 400, 'VALIDATION_ERROR');
        expect(JSON.parse(blank.body.toString()).error.details).toEqual([{ field: 'name', message: 'must not be blank' }]);
      });

      it('when a 1 MiB body holds 120,000 invalid items, then 400 lists the first 20 and says how many more, in a body of a few kilobytes', async () => {
        const types = Array.from({ length: 120_000 }, (_, i) => `x${i % 10}`);
        const res = await send('POST', '/api/v1/webhooks', json({ url: 'https://hooks.example.test/in', types }));
        expectDeclared(res, 400, 'VALIDATION_ERROR');
        expect(res.body.length).toBeLessThan(16_384);
        const { error } = JSON.parse(res.body.toString()) as { error: { message: string; details: unknown[]; detailsOmitted: number } };
        expect(error.details).toHaveLength(20);
        expect(error.detailsOmitted).toBeGreaterThanOrEqual(120_000 - 20);
        expect(error.message).toBe(`Request validation failed: ${error.detailsOmitted + 20} problems, the first 20 listed`);
        const few = await send('POST', '/api/v1/webhooks', json({ url: 'https://hooks.example.test/in', types: ['nope'] }));
        expectDeclared(few, 400, 'VALIDATION_ERROR');
        expect(JSON.parse(few.body.toString()).error).not.toHaveProperty('detailsOmitted');
      });

      it('when the credential is missing or wrong, then 401 UNAUTHORIZED; a plain user listing users, 403 FORBIDDEN', async () => {
        expectDeclared(await send('GET', '/api/v1/agents', { as: null }), 401, 'UNAUTHORIZED');
        expectDeclared(await send('GET', '/api/v1/me', { as: null, headers: { authorization: 'Bearer nonsense' } }), 401, 'UNAUTHORIZED');
        expectDeclared(await send('GET', '/api/v1/users'), 403, 'FORBIDDEN');
      });

      it('when nothing has the id or the path, then 404 NOT_FOUND; a method the path lacks, 405 METHOD_NOT_ALLOWED', async () => {
        expectDeclared(await send('GET', `/api/v1/agents/${MISSING}`), 404, 'NOT_FOUND');
        expectDeclared(await send('GET', `/api/v1/agents/${MISSING}/tasks/${MISSING}`), 404, 'NOT_FOUND');
        expectDeclared(await send('GET', '/api/v1/nowhere'), 404, 'NOT_FOUND');
        expectDeclared(await send('PUT', '/api/v1/agents'), 405, 'METHOD_NOT_ALLOWED');
      });

      it('when a change conflicts, then 409 CONFLICT; beyond a quota, 409 QUOTA_EXCEEDED with QuotaUsage details the generated types know', async () => {
        expectDeclared(await send('POST', '/api/v1/users', { as: null, ...json({ name: 'Dup', email: owner.user.email, password: 'long enough password' }) }), 409, 'CONFLICT');
        const agent = await newAgent();
        await agent.as.http.patch(`/api/v1/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
        expectDeclared(await send('PATCH', `/api/v1/agents/${agent.id}`, { as: agent.as, ...json({ status: 'running' }) }), 409, 'CONFLICT');

        const full = await newAgent();
        for (let i = 0; i < QUOTAS.tasksPerAgent; i++) await full.as.http.post(`/api/v1/agents/${full.id}/tasks`).send({ title: `t${i}` }).expect(201);
        const { data, error, response } = await full.client.POST('/api/v1/agents/{agent_id}/tasks', { params: { path: { agent_id: full.id } }, body: { title: 'one too many', priority: 0 } });
        expect(data).toBeUndefined();
        expect(response.status).toBe(409);
        // The compiler narrows the union of declared error bodies by the code: `details` is a QuotaUsage.
        if (error?.error.code !== 'QUOTA_EXCEEDED') throw new Error(`expected QUOTA_EXCEEDED, got ${JSON.stringify(error)}`);
        const { quota, limit, usage } = error.error.details;
        expect({ quota, limit, usage }).toEqual({ quota: 'tasks_per_agent', limit: QUOTAS.tasksPerAgent, usage: QUOTAS.tasksPerAgent });
        expectDeclared(await send('POST', `/api/v1/agents/${full.id}/tasks`, { as: full.as, ...json({ title: 'again' }) }), 409, 'QUOTA_EXCEEDED');

        const crowded = await get().signUp();
        for (let i = 0; i < QUOTAS.agentsPerUser; i++) await crowded.http.post('/api/v1/agents').send({ name: `a${i}`, type: 'type_a' }).expect(201);
        expectDeclared(await send('POST', '/api/v1/agents', { as: crowded, ...json({ name: 'one more', type: 'type_a' }) }), 409, 'QUOTA_EXCEEDED');
        const author = await get().signUp();
        expectDeclared(await send('POST', `/api/v1/users/${author.user.id}/posts`, { as: author, ...json({ title: 'long', body: 'x'.repeat(45_000) }) }), 409, 'QUOTA_EXCEEDED');
      });

      it('when If-Match is stale, then 412 PRECONDITION_FAILED; too large a body, 413; not JSON, 415', async () => {
        const agent = await newAgent();
        const stale = { as: agent.as, headers: { 'content-type': 'application/json', 'if-match': '"stale"' } };
        expectDeclared(await send('PUT', `/api/v1/agents/${agent.id}`, { ...stale, body: JSON.stringify({ name: 'x', type: 'type_a' }) }), 412, 'PRECONDITION_FAILED');
        expectDeclared(await send('GET', `/api/v1/agents/${agent.id}`, stale), 412, 'PRECONDITION_FAILED');
        expectDeclared(await send('POST', '/api/v1/agents', json({ name: 'x'.repeat(get().config.maxBodyBytes), type: 'type_a' })), 413, 'PAYLOAD_TOO_LARGE');
        expectDeclared(await send('POST', '/api/v1/agents', { headers: { 'content-type': 'text/plain' }, body: 'name=x' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
        expectDeclared(await send('POST', '/api/v1/agents', { headers: { 'content-type': 'application/json', 'content-encoding': 'compress' }, body: '{}' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      });
    });

    describe('the root surface', () => {
      it('when the JSON is malformed or a value breaks a rule, then 400 validation_error; a schema violation, 422 with the fields', async () => {
        expectDeclared(await send('POST', '/agents', { headers: { 'content-type': 'application/json' }, body: '{"name":' }), 400, 'validation_error');
        const agent = await newAgent();
        const task = (await agent.as.http.post(`/agents/${agent.id}/tasks`).send({ title: 'rule' }).expect(201)).body as { id: string };
        const rule = await send('PATCH', `/agents/${agent.id}/tasks/${task.id}`, { as: agent.as, ...json({ status: 'running', result: 1 }) });
        expectDeclared(rule, 400, 'validation_error');
        expect(JSON.parse(rule.body.toString()).details).toEqual({ fields: [expect.objectContaining({ field: 'result' })] });
        expectDeclared(await send('POST', '/agents', json({ name: '', type: 'type_a' })), 422, 'validation_error');
      });

      it('when the body is null, then 422 names the body as a schema violation, not as malformed JSON', async () => {
        const res = await send('POST', '/agents', { headers: { 'content-type': 'application/json' }, body: 'null' });
        expectDeclared(res, 422, 'validation_error');
        expect(JSON.parse(res.body.toString()).details).toEqual({ fields: [{ field: '(body)', in: 'body', message: 'must be object' }] });
      });

      it('when a body holds 50,000 unknown fields, then 422 lists the first 20 fields and says how many more', async () => {
        const body: Record<string, unknown> = { name: 'x', type: 'type_a' };
        for (let i = 0; i < 50_000; i++) body[`extra${i}`] = i;
        const res = await send('POST', '/agents', json(body));
        expectDeclared(res, 422, 'validation_error');
        expect(res.body.length).toBeLessThan(8192);
        const { message, details } = JSON.parse(res.body.toString()) as { message: string; details: { fields: unknown[]; omitted: number } };
        expect(details.fields).toHaveLength(20);
        expect(details.omitted).toBe(50_000 - 20);
        expect(message).toBe('Request validation failed: 50000 problems, the first 20 listed');
      });

      it('when the credential is missing, then 401 unauthorized; a wrong API key, 403 forbidden', async () => {
        expectDeclared(await send('GET', '/agents', { as: null }), 401, 'unauthorized');
        expectDeclared(await send('GET', '/protected', { as: null, headers: { 'x-api-key': TEST_API_KEY } }), 401, 'unauthorized');
        expectDeclared(await send('GET', '/agents', { as: null, headers: { 'x-api-key': 'wrong' } }), 403, 'forbidden');
      });

      it('when nothing has the id or the path, then 404 not_found; a method the path lacks, 405 method_not_allowed', async () => {
        expectDeclared(await send('GET', `/agents/${MISSING}`), 404, 'not_found');
        expectDeclared(await send('DELETE', `/agents/${MISSING}/tasks/${MISSING}`), 404, 'not_found');
        expectDeclared(await send('GET', '/docs/nothing.js'), 404, 'not_found');
        expectDeclared(await send('GET', '/nowhere'), 404, 'not_found');
        expectDeclared(await send('PUT', '/agents'), 405, 'method_not_allowed');
      });

      it('when a change conflicts, then 409 state_conflict; beyond a quota, 409 quota_exceeded whose details the generated types know', async () => {
        const agent = await newAgent();
        await agent.as.http.patch(`/agents/${agent.id}`).send({ status: 'paused' }).expect(200);
        expectDeclared(await send('PATCH', `/agents/${agent.id}`, { as: agent.as, ...json({ status: 'running' }) }), 409, 'state_conflict');
        expectDeclared(await send('POST', `/agents/${agent.id}/tasks`, { as: agent.as, ...json({ title: 'paused' }) }), 409, 'state_conflict');

        const full = await newAgent();
        for (let i = 0; i < QUOTAS.tasksPerAgent; i++) await full.as.http.post(`/agents/${full.id}/tasks`).send({ title: `t${i}` }).expect(201);
        const { error, response } = await full.client.POST('/agents/{agent_id}/tasks', { params: { path: { agent_id: full.id } }, body: { title: 'one too many', priority: 0 } });
        expect(response.status).toBe(409);
        if (error?.error !== 'quota_exceeded') throw new Error(`expected quota_exceeded, got ${JSON.stringify(error)}`);
        expect(error.details.limit).toBe(QUOTAS.tasksPerAgent);
        expectDeclared(await send('POST', `/agents/${full.id}/tasks`, { as: full.as, ...json({ title: 'again' }) }), 409, 'quota_exceeded');

        const crowded = await get().signUp();
        for (let i = 0; i < QUOTAS.agentsPerUser; i++) await crowded.http.post('/agents').send({ name: `a${i}`, type: 'type_a' }).expect(201);
        expectDeclared(await send('POST', '/agents', { as: crowded, ...json({ name: 'one more', type: 'type_a' }) }), 409, 'quota_exceeded');
      });

      it('when If-Match is stale, then 412 precondition_failed; too large a body, 413; not JSON, 415', async () => {
        const agent = await newAgent();
        expectDeclared(await send('DELETE', `/agents/${agent.id}`, { as: agent.as, headers: { 'if-match': '"stale"' } }), 412, 'precondition_failed');
        expectDeclared(await send('GET', '/agents', { headers: { 'if-match': '"stale"' } }), 412, 'precondition_failed');
        expectDeclared(await send('POST', '/agents', json({ name: 'x'.repeat(get().config.maxBodyBytes), type: 'type_a' })), 413, 'payload_too_large');
        expectDeclared(await send('POST', '/agents', { headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'unsupported_media_type');
      });

      it('when /token fails outside the protocol, then its own narrowed codes: 415 invalid_request', async () => {
        const res = await send('POST', '/token', { as: null, ...json({ grant_type: 'password' }) });
        expect(res.status).toBe(415);
        expect(JSON.parse(res.body.toString())).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
        expect(contract.check(res)).toMatchObject({ ok: true });
      });
    });

    describe('failures of the service itself', () => {
      it('when a query hits a bug (a missing table), then 500 internal_error and INTERNAL_ERROR', async () => {
        await get().database.db.schema.renameTable('agents', 'agents_elsewhere');
        try {
          const root = await send('GET', '/agents');
          expect({ status: root.status, code: codeOf(JSON.parse(root.body.toString())) }).toEqual({ status: 500, code: 'internal_error' });
          // The oracle counts every 500 as a failure of the service; its body still has the declared shape.
          expect(contract.check(root)).toMatchObject({ ok: false, category: '5xx' });
          expect(JSON.parse(root.body.toString())).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
          const api = await send('GET', '/api/v1/agents');
          expect(JSON.parse(api.body.toString())).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal Server Error', requestId: expect.any(String) } });
        } finally {
          await get().database.db.schema.renameTable('agents_elsewhere', 'agents');
        }
      });

      it('when every database connection is busy, then 503 service_unavailable and SERVICE_UNAVAILABLE, with Retry-After', async () => {
        const held: unknown[] = [];
        for (let i = 0; i < (kind === 'sqlite' ? 1 : 2); i++) held.push(await get().database.db.client.acquireConnection());
        try {
          for (const [target, code] of [
            ['/agents', 'service_unavailable'],
            ['/api/v1/agents', 'SERVICE_UNAVAILABLE'],
          ] as const) {
            const res = await send('POST', target, json({ name: 'outage', type: 'type_a' }));
            expectDeclared(res, 503, code);
            expect(res.headers['retry-after']).toBe('5');
          }
        } finally {
          for (const connection of held) await get().database.db.client.releaseConnection(connection);
        }
      });
    });
  },
  { quotas: QUOTAS, database: { client: 'sqlite', filename: '', limits: { poolMax: 2, acquireTimeoutMs: 400, statementTimeoutMs: 10_000, busyTimeoutMs: 200 } } },
);

describe('error codes of the rate limiters', () => {
  it('when either surface or /token is over its limit, then 429 with its one code and Retry-After', async () => {
    const contract = await loadContract();
    const db = await openTestDatabase('sqlite');
    try {
      const base = testConfig();
      const config = { ...base, rateLimits: { ...base.rateLimits, api: { ...base.rateLimits.api, max: 1 }, root: { ...base.rateLimits.root, max: 1 } } };
      const http = supertest(buildApp({ config, db: db.db, logger: createLogger({ logLevel: 'silent' }), tokens: createTokenService(config.auth.jwt) }));
      const cases = [
        ['GET', '/api/v1/me', 'RATE_LIMIT_EXCEEDED'],
        ['GET', '/agents', 'rate_limit_exceeded'],
        ['POST', '/token', 'temporarily_unavailable'],
        ['GET', '/docs', 'rate_limit_exceeded'],
      ] as const;
      await http.get('/api/v1/me');
      await http.get('/agents');
      for (const [method, target, code] of cases) {
        const res = method === 'GET' ? await http.get(target) : await http.post(target).type('form').send({ grant_type: 'password' });
        expect({ status: res.status, code: codeOf(res.body) }).toEqual({ status: 429, code });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(contract.check(observed(method, target, { status: res.status, headers: res.headers as Record<string, string>, body: res.text }))).toMatchObject({ ok: true });
      }
    } finally {
      await db.close();
    }
  });
});

describe('the narrowed error contract', () => {
  const body = (value: unknown) => ({ 'content-type': 'application/json; charset=utf-8', body: JSON.stringify(value) });
  const answer = (method: string, target: string, status: number, value: unknown): ObservedResponse => {
    const { body: text, ...headers } = body(value);
    // 429 requires Retry-After: the body is what these cases are about.
    return observed(method, target, { status, headers: status === 429 ? { ...headers, 'retry-after': '60' } : headers, body: text });
  };

  it('when a status carries a code api.yaml does not give it, or a quota error lacks its usage, then the oracle refuses it as a shape break', async () => {
    const contract = await loadContract();
    const api = (code: string, details?: unknown) => ({ error: { code, message: 'm', requestId: 'r', ...(details === undefined ? {} : { details }) } });
    const usage = { quota: 'agents_per_user', limit: 1, usage: 1 };
    expect(contract.check(answer('POST', '/api/v1/agents', 409, api('QUOTA_EXCEEDED', usage)))).toMatchObject({ ok: true });
    expect(contract.check(answer('POST', '/api/v1/agents', 409, api('CONFLICT')))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('POST', '/api/v1/agents', 409, api('QUOTA_EXCEEDED')))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('POST', `/api/v1/agents/${MISSING}/tasks`, 409, api('CONFLICT')))).toMatchObject({ ok: true });
    expect(contract.check(answer('POST', `/api/v1/agents/${MISSING}/tasks`, 409, api('QUOTA_EXCEEDED', { limit: 'many' })))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/api/v1/me', 401, api('FORBIDDEN')))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/api/v1/me', 400, api('VALIDATION_ERROR', [{ field: 'x', message: 'y' }])))).toMatchObject({ ok: true });
    expect(contract.check(answer('GET', '/api/v1/me', 400, api('VALIDATION_ERROR', { field: 'x' })))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/agents', 401, { error: 'forbidden', message: 'm' }))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/agents', 401, { error: 'unauthorized', message: 'm' }))).toMatchObject({ ok: true });
    expect(contract.check(answer('PATCH', `/agents/${MISSING}`, 409, { error: 'quota_exceeded', message: 'm', details: usage }))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('POST', `/agents/${MISSING}/tasks`, 409, { error: 'quota_exceeded', message: 'm', details: usage }))).toMatchObject({ ok: true });
    expect(contract.check(answer('GET', '/agents', 429, { error: 'internal_error', message: 'm' }))).toMatchObject({ ok: false, category: 'shape' });
  });
});
