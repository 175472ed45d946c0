import { loadApiDocument } from '../../src/http/openapi';
import { describeEachDatabase } from '../support/harness';

type Parameter = { name?: string; in?: string; $ref?: string };
type Operation = { parameters?: Parameter[]; requestBody?: unknown };

/** A small seeded generator: the same inputs on every run, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const strings = ['', ' ', 'a', 'x'.repeat(300), '😀'.repeat(120), '../../etc/passwd', '%00', "'; drop table agents; --", '<script>', '0190a8f0-0000-7000-8000-000000000000', 'null', '-1', '1e309', 'NaN', '[]', '{}'];
  const value = (depth: number): unknown => {
    switch (pick(['string', 'number', 'bool', 'null', 'array', 'object'] as const)) {
      case 'string':
        return pick(strings);
      case 'number':
        return pick([0, -1, 1.5, 2 ** 53, -(2 ** 31) - 1, 101, 1001, 1e308]);
      case 'bool':
        return next() < 0.5;
      case 'null':
        return null;
      case 'array':
        return depth > 2 ? [] : Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
      case 'object': {
        if (depth > 2) return {};
        const keys = ['name', 'type', 'status', 'title', 'priority', 'input', 'result', 'error', 'email', 'password', 'age', 'role', 'id', 'owner_id', 'body', pick(strings)];
        return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [pick(keys), value(depth + 1)]));
      }
    }
  };
  return { next, pick, value, string: () => pick(strings) };
}

const document = loadApiDocument();
const parameters = (document.components as { parameters: Record<string, Parameter> }).parameters;
const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => ({ path, method, operation })),
);

describeEachDatabase('any input, every operation', (get) => {
  it.each(operations.map(({ path, method, operation }) => [method.toUpperCase(), path, operation] as const))(
    'when %s %s gets 25 malformed requests, then none answers 5xx',
    async (method, path, operation) => {
      const admin = await get().signUp({ role: 'admin' });
      const agent = (await admin.http.post('/agents').send({ name: 'fuzzed', type: 'type_a' }).expect(201)).body;
      const task = (await admin.http.post(`/agents/${agent.id}/tasks`).send({ title: 'fuzzed' }).expect(201)).body;
      // Real ids half the time, so that requests get past the look-ups into the handlers.
      const ids: Record<string, string> = { agent_id: agent.id, task_id: task.id, user_id: admin.user.id, provider: 'none' };
      const random = generator(path.length * 31 + method.length);
      const queryNames = (operation.parameters ?? [])
        .map((parameter) => (parameter.$ref ? parameters[parameter.$ref.split('/').pop() ?? ''] : parameter))
        .filter((parameter): parameter is Parameter => parameter?.in === 'query')
        .map((parameter) => parameter.name ?? '');
      for (let i = 0; i < 25; i++) {
        const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(random.next() < 0.5 ? (ids[name] ?? random.string()) : random.string()));
        const query = Object.fromEntries(
          [...queryNames, 'filter[name][eq]', 'filter[x][y]', 'unknown']
            .filter((name) => random.next() < (name === 'unknown' || name === 'filter[x][y]' ? 0.1 : 0.3))
            .map((name) => [name, random.string()]),
        );
        let request = admin.http[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url).query(query);
        if (random.next() < 0.1) request = request.set('If-Match', random.string().replace(/[^\x20-\x7e]/g, ''));
        if (random.next() < 0.1) request = request.set('api-version', random.pick(['1.0', '2', '']));
        const body = random.next() < 0.1 ? '{"broken": ' : JSON.stringify(random.value(0));
        const res = await request.set('Content-Type', 'application/json').send(body);
        if (res.status >= 500) throw new Error(`${method} ${url} ${JSON.stringify(query)} ${JSON.stringify(body)} answered ${res.status}: ${res.text}`);
      }
    },
  );
});
