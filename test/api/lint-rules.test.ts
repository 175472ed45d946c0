import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

/**
 * The conventions that redocly.yaml enforces (README: "Conventions the linter enforces"). For each
 * rule a copy of api.yaml gets exactly one planted violation, the real `redocly lint` runs on it,
 * and it must fail with that rule, and with that rule only.
 *
 * A copy lives in a temporary directory with the repository's .redocly.lint-ignore.yaml beside a
 * redocly.yaml that only extends the repository's: Redocly reads the ignore file next to the config
 * and keys it by the linted file, so this is how the documented exceptions apply to the copy too
 * (`--config <repo>/redocly.yaml` alone would lint the copy without them).
 */

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const CONFIG = path.join(ROOT, 'redocly.yaml');

type Node = { [key: string]: unknown };

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer?: string }>;
}

interface LintResult {
  exitCode: number;
  problems: Problem[];
  output: string;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node at `keys`; a plant whose target api.yaml no longer has fails loudly instead of planting nothing. */
function at(document: Node, ...keys: string[]): Node {
  let current: unknown = document;
  for (const key of keys) {
    if (!isNode(current) || !(key in current)) throw new Error(`api.yaml has no ${keys.join(' > ')}: update this plant`);
    current = current[key];
  }
  if (!isNode(current)) throw new Error(`${keys.join(' > ')} is not an object: update this plant`);
  return current;
}

function remove(node: Node, key: string): void {
  if (!(key in node)) throw new Error(`nothing to remove: no ${key}`);
  delete node[key];
}

function renamePath(document: Node, from: string, to: string): void {
  const paths = at(document, 'paths');
  const item = at(paths, from);
  const renamed = Object.fromEntries(Object.entries(paths).map(([key, value]) => (key === from ? [to, item] : [key, value])));
  document.paths = renamed;
}

function removeParameter(operation: Node, ref: string): void {
  const parameters = operation.parameters;
  if (!Array.isArray(parameters)) throw new Error('the operation has no parameters');
  const index = parameters.findIndex((parameter) => isNode(parameter) && parameter.$ref === ref);
  if (index < 0) throw new Error(`the operation has no parameter ${ref}`);
  parameters.splice(index, 1);
}

const response = (name: string) => ({ $ref: `#/components/responses/${name}` });

function runLint(cwd: string, file: string, config: string): Promise<LintResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'lint', file, '--config', config, '--format=json', '--max-problems=1000'],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        try {
          const report = JSON.parse(stdout) as { problems: Problem[] };
          resolve({ exitCode, problems: report.problems, output: stdout });
        } catch {
          reject(new Error(`redocly lint did not answer JSON (exit ${exitCode}): ${stderr.slice(-2000)}`));
        }
      },
    );
  });
}

