import { randomUUID } from 'node:crypto';
import { loadContract, type Contract, type ObservedResponse, type Operation } from '../support/fuzzer/contract';
import { flattenSchema, type Schema } from '../support/fuzzer/values';
import type { Database } from '../../src/data/database';
import { describeEachDatabase, startTestApp, testConfig, type TestApp } from '../support/harness';
import { isValid, samplesOf } from '../support/spec-drift/samples';
import { sendRaw } from '../support/raw-http';
import { recordServerAnswer } from '../support/status-coverage/recorder';
import { UNREACHABLE, unreachableKey } from '../support/status-coverage/unreachable';
import { apiKeyHeadersOf, isPublic, show, SpecClient, SpecFailure, type Exchange, type Resolved, type SendOptions, type Session } from '../support/spec-drift/spec-client';

/**
 * The error statuses api.yaml declares on (nearly) every operation, produced for real on every
 * operation that declares them: each family below is one way to make the service answer that
 * status, applied to every operation api.yaml lists (walked, not listed here). What an operation
 * answers is checked against what it declares for that status (headers and body, by the
 * contract oracle). Statuses particular to a few operations are produced by the suites of those
 * operations; the status-coverage reporter lists any pair no test produces.
 */

const MAX_BODY_BYTES = 4096;
const LEAKS = /_gone|no such table|does not exist|select |insert |update |sqlite|postgres|knex|stack/i;
const DATABASE_LIMITS = { poolMax: 2, acquireTimeoutMs: 300, statementTimeoutMs: 10_000, busyTimeoutMs: 200 };

const name = (operation: Operation) => `${operation.method} ${operation.template}`;
/** Reviewed as impossible to produce (unreachable.ts): no family expects it. */
const isUnreachable = (operation: Operation, status: string) => Object.hasOwn(UNREACHABLE, unreachableKey(name(operation), status));
const declares = (operation: Operation, status: string) => Object.hasOwn(operation.operation.responses ?? {}, status);
const parameterNamed = (operation: Operation, where: string, wanted: string) => operation.parameters.some((parameter) => parameter.in === where && parameter.name.toLowerCase() === wanted.toLowerCase());
const hasBody = (operation: Operation) => Object.keys(operation.operation.requestBody?.content ?? {}).length > 0;
const takesJson = (operation: Operation) => Object.hasOwn(operation.operation.requestBody?.content ?? {}, 'application/json');
const pathParameters = (operation: Operation) => operation.template.match(/\{[^}]+\}/g) ?? [];
/** How the operation's surface refuses input that breaks the schema: 422 on the root surface, 400 under /api and at /token (a root 400 is only the HTTP parser's). */
const schemaViolationOf = (operation: Operation) => (operation.template.startsWith('/api/') || operation.template === '/token' ? '400' : '422');

/** A value for each path parameter from its schema: ids no resource has, names no provider or file has. */
function samplePath(operation: Operation, last?: string): string {
  const names = pathParameters(operation);
  return names.reduce((path, segment, index) => {
    const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && `{${candidate.name}}` === segment);
    const schema = flattenSchema((parameter?.schema ?? {}) as Schema);
    const value = index === names.length - 1 && last !== undefined ? last : schema.format === 'uuid' ? randomUUID() : String(samplesOf(parameter?.name ?? 'value', schema)[0] ?? 'x');
    return path.replace(segment, encodeURIComponent(value));
  }, operation.template);
}

/** One way to make the service answer a status, for every operation it applies to. */
interface Family {
  /** The status an operation should answer, when the family applies to it and it declares that status. */
  statusOf(operation: Operation, contract: Contract): string | undefined;
  request(operation: Operation, context: FamilyContext): Promise<{ path: string; options: SendOptions }>;
}

interface FamilyContext {
  /** The operation's path with resources that exist, and a principal that may reach them. */
  fixture(operation: Operation): Promise<Resolved>;
  client: SpecClient;
  sessionCookie: string;
  /** The app's database (a family that needs a state no request can hold still sets it there). */
  db: Database;
}

