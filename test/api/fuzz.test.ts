import { loadApiDocument } from '../../src/contract/openapi';
import { loadContract, type Contract, type ObservedResponse } from '../support/fuzzer/contract';
import { targetOf } from '../support/fuzzer/in-process';
import { failureCount, formatFailure, formatSummary, runFuzzer } from '../support/fuzzer/run';
import { describeEachDatabase } from '../support/harness';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const AGENT_ID = '01a2085c-2557-71dc-a6c1-6f11cf703f00';

function answer(method: string, target: string, status: number, body?: unknown, headers: Record<string, string> = {}): ObservedResponse {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { method, target, status, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...headers }, body: Buffer.from(text) };
}

/** The headers api.yaml requires on these answers. */
const TAGGED = { etag: '"v1"' };
const RETRY = { 'retry-after': '60' };

/** The service workspace: an agent an API key (owner_id null) created belongs to it. */
const SERVICE_WORKSPACE_ID = '01a2085c-2557-71dc-a6c1-6f11cf703f01';

const agent = { id: AGENT_ID, owner_id: null, workspace_id: SERVICE_WORKSPACE_ID, name: 'scout', type: 'type_a', status: 'idle', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', max_concurrency: null };

describe('the contract oracle', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract();
  });

  it('when an answer is one api.yaml declares, then it passes', () => {
    expect(contract.check(answer('GET', '/agents?limit=1', 200, [agent], TAGGED))).toMatchObject({ ok: true, template: '/agents' });
    expect(contract.check(answer('GET', `/agents/${AGENT_ID}`, 404, { error: 'not_found', message: 'Agent not found', detail: 'Agent not found' }))).toMatchObject({ ok: true });
    expect(contract.check(answer('DELETE', `/agents/${AGENT_ID}`, 204))).toMatchObject({ ok: true });
    expect(contract.check(answer('HEAD', '/agents', 200, undefined, { 'content-type': 'application/json', ...TAGGED }))).toMatchObject({ ok: true });
    expect(contract.check(answer('GET', '/nope', 404, { error: 'not_found', message: 'Not Found' }))).toMatchObject({ ok: true, template: '(unmatched root)' });
  });

  it('when a header api.yaml requires is missing (ETag, Location, Retry-After), then it is a contract break naming it', () => {
    const created = answer('POST', '/agents', 201, agent, { ...TAGGED, location: `/agents/${AGENT_ID}` });
    expect(contract.check(created)).toMatchObject({ ok: true });
    expect(contract.check({ ...created, headers: { 'content-type': 'application/json', etag: '"v1"' } })).toMatchObject({ ok: false, category: 'contract', reason: '201 without its declared header Location' });
    expect(contract.check(answer('GET', `/agents/${AGENT_ID}`, 304, undefined))).toMatchObject({ ok: false, category: 'contract', reason: '304 without its declared header ETag' });
    expect(contract.check(answer('GET', '/agents', 429, { error: 'rate_limit_exceeded', message: 'slow down' }))).toMatchObject({ ok: false, reason: '429 without its declared header Retry-After' });
    expect(contract.check(answer('GET', '/agents', 429, { error: 'rate_limit_exceeded', message: 'slow down' }, RETRY))).toMatchObject({ ok: true });
  });

  it('when the target always sends RateLimit, then an answer of a limited operation without it is a contract break; a probe needs none', async () => {
    const inProcess = await loadContract(undefined, { alwaysSent: ['RateLimit', 'RateLimit-Policy'] });
    const limited = { ...TAGGED, ratelimit: '"root";r=9;t=60', 'ratelimit-policy': '"root";q=10;w=60' };
    expect(inProcess.check(answer('GET', '/agents', 200, [agent], limited))).toMatchObject({ ok: true });
    expect(inProcess.check(answer('GET', '/agents', 200, [agent], TAGGED))).toMatchObject({ ok: false, category: 'contract', reason: '200 without its declared header RateLimit, RateLimit-Policy' });
    expect(inProcess.check(answer('GET', '/health', 200, { status: 'ok' }))).toMatchObject({ ok: true });
    // Any other target may be behind an unreachable Redis, where the limiter passes requests uncounted.
    expect(contract.check(answer('GET', '/agents', 200, [agent], TAGGED))).toMatchObject({ ok: true });
  });

  it('when the status is not declared, then it is a contract break', () => {
    expect(contract.check(answer('GET', '/agents', 418, { error: 'teapot', message: 'no' }))).toMatchObject({ ok: false, category: 'contract' });
  });

  it('when a status is declared only by an x- extension of the document, not by the operation, then it is a contract break', async () => {
    const document = loadApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; 'x-unrouted-responses': Record<string, unknown> };
    const tooLarge = { error: 'headers_too_large', message: 'Request headers are too large' };
    expect(document['x-unrouted-responses']['431']).toBeDefined();
    expect(contract.check(answer('GET', '/agents', 431, tooLarge))).toMatchObject({ ok: true });
    delete document.paths['/agents']!.get!.responses['431'];
    const withoutIt = await loadContract(document);
    expect(withoutIt.check(answer('GET', '/agents', 431, tooLarge))).toMatchObject({ ok: false, category: 'contract', reason: expect.stringMatching(/^status 431 is not declared/) });
  });

  it('when a success body breaks its schema, then it is a contract break naming the error', () => {
    const verdict = contract.check(answer('GET', `/agents/${AGENT_ID}`, 200, { ...agent, status: 'asleep', extra: 1 }, TAGGED));
    expect(verdict).toMatchObject({ ok: false, category: 'contract' });
    expect(verdict.ok ? [] : verdict.errors.join('\n')).toMatch(/additional properties|allowed values/);
    expect(contract.check(answer('GET', '/agents', 200, '[]', { 'content-type': 'text/plain', ...TAGGED }))).toMatchObject({ ok: false, category: 'contract' });
    expect(contract.check(answer('DELETE', `/agents/${AGENT_ID}`, 204, '{}'))).toMatchObject({ ok: false, category: 'contract' });
  });

  it('when an error body is in another surface\'s shape, then it is a shape break', () => {
    expect(contract.check(answer('GET', `/agents/${AGENT_ID}`, 404, { error: { code: 'NOT_FOUND', message: 'Agent not found' } }))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/api/v1/nope', 404, { error: 'not_found', message: 'Not Found' }))).toMatchObject({ ok: false, category: 'shape' });
    expect(contract.check(answer('GET', '/agents', 429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' } }, RETRY))).toMatchObject({ ok: false, category: 'shape' });
  });

  it('when the service answers 500, then it is a 5xx failure even though api.yaml declares 500', () => {
    expect(contract.check(answer('GET', '/agents', 500, { error: 'internal_error', message: 'An unexpected error occurred' }))).toMatchObject({ ok: false, category: '5xx' });
    expect(contract.check(answer('GET', '/nope', 502, 'bad gateway'))).toMatchObject({ ok: false, category: '5xx' });
  });

  it('when a path differs in case or slashes, then only 404 is acceptable', () => {
    for (const target of ['/AGENTS', '/agents/', '//agents', '/agents//tasks', '/Token']) {
      expect(contract.check(answer('GET', target, 200, [agent]))).toMatchObject({ ok: false, category: 'contract', template: expect.stringMatching(/^\(unmatched/) });
    }
  });

  it('when a known path lacks the method, then it must be 405 with Allow, and OPTIONS 204 with Allow', () => {
    const error = { error: 'method_not_allowed', message: 'PUT is not allowed' };
    expect(contract.check(answer('PUT', '/agents', 405, error, { allow: 'GET, POST' }))).toMatchObject({ ok: true });
    expect(contract.check(answer('PUT', '/agents', 405, error))).toMatchObject({ ok: false, category: 'contract' });
    expect(contract.check(answer('PUT', '/agents', 404, error))).toMatchObject({ ok: false, category: 'contract' });
    expect(contract.check(answer('OPTIONS', '/agents', 204, undefined, { allow: 'GET, POST' }))).toMatchObject({ ok: true });
    expect(contract.check(answer('OPTIONS', '/agents', 204))).toMatchObject({ ok: false, category: 'contract' });
    expect(contract.check(answer('HEAD', '/agents', 200, '[]'))).toMatchObject({ ok: false, category: 'contract' });
  });
});

describeEachDatabase(
  'cases the fuzzer found, kept',
  (get) => {
    let contract: Contract;
    let baseUrl: string;
    beforeAll(async () => {
      contract = await loadContract();
      baseUrl = await get().listen();
    });
    const send = async (target: string, headers: Record<string, string>): Promise<ObservedResponse> => {
      const res = await fetch(`${baseUrl}${target}`, { headers: { authorization: `Bearer ${get().user.token}`, ...headers }, signal: AbortSignal.timeout(5000) });
      const body = headers['accept'] === 'text/event-stream' && res.status === 200 ? Buffer.alloc(0) : Buffer.from(await res.arrayBuffer());
      if (body.length === 0) await res.body?.cancel();
      const seen: Record<string, string> = {};
      res.headers.forEach((value, name) => (seen[name] = value));
      return { method: 'GET', target, status: res.status, headers: seen, body };
    };

    it.each([
      ['an event cursor beyond a bigint (after)', '/api/v1/events?after=9610623928206074815', {}],
      ['an event cursor beyond a bigint (Last-Event-ID)', '/api/v1/events', { 'last-event-id': '9610623928206074815' }],
      ['an event cursor of 16 digits', '/api/v1/events?after=1234567890123456', {}],
      ['an event cursor beyond a bigint on a stream', '/api/v1/events', { 'last-event-id': '99999999999999999999', accept: 'text/event-stream' }],
    ])('when the request carries %s, then 400 names it, in the declared shape, never a 5xx', async (_what, target, headers) => {
      const res = await send(target, headers);
      expect(res.status).toBe(400);
      expect(contract.check(res)).toMatchObject({ ok: true });
      expect(JSON.parse(res.body.toString()).error.details).toEqual([{ field: expect.stringMatching(/^(after|last-event-id)$/), message: 'must be an event id: 1 to 15 decimal digits' }]);
    });

    it('when the cursor is the largest id the contract allows, then the read and the stream answer 200, with nothing after it', async () => {
      const page = await send('/api/v1/events?after=999999999999999', {});
      expect(page.status).toBe(200);
      expect(contract.check(page)).toMatchObject({ ok: true });
      expect(JSON.parse(page.body.toString()).data).toEqual([]);
      const stream = await send('/api/v1/events', { 'last-event-id': '999999999999999', accept: 'text/event-stream' });
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    });
  },
  { logLevel: 'error' },
);

describeEachDatabase(
  'seeded contract fuzzing',
  (get, kind) => {
    it(`when ${REQUESTS} generated requests (seed ${SEED}) hit every operation, then each answer is one api.yaml declares and none is 5xx`, async () => {
      const target = await targetOf(get());
      const summary = await runFuzzer({ baseUrl: target.baseUrl, seed: SEED, requests: REQUESTS, concurrency: 8, apiKey: target.apiKey, metricsToken: target.metricsToken, origin: target.origin, admin: target.admin, alwaysSent: target.alwaysSent });
      if (failureCount(summary) > 0) {
        // The service logs only its errors here: a 5xx names its cause.
        const serverErrors = get().logs.raw.slice(0, 20).join('\n');
        throw new Error(`${formatSummary(summary)}\n\nDistinct failures (replay request #N alone: npm run fuzz -- --seed ${SEED} --first N --requests 1 --database ${kind}):\n\n${summary.failures.map(formatFailure).join('\n\n')}\n\nThe service's error log:\n${serverErrors}`);
      }
      expect(summary.requests).toBe(REQUESTS);
    }, 120_000);
  },
  { logLevel: 'error' },
);