/** Lints `document` (api.yaml, parsed and edited) as a copy that the repository's config and exceptions apply to. */
async function lintCopy(document: Node): Promise<LintResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lint-rules-'));
  try {
    await writeFile(path.join(dir, 'api.yaml'), YAML.stringify(document));
    await copyFile(path.join(ROOT, '.redocly.lint-ignore.yaml'), path.join(dir, '.redocly.lint-ignore.yaml'));
    await writeFile(path.join(dir, 'redocly.yaml'), YAML.stringify({ extends: [CONFIG] }));
    return await runLint(dir, 'api.yaml', path.join(dir, 'redocly.yaml'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs at most `concurrency` lints at once (two cores are shared with other work). */
function pool(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    while (active >= concurrency) await new Promise<void>((wake) => waiting.push(wake));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

interface Plant {
  rule: string;
  /** Rules the same plant breaks too, because they require the same thing for another reason. */
  also?: string[];
  when: string;
  plant(document: Node): void;
}

const PLANTS: Plant[] = [
  { rule: 'operation-operationId', when: 'an operation has no operationId', plant: (d) => remove(at(d, 'paths', '/agents', 'get'), 'operationId') },
  { rule: 'operation-operationId-unique', when: 'two operations share an operationId', plant: (d) => void (at(d, 'paths', '/agents', 'post').operationId = 'listAgents') },
  { rule: 'operation-summary', when: 'an operation has no summary', plant: (d) => remove(at(d, 'paths', '/agents/{agent_id}', 'put'), 'summary') },
  { rule: 'operation-tag-defined', when: "an operation's tag is not declared in `tags`", plant: (d) => void (at(d, 'paths', '/api/v1/me', 'get').tags = ['robots']) },
  { rule: 'rule/operation-tags-not-empty', when: 'an operation has an empty tag list', plant: (d) => void (at(d, 'paths', '/api/v1/me', 'get').tags = []) },
  {
    rule: 'no-invalid-media-type-examples',
    when: 'a response example breaks its schema',
    plant: (d) => void (at(d, 'components', 'responses', 'InternalError', 'content', 'application/json', 'example').error = 'oops'),
  },
  { rule: 'no-invalid-schema-examples', when: 'a schema example breaks its schema', plant: (d) => void (at(d, 'components', 'schemas', 'Timestamp').example = 42) },
  { rule: 'no-invalid-parameter-examples', when: 'a parameter example breaks its schema', plant: (d) => void (at(d, 'components', 'parameters', 'Page').example = 0) },
  { rule: 'no-http-verbs-in-paths', when: 'a path holds an HTTP method name', plant: (d) => renamePath(d, '/api/v1/agents', '/api/v1/get-agents'), also: ['agent-fleet/workspace-role'] },
  { rule: 'agent-fleet/collection-path-no-verbs', when: 'a collection path holds an action verb', plant: (d) => renamePath(d, '/api/v1/agents', '/api/v1/create-agents'), also: ['agent-fleet/workspace-role'] },
  { rule: 'agent-fleet/collection-path-plural-nouns', when: 'a collection is named by a singular noun', plant: (d) => renamePath(d, '/api/v1/agents', '/api/v1/agent'), also: ['agent-fleet/workspace-role'] },
  { rule: 'agent-fleet/secured-operation-auth-errors', when: 'a secured operation declares no 401', plant: (d) => remove(at(d, 'paths', '/agents', 'get', 'responses'), '401') },
  {
    rule: 'agent-fleet/secured-operation-auth-errors',
    when: 'an operation that accepts an API key declares no 403',
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents', 'post', 'responses'), '403'),
    // A member below the operation's role gets 403 too.
    also: ['agent-fleet/workspace-role'],
  },
  {
    rule: 'agent-fleet/validation-error-response',
    when: 'a root-surface operation declares no 422',
    plant: (d) => remove(at(d, 'paths', '/agents/{agent_id}/tasks', 'get', 'responses'), '422'),
  },
  {
    rule: 'agent-fleet/validation-error-response',
    when: 'a root-surface operation that reads a body declares no 400 for malformed JSON',
    also: ['agent-fleet/parser-refusal-responses'],
    plant: (d) => remove(at(d, 'paths', '/agents', 'post', 'responses'), '400'),
  },
  {
    rule: 'agent-fleet/validation-error-response',
    when: 'a conventions-surface operation declares no 400',
    also: ['agent-fleet/parser-refusal-responses'],
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents', 'get', 'responses'), '400'),
  },
  {
    rule: 'agent-fleet/not-found-response',
    when: 'an item path declares no 404',
    plant: (d) => remove(at(d, 'paths', '/agents/{agent_id}', 'get', 'responses'), '404'),
    // Agent keys may read an agent: its gate answers 404 for another agent's; so does the workspace's for a non-member.
    also: ['agent-fleet/agent-key-scope', 'agent-fleet/workspace-role'],
  },
  { rule: 'agent-fleet/rate-limit-response', when: 'an operation declares no 429', plant: (d) => remove(at(d, 'paths', '/api/v1/users', 'post', 'responses'), '429') },
  {
    rule: 'agent-fleet/internal-error-response',
    when: 'an operation declares no 500',
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents/{agent_id}', 'delete', 'responses'), '500'),
  },
  {
    rule: 'agent-fleet/parser-refusal-responses',
    when: 'an operation declares no 431 for headers the parser refuses',
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents', 'get', 'responses'), '431'),
  },
  {
    rule: 'agent-fleet/parser-refusal-responses',
    when: 'an operation that reads a body declares no 408 for a body that does not arrive in time',
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents', 'post', 'responses'), '408'),
  },
  {
    rule: 'agent-fleet/parser-refusal-responses',
    when: 'a page declares no 417 for an unsupported Expect',
    plant: (d) => remove(at(d, 'paths', '/login', 'get', 'responses'), '417'),
  },
  {
    rule: 'agent-fleet/error-response-schema',
    when: 'a conventions-surface operation answers a root-surface error body',
    plant: (d) => void (at(d, 'paths', '/api/v1/agents/{agent_id}', 'get', 'responses')['404'] = response('AgentNotFound')),
  },
  {
    rule: 'agent-fleet/error-response-schema',
    when: 'a root-surface operation answers the conventions error envelope',
    plant: (d) => void (at(d, 'paths', '/agents', 'get', 'responses')['429'] = response('ApiRateLimited')),
  },
  {
    rule: 'agent-fleet/collection-pagination',
    when: 'a root-surface collection declares no `skip`',
    plant: (d) => removeParameter(at(d, 'paths', '/agents', 'get'), '#/components/parameters/Skip'),
  },
  {
    rule: 'agent-fleet/collection-pagination',
    when: 'a cursor-paginated collection declares no `cursor`',
    plant: (d) => removeParameter(at(d, 'paths', '/api/v1/users/{user_id}/posts', 'get'), '#/components/parameters/Cursor'),
  },
  {
    rule: 'agent-fleet/collection-pagination',
    when: 'a conventions-surface collection answers a single-item envelope',
    plant: (d) => void (at(d, 'paths', '/api/v1/agents', 'get', 'responses', '200', 'content', 'application/json').schema = { $ref: '#/components/schemas/AgentItem' }),
  },
  {
    rule: 'agent-fleet/schema-property-description',
    when: 'a property has no description',
    plant: (d) => remove(at(d, 'components', 'schemas', 'Readiness', 'properties', 'checks'), 'description'),
  },
  {
    rule: 'agent-fleet/schema-property-description',
    when: 'a property is a $ref to a schema without a description, and has none of its own',
    plant: (d) => remove(at(d, 'components', 'schemas', 'AgentEntity', 'properties', 'owner_id'), 'description'),
  },
  {
    rule: 'agent-fleet/entity-defined-once',
    when: "a representation copies its entity's fields instead of composing it",
    plant: (d) => {
      const entity = at(d, 'components', 'schemas', 'TaskEntity');
      const full = at(d, 'components', 'schemas', 'Task');
      at(d, 'components', 'schemas').TaskResource = { type: 'object', additionalProperties: false, required: full.required, properties: entity.properties };
    },
  },
  {
    rule: 'agent-fleet/entity-defined-once',
    when: "a representation restates `id` with a schema other than its entity's own",
    plant: (d) => void (at(d, 'components', 'schemas', 'Task', 'properties').id = { type: 'string', description: 'A copy of the entity\'s id.' }),
  },
  {
    rule: 'agent-fleet/agent-key-scope',
    when: 'an operation open to agent keys names a scope AgentKeyScope does not declare',
    plant: (d) => void (at(d, 'paths', '/api/v1/agents/{agent_id}/leases', 'post')['x-agent-key-scope'] = 'tasks:everything'),
  },
  {
    rule: 'agent-fleet/agent-key-scope',
    when: 'an operation without {agent_id} in its path is opened to agent keys',
    plant: (d) => void (at(d, 'paths', '/api/v1/me', 'get')['x-agent-key-scope'] = 'tasks:read'),
  },
  {
    rule: 'agent-fleet/agent-key-scope',
    when: 'the event log, open to agent keys, loses its agent_id query parameter',
    plant: (d) => {
      const operation = at(d, 'paths', '/api/v1/events', 'get');
      operation.parameters = (operation.parameters as Array<{ name?: string }>).filter((parameter) => parameter.name !== 'agent_id');
    },
  },
  {
    rule: 'agent-fleet/workspace-role',
    when: "an operation on a workspace's data names no least role",
    plant: (d) => void delete at(d, 'paths', '/api/v1/agents/{agent_id}', 'patch')['x-workspace-role'],
  },
  {
    rule: 'agent-fleet/workspace-role',
    when: 'an operation names a role WorkspaceRole does not declare',
    plant: (d) => void (at(d, 'paths', '/agents/{agent_id}/tasks', 'post')['x-workspace-role'] = 'superuser'),
  },
  {
    rule: 'agent-fleet/workspace-role',
    when: "an operation that is not on a workspace's data names a role",
    plant: (d) => void (at(d, 'paths', '/api/v1/me', 'get')['x-workspace-role'] = 'viewer'),
  },
  {
    rule: 'agent-fleet/workspace-role',
    when: 'an operation on one workspace item declares no 404 for a non-member',
    plant: (d) => remove(at(d, 'paths', '/api/v1/workspaces/{workspace_id}/members', 'get', 'responses'), '404'),
    also: ['agent-fleet/not-found-response'],
  },
  {
    rule: 'agent-fleet/collection-pagination',
    when: 'the event log declares neither `cursor` nor `after`',
    plant: (d) => {
      const operation = at(d, 'paths', '/api/v1/events', 'get');
      operation.parameters = (operation.parameters as Array<{ name?: string }>).filter((parameter) => parameter.name !== 'after');
    },
  },
  {
    rule: 'agent-fleet/idempotent-create',
    when: 'a create declares no Idempotency-Key parameter',
    plant: (d) => removeParameter(at(d, 'paths', '/api/v1/agents', 'post'), '#/components/parameters/IdempotencyKey'),
  },
  {
    rule: 'agent-fleet/idempotent-create',
    when: "a create's 422 does not allow IDEMPOTENCY_KEY_REUSED",
    plant: (d) => void (at(d, 'paths', '/agents', 'post', 'responses')['422'] = response('UnprocessableEntity')),
  },
  {
    rule: 'agent-fleet/idempotent-create',
    when: 'a create declares no 409 for a key in use',
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents/{agent_id}/keys', 'post', 'responses'), '409'),
  },
  {
    rule: 'agent-fleet/idempotent-create',
    when: "a create's success does not declare Idempotent-Replayed",
    plant: (d) => remove(at(d, 'paths', '/api/v1/agents/{agent_id}/leases', 'post', 'responses', '204', 'headers'), 'Idempotent-Replayed'),
  },
  {
    rule: 'agent-fleet/required-properties-declared',
    when: 'a field is removed from an entity but its representations still require it',
    plant: (d) => remove(at(d, 'components', 'schemas', 'TaskEntity', 'properties'), 'priority'),
  },
];

const errorsOf = (result: LintResult) => result.problems.filter((problem) => problem.severity === 'error');

describe('api.yaml lint rules (redocly.yaml)', () => {
  const run = pool(3);
  let asLintApi: Promise<LintResult>;
  let unchangedCopy: Promise<LintResult>;
  const results = new Map<Plant, Promise<LintResult>>();

  // Every lint starts here, at most three at a time; each test awaits its own.
  beforeAll(async () => {
    const source = await readFile(path.join(ROOT, 'api.yaml'), 'utf8');
    asLintApi = run(() => runLint(ROOT, 'api.yaml', CONFIG));
    unchangedCopy = run(() => lintCopy(YAML.parse(source) as Node));
    for (const plant of PLANTS) {
      const document = YAML.parse(source) as Node;
      plant.plant(document);
      results.set(plant, run(() => lintCopy(document)));
    }
    // Awaited by their tests; a rejection is reported there.
    for (const result of [asLintApi, unchangedCopy, ...results.values()]) result.catch(() => undefined);
  });

  it('when api.yaml is linted as `npm run lint:api` does, then it passes without errors or warnings', async () => {
    const result = await asLintApi;
    expect(result.problems).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('when api.yaml is copied and rewritten unchanged, then the copy passes too (the harness applies the exceptions)', async () => {
    const result = await unchangedCopy;
    expect(result.problems).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('when redocly.yaml configures a rule, then this suite plants a violation of it', async () => {
    const config = YAML.parse(await readFile(CONFIG, 'utf8')) as { rules: Record<string, unknown> };
    const planted = new Set(PLANTS.map((plant) => plant.rule));
    expect(Object.keys(config.rules).filter((rule) => !planted.has(rule))).toEqual([]);
  });

  it.each(PLANTS.map((plant) => [plant.when, plant.rule, plant] as const))('when %s, then lint fails with %s', async (_when, rule, plant) => {
    const result = await results.get(plant)!;
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(`"ruleId": "${rule}"`);
    // Exactly the planted rule is broken (and those that require the same status): the plant hits nothing else.
    expect([...new Set(errorsOf(result).map((problem) => problem.ruleId))].sort()).toEqual([rule, ...(plant.also ?? [])].sort());
  });
});