/** The credential, as a bearer token and as the session cookie (pages read only the cookie). */
const signedIn = (session: Session, context: FamilyContext): SendOptions => ({ session, headers: { cookie: `${context.sessionCookie}=${session.token}` } });

/** `request` with the operation's valid body, when it takes one. */
function withValidBody(operation: Operation, context: FamilyContext, session: Session, options: SendOptions): SendOptions {
  const body = context.client.requestBodyOf(operation, session);
  return body ? { ...options, raw: body.raw, headers: { ...options.headers, 'content-type': body.contentType } } : options;
}

/** A valid request of the operation as its fixture's principal, on its fixture's path. */
async function validRequest(operation: Operation, context: FamilyContext, headers: Record<string, string> = {}) {
  const { path, session } = await context.fixture(operation);
  const options = signedIn(session, context);
  return { path, options: withValidBody(operation, context, session, { ...options, headers: { ...options.headers, ...headers } }) };
}

const takesIdempotencyKey = (operation: Operation) => parameterNamed(operation, 'header', 'Idempotency-Key');

/**
 * A valid request with a fresh Idempotency-Key, sent once; then `alter` changes what the table
 * keeps of it, and the same request is sent again.
 */
async function afterKeptRequest(operation: Operation, context: FamilyContext, alter: Record<string, unknown>) {
  const key = `statuses-${randomUUID()}`;
  const { path, options } = await validRequest(operation, context, { 'idempotency-key': key });
  const first = await context.client.send(operation.method, path, options);
  if (first.status >= 300) throw new SpecFailure(`the first request with its key answered ${first.status}: ${show(first.body)}`);
  await context.db('idempotency_keys').where({ key }).update(alter);
  return { path, options };
}

