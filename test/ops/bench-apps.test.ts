import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AGENT_CREATE_SCHEMA, AGENT_SCHEMA, LIST_QUERY_SCHEMA } from '../../scripts/bench/agent-schemas';
import { APPS, bundleComparisonApps, ROOT, startApp, stopApp, type ComparisonApp, type RunningApp } from '../../scripts/bench/apps';
import { loadApiDocument } from '../../src/contract/openapi';
import { killServers, listeningPort, makeTempDir, serviceEnv, spawnServer, type ServerProcess } from '../support/server-process';

const API_KEY = 'bench-apps-key-0123456789abcdef';

interface Answer {
  status: number;
  location: string | null;
  body: unknown;
}

/** POST one agent, read it back, read the first page: what the bench drives, as each app answers it. */
async function exercise(port: number): Promise<{ post: Answer; getOne: Answer; list: Answer }> {
  const call = async (method: string, url: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, location: res.headers.get('location'), body: await res.json() };
  };
  const post = await call('POST', '/agents', { name: 'bench-check', type: 'type_b' });
  const { id } = post.body as { id: string };
  return { post, getOne: await call('GET', `/agents/${id}`), list: await call('GET', '/agents?limit=100') };
}

/** Status, Location's shape, and the body's keys in order (of the first item, for a list). */
function shapeOf(answer: Answer): { status: number; location: string | null; keys: string[]; isArray: boolean } {
  const item = Array.isArray(answer.body) ? answer.body[0] : answer.body;
  return {
    status: answer.status,
    location: answer.location?.replace(/[0-9a-f-]{36}$/, '{id}') ?? null,
    keys: Object.keys(item as object),
    isArray: Array.isArray(answer.body),
  };
}

/** api.yaml's schema with its $refs resolved and its prose left out. */
function resolveSchema(schema: unknown, document: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => resolveSchema(entry, document));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref !== undefined) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
    return resolveSchema(target, document);
  }
  const resolved = Object.fromEntries(
    Object.entries(schema)
      // Words for people, and extensions (`x-pattern-message`) that speak to this service's tools, not to a validator.
      .filter(([key]) => key !== 'description' && key !== 'example' && !key.startsWith('x-'))
      .map(([key, value]) => [key, resolveSchema(value, document)]),
  );
  return flattenComposition(resolved);
}

/**
 * A representation composed from its entity (`allOf: [entity]`, its own `required`,
 * `unevaluatedProperties: false`) means the entity's fields, those required, nothing else: the
 * flat schema the Fastify app's validator and serialiser take.
 */
function flattenComposition(schema: Record<string, unknown>): Record<string, unknown> {
  const { allOf, unevaluatedProperties, properties, ...rest } = schema as { allOf?: Array<Record<string, unknown>>; unevaluatedProperties?: unknown; properties?: Record<string, unknown> };
  if (!Array.isArray(allOf) || allOf.length !== 1 || unevaluatedProperties !== false) return schema;
  // A representation restates its entity's `id` (the same schema): the entity's fields, in its order.
  return { ...allOf[0], ...rest, properties: { ...(allOf[0]?.properties as Record<string, unknown>), ...properties }, additionalProperties: false };
}

describe('the benchmark compares like with like', () => {
  let temp: ReturnType<typeof makeTempDir>;
  // Inside the repository (and gitignored): the bundles find their packages in its node_modules.
  let bundleDir: string;
  let service: ServerProcess | undefined;
  const apps: RunningApp[] = [];

  beforeAll(() => {
    temp = makeTempDir();
    mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
    bundleDir = mkdtempSync(path.join(ROOT, '.bench', 'test-bundles-'));
  });
  afterAll(async () => {
    await killServers(service);
    for (const app of apps) await stopApp(app);
    temp.remove();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it('the Fastify app validates and serialises with api.yaml’s agent schemas', () => {
    const document = loadApiDocument();
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(AGENT_SCHEMA).toEqual(resolveSchema(schemas.Agent, document));
    expect(AGENT_CREATE_SCHEMA).toEqual(resolveSchema(schemas.AgentCreate, document));
    const listAgents = (document.paths as Record<string, { get: { parameters: unknown[] } }>)['/agents']?.get;
    const query = (listAgents?.parameters ?? [])
      .map((parameter) => resolveSchema(parameter, document) as { name: string; in: string; schema: unknown })
      .filter((parameter) => parameter.in === 'query');
    expect(LIST_QUERY_SCHEMA.properties).toEqual(Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])));
  });

  it('bare Express (either way its server makes requests) and Fastify answer GET one, the list of 100 and POST as the service does', async () => {
    service = spawnServer(serviceEnv(API_KEY, { DATABASE_URL: `sqlite:${path.join(temp.dir, 'service.sqlite')}` }));
    const bundles = bundleComparisonApps(bundleDir);
    const comparison: Array<ComparisonApp | 'express-classes'> = ['express', 'express-classes', 'fastify'];
    const [servicePort] = await Promise.all([
      listeningPort(service),
      ...comparison.map(async (name) => apps.push(await startApp(APPS[name], { dir: temp.dir, apiKey: API_KEY, bundles }))),
    ]);

    const expected = await exercise(servicePort);
    expect(shapeOf(expected.post)).toEqual({ status: 201, location: '/agents/{id}', keys: ['id', 'owner_id', 'workspace_id', 'name', 'type', 'status', 'created_at', 'updated_at', 'max_concurrency'], isArray: false });
    for (const app of apps) {
      const answers = await exercise(app.port);
      for (const route of ['post', 'getOne', 'list'] as const) {
        expect({ app: app.spec.name, route, ...shapeOf(answers[route]) }).toEqual({ app: app.spec.name, route, ...shapeOf(expected[route]) });
      }
      expect(answers.getOne.body).toEqual(answers.post.body);
    }
  });
});