const FAMILIES: Record<string, Family> = {
  'when an Idempotency-Key comes again with another request, then the create answers 422 IDEMPOTENCY_KEY_REUSED': {
    statusOf: (operation) => (takesIdempotencyKey(operation) ? '422' : undefined),
    // As if the first request had had another body.
    request: (operation, context) => afterKeptRequest(operation, context, { fingerprint: '0'.repeat(64) }),
  },
  'when the first request with an Idempotency-Key is still running, then the create answers 409 IDEMPOTENCY_KEY_IN_USE': {
    statusOf: (operation) => (takesIdempotencyKey(operation) ? '409' : undefined),
    // As if the first request had not answered yet.
    request: (operation, context) => afterKeptRequest(operation, context, { status: null, body: null, started_at: new Date().toISOString() }),
  },
  'when a secured operation gets no credential, then it answers 401': {
    statusOf: (operation) => (isPublic(operation) ? undefined : '401'),
    request: async (operation) => ({ path: samplePath(operation), options: {} }),
  },
  'when an operation that takes an API key gets a wrong one, then it answers 403': {
    statusOf: (operation, contract) => (apiKeyHeadersOf(contract, operation).length > 0 ? '403' : undefined),
    request: async (operation, context) => ({
      path: samplePath(operation),
      options: { headers: Object.fromEntries(apiKeyHeadersOf(context.client.contract, operation).map((header) => [header, 'not-a-key-of-this-service-0123456789'])) },
    }),
  },
  'when an operation gets an api-version it does not support, then it answers its schema violation (422 on the root surface, 400 under /api)': {
    statusOf: (operation) => (parameterNamed(operation, 'header', 'api-version') ? schemaViolationOf(operation) : undefined),
    request: (operation, context) => validRequest(operation, context, { 'api-version': '0.0' }),
  },
  'when the query names a parameter the operation does not declare, then it answers its schema violation (422 on the root surface, 400 under /api)': {
    // Unless api.yaml lets the operation take any query parameter (a callback whose parameters the provider chooses).
    statusOf: (operation) => ((operation.operation as Record<string, unknown>)['x-eov-allow-unknown-query-parameters'] === true ? undefined : schemaViolationOf(operation)),
    request: async (operation, context) => {
      const { path, options } = await validRequest(operation, context);
      return { path: `${path}?undeclared_parameter=1`, options };
    },
  },
  'when a JSON body is malformed, then the operation answers 400': {
    statusOf: (operation) => (takesJson(operation) ? '400' : undefined),
    request: async (operation, context) => {
      const { path, session } = await context.fixture(operation);
      return { path, options: { ...signedIn(session, context), raw: '{"name":', headers: { 'content-type': 'application/json' } } };
    },
  },
  'when a body is larger than the limit, then the operation answers 413': {
    statusOf: (operation) => (hasBody(operation) ? '413' : undefined),
    request: async (operation, context) => {
      const { path, session } = await context.fixture(operation);
      const contentType = Object.keys(operation.operation.requestBody?.content ?? {})[0] as string;
      const filler = 'x'.repeat(MAX_BODY_BYTES + 1);
      const raw = contentType === 'application/json' ? JSON.stringify({ name: filler }) : `name=${filler}`;
      return { path, options: { ...signedIn(session, context), raw, headers: { 'content-type': contentType } } };
    },
  },
  'when a body is in a media type the operation does not take, then it answers 415': {
    statusOf: (operation) => (hasBody(operation) ? '415' : undefined),
    request: async (operation, context) => {
      const { path, session } = await context.fixture(operation);
      return { path, options: { ...signedIn(session, context), raw: 'name=x', headers: { 'content-type': 'text/plain' } } };
    },
  },
  'when the last id of the path names nothing, then the operation answers 404': {
    statusOf: (operation) => (pathParameters(operation).length > 0 ? '404' : undefined),
    request: async (operation, context) => {
      const fixture = await context.fixture(operation);
      const segments = fixture.path.split('/');
      // A new id where a create operation made the last one; otherwise the fixture's own sample, which no provider or file has.
      if (fixture.id !== undefined) segments[operation.template.split('/').findLastIndex((segment) => segment.startsWith('{'))] = randomUUID();
      return { path: segments.join('/'), options: withValidBody(operation, context, fixture.session, signedIn(fixture.session, context)) };
    },
  },
  'when If-Match names a version that is not current, then the operation answers 412': {
    statusOf: () => '412',
    request: (operation, context) => validRequest(operation, context, { 'if-match': '"0-stale"' }),
  },
};

interface Produced {
  operation: Operation;
  expected: string;
  exchange?: Exchange;
  path?: string;
  problem?: string;
}

/** What each operation the family applies to answered, and what it should have. */
async function produce(contract: Contract, family: Family, context: FamilyContext, options: { concurrently?: boolean } = {}): Promise<Produced[]> {
  const run = async (operation: Operation, expected: string): Promise<Produced> => {
    try {
      const { path, options: request } = await family.request(operation, context);
      return { operation, expected, path, exchange: await context.client.send(operation.method, path, request) };
    } catch (error) {
      if (error instanceof SpecFailure) return { operation, expected, problem: error.message };
      throw error;
    }
  };
  const applicable = contract.operations.flatMap((operation) => {
    const status = family.statusOf(operation, contract);
    return status !== undefined && declares(operation, status) && !isUnreachable(operation, status) ? [[operation, status] as const] : [];
  });
  if (options.concurrently) return Promise.all(applicable.map(([operation, status]) => run(operation, status)));
  const produced: Produced[] = [];
  for (const [operation, status] of applicable) produced.push(await run(operation, status));
  return produced;
}

function observed(produced: Produced): ObservedResponse {
  const headers: Record<string, string> = {};
  produced.exchange?.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { method: produced.operation.method, target: produced.path ?? '', status: produced.exchange?.status ?? 0, headers, body: Buffer.from(produced.exchange?.text ?? '') };
}

/** `POST /agents: answered 422 …` for every operation that did not answer as it declares; empty when all did. */
function mismatches(contract: Contract, produced: Produced[]): string[] {
  return produced.flatMap((entry) => {
    const where = name(entry.operation);
    if (entry.problem) return [`${where}: ${entry.problem}`];
    const status = entry.exchange?.status;
    if (String(status) !== entry.expected) return [`${where}: answered ${status}, not ${entry.expected}: ${show(entry.exchange?.body)}`];
    if (status === 500) {
      // The oracle counts every 500 as a failure of the service: its shape is checked against the declaration here.
      const schema = entry.operation.operation.responses?.['500']?.content?.['application/json']?.schema;
      if (!schema || !isValid(schema, entry.exchange?.body)) return [`${where}: 500 body ${show(entry.exchange?.body)} is not the declared one`];
      // Nothing of the failure itself: no statement, no table, no driver's words.
      return LEAKS.test(entry.exchange?.text ?? '') ? [`${where}: 500 body leaks the failure: ${show(entry.exchange?.body)}`] : [];
    }
    const verdict = contract.check(observed(entry));
    return verdict.ok ? [] : [`${where}: ${verdict.reason} ${verdict.errors.join('; ')}`];
  });
}

describeEachDatabase(
  'declared error statuses, produced on every operation',
  (get, kind) => {
    let contract: Contract;
    let context: FamilyContext;

    beforeAll(async () => {
      contract = await loadContract();
      // An admin: operations only admins may call (listing users) get as far as their preconditions.
      const admin = await get().signUp({ role: 'admin' });
      const client = new SpecClient(contract, await get().listen(), { token: admin.token, password: admin.password });
      const fixtures = new Map<string, Promise<Resolved>>();
      context = {
        client,
        sessionCookie: get().config.auth.sessionCookieName,
        db: get().database.db,
        fixture: (operation) => {
          let fixture = fixtures.get(operation.template);
          if (!fixture) {
            fixture = client.resolve(operation.template, client.principal, operation.parameters);
            fixtures.set(operation.template, fixture);
          }
          return fixture;
        },
      };
    });

    for (const [title, family] of Object.entries(FAMILIES)) {
      it(title, async () => {
        const produced = await produce(contract, family, context);
        expect(produced.length).toBeGreaterThan(0);
        expect(mismatches(contract, produced)).toEqual([]);
      });
    }

    /** Raw requests on every operation's path, each with the answer the contract oracle gives it. */
    async function refusedOnEveryOperation(baseUrl: string, status: string, request: (operation: Operation, path: string) => string): Promise<string[]> {
      const operations = contract.operations.filter((operation) => declares(operation, status) && operation.method !== 'HEAD');
      const answers = await Promise.all(
        operations.map(async (operation) => {
          const path = samplePath(operation);
          const res = await sendRaw(baseUrl, request(operation, path));
          recordServerAnswer(operation.method, path, res.status);
          if (String(res.status) !== status) return [`${name(operation)}: answered ${res.status}, not ${status}: ${res.body.slice(0, 200)}`];
          if (res.headers.connection !== 'close') return [`${name(operation)}: ${status} without Connection: close`];
          const verdict = contract.check({ method: operation.method, target: path, status: res.status, headers: res.headers, body: Buffer.from(res.body) });
          return verdict.ok ? [] : [`${name(operation)}: ${verdict.reason} ${verdict.errors.join('; ')}`];
        }),
      );
      expect(operations.length).toBeGreaterThan(0);
      return answers.flat();
    }

    it.each([
      ['Content-Length together with Transfer-Encoding', '400', (operation: Operation, path: string) => `${operation.method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
      ['an Expect other than 100-continue', '417', (operation: Operation, path: string) => `${operation.method} ${path} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`],
      ['headers over the limit', '431', (operation: Operation, path: string) => `${operation.method} ${path} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`],
    ])('when a request carries %s, then every operation answers %s as it declares it, and closes the connection', async (_what, status, request) => {
      expect(await refusedOnEveryOperation(await get().listen(), status, request)).toEqual([]);
    });

    it('when a body does not arrive in time, then every operation that reads one answers 408 as it declares it, and closes the connection', async () => {
      const base = testConfig();
      const impatient = await startTestApp(kind, { logLevel: 'silent', http: { ...base.http, headersTimeoutMs: 1000, requestTimeoutMs: 1000 } });
      try {
        // Signed in (the body is read once the credential passes): headers that promise a body, then part of it and nothing more.
        const problems = await refusedOnEveryOperation(await impatient.listen(), '408', (operation, path) => {
          const contentType = Object.keys(operation.operation.requestBody?.content ?? {})[0] ?? 'application/json';
          return `${operation.method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${impatient.user.token}\r\nContent-Type: ${contentType}\r\nContent-Length: 100\r\n\r\n{"na`;
        });
        expect(problems).toEqual([]);
      } finally {
        await impatient.close();
      }
    });

    it('when the rate limit is spent, then every limited operation answers 429 with Retry-After', async () => {
      const base = testConfig();
      const limited = await startTestApp(kind, { logLevel: 'silent', rateLimits: { ...base.rateLimits, api: { windowMs: 60_000, max: 1 }, root: { windowMs: 60_000, max: 1 } } });
      try {
        const client = new SpecClient(contract, await limited.listen(), { token: limited.user.token });
        // One request of each surface spends its limit.
        for (const operation of contract.operations.filter((candidate) => candidate.method === 'GET' && pathParameters(candidate).length === 0)) await client.send('GET', operation.template);
        const produced = await produce(contract, { statusOf: () => '429', request: async (operation) => ({ path: samplePath(operation), options: {} }) }, { ...context, client });
        expect(produced.length).toBeGreaterThan(0);
        expect(mismatches(contract, produced)).toEqual([]);
      } finally {
        await limited.close();
      }
    });

    it('when every database connection stays busy, then every operation that reads or writes answers 503 with Retry-After', async () => {
      const operations = contract.operations.filter((operation) => declares(operation, '503'));
      // Fixtures first: they need the database.
      for (const operation of operations) await context.fixture(operation).catch(() => undefined);
      const held: unknown[] = [];
      const database = get().database.db;
      for (let i = 0; i < (kind === 'sqlite' ? 1 : DATABASE_LIMITS.poolMax); i++) held.push(await database.client.acquireConnection());
      try {
        const produced = await produce(contract, { statusOf: () => '503', request: (operation, family) => validRequest(operation, family) }, context, { concurrently: true });
        expect(mismatches(contract, produced)).toEqual([]);
      } finally {
        for (const connection of held) await database.client.releaseConnection(connection);
      }
    });

    it('when the database fails in a way nothing expects (its tables are gone), then every operation that reads or writes answers 500 and leaks nothing', async () => {
      const operations = contract.operations.filter((operation) => declares(operation, '500'));
      for (const operation of operations) await context.fixture(operation).catch(() => undefined);
      const database = get().database.db;
      const tables = await tablesOf(get());
      for (const table of tables) await database.schema.renameTable(table, `${table}_gone`);
      try {
        const produced = await produce(contract, { statusOf: () => '500', request: (operation, family) => validRequest(operation, family) }, context);
        expect(mismatches(contract, produced)).toEqual([]);
      } finally {
        for (const table of tables) await database.schema.renameTable(`${table}_gone`, table);
      }
    });
  },
  { maxBodyBytes: MAX_BODY_BYTES, database: { client: 'sqlite', filename: '', limits: DATABASE_LIMITS } },
);

/** The service's own tables (not the migrations' bookkeeping). */
async function tablesOf(app: TestApp): Promise<string[]> {
  const db = app.database.db;
  const rows: Array<{ name: string }> =
    app.database.kind === 'sqlite'
      ? await db('sqlite_master').select('name').where('type', 'table').andWhereNot('name', 'like', 'sqlite_%')
      : ((await db.raw('select tablename as name from pg_tables where schemaname = current_schema()')) as { rows: Array<{ name: string }> }).rows;
  return rows.map((row) => row.name).filter((table) => !table.startsWith('knex_'));
}
