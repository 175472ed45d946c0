/**
 * api:diff names breaking changes: each kind of change is planted in a copy of api.yaml and the
 * comparison must rate it in the direction it affects (a tightened constraint breaks a request,
 * not a response), and the semver gate must hold a breaking change to a major version.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import semver from 'semver';
import YAML from 'yaml';
import { checkVersion, compareSpecs, type ApiChange, type ApiComparison } from '../../scripts/api-review/compare';
import { API_FILE, ROOT, parseSpec, type OpenApiDocument, type SpecSource } from '../../scripts/api-review/spec-source';

const API_TEXT = readFileSync(API_FILE, 'utf8');

type Plant = (document: any) => void;

const base: SpecSource = parseSpec('base', API_TEXT);

function planted(plant: Plant, version = base.version): SpecSource {
  const document = YAML.parse(API_TEXT) as OpenApiDocument;
  plant(document);
  document.info.version = version;
  return parseSpec('planted', YAML.stringify(document));
}

const breaking = (comparison: ApiComparison) => comparison.changes.filter((change) => change.category === 'breaking');
const nonBreaking = (comparison: ApiComparison) => comparison.changes.filter((change) => change.category === 'non-breaking');
const matching = (expected: Partial<ApiChange>) => expect.arrayContaining([expect.objectContaining(expected)]);

interface Case {
  kind: string;
  plant: Plant;
  expected: Partial<ApiChange>;
}

/**
 * Each kind is planted in its own part of the spec, and all kinds of one class in one copy: one
 * comparison per class keeps the suite quick, and a kind rated wrongly still fails its own test.
 */
const BREAKING: Case[] = [
  {
    kind: 'a removed operation',
    plant: (d) => delete d.paths['/agents/{agent_id}'].delete,
    expected: { operation: 'DELETE /agents/{agent_id}', direction: 'operation', rules: ['operation-removed'] },
  },
  {
    kind: 'a removed response property',
    plant: (d) => {
      delete d.components.schemas.AgentEntity.properties.owner_id;
      for (const name of ['Agent', 'AgentResource']) d.components.schemas[name].required = d.components.schemas[name].required.filter((field: string) => field !== 'owner_id');
    },
    expected: { operation: 'GET /agents/{agent_id}', direction: 'response', where: '200 response: owner_id', rules: ['property-removed'] },
  },
  {
    kind: 'a renamed request property (TaskCreate description to summary)',
    plant: (d) => {
      const properties = d.components.schemas.TaskCreate.properties;
      properties.summary = properties.description;
      delete properties.description;
    },
    expected: { operation: 'POST /agents/{agent_id}/tasks', direction: 'request', where: 'request body: description', rules: ['property-removed'] },
  },
  {
    kind: 'a new required request property',
    plant: (d) => d.components.schemas.TaskCreate.required.push('priority'),
    expected: { operation: 'POST /agents/{agent_id}/tasks', direction: 'request', where: 'request body', rules: ['required-properties-added'] },
  },
  {
    kind: 'a removed enum value',
    plant: (d) => (d.components.schemas.AgentStatus.enum = ['idle', 'running', 'paused']),
    expected: { operation: 'PATCH /agents/{agent_id}', direction: 'request', where: 'request body: status', rules: ['enum-values-removed'] },
  },
  {
    kind: 'a tightened request constraint (title maxLength 200 to 100)',
    plant: (d) => (d.components.schemas.TaskTitle.maxLength = 100),
    expected: { operation: 'POST /api/v1/agents/{agent_id}/tasks', direction: 'request', where: 'request body: title', rules: ['schema-constraint-changed'] },
  },
  {
    kind: 'a changed type',
    plant: (d) => (d.components.schemas.UserName.type = 'integer'),
    expected: { operation: 'POST /api/v1/users', direction: 'request', where: 'request body: name', rules: ['schema-type-changed'] },
  },
  {
    kind: 'a removed response status',
    plant: (d) => delete d.paths['/agents/{agent_id}'].get.responses['404'],
    expected: { operation: 'GET /agents/{agent_id}', direction: 'response', rules: ['response-removed'] },
  },
  {
    kind: 'a removed response header',
    plant: (d) => delete d.paths['/agents/{agent_id}'].get.responses['200'].headers.ETag,
    expected: { operation: 'GET /agents/{agent_id}', direction: 'response', where: '200 response header `ETag`', rules: ['response-header-removed'] },
  },
  {
    kind: 'a parameter that became required',
    plant: (d) => (d.components.parameters.AgentSort.required = true),
    expected: { operation: 'GET /api/v1/agents', direction: 'request', where: 'query parameter `sort`', rules: ['parameter-became-required'] },
  },
  {
    kind: 'a response enum value added',
    plant: (d) => d.components.schemas.Readiness.properties.status.enum.push('maintenance'),
    expected: { operation: 'GET /health/ready', direction: 'response', where: '200 response: status', rules: ['enum-values-added'] },
  },
  {
    kind: 'a loosened constraint on a schema that responses share (AgentName maxLength 100 to 200)',
    plant: (d) => (d.components.schemas.AgentName.maxLength = 200),
    expected: { operation: 'GET /agents', direction: 'response', where: '200 response: [].name', rules: ['schema-constraint-changed'] },
  },
];

const COMPATIBLE: (Case & { expected: { category: ApiChange['category'] } })[] = [
  {
    kind: 'an added operation',
    plant: (d) =>
      (d.paths['/agents/{agent_id}/tasks'].put = {
        operationId: 'replaceTasks',
        summary: 'Replace the tasks',
        tags: ['tasks'],
        responses: { '204': { description: 'Replaced' } },
      }),
    expected: { category: 'non-breaking', impact: 'minor', operation: 'PUT /agents/{agent_id}/tasks', direction: 'operation' },
  },
  {
    kind: 'an added optional request property',
    plant: (d) => (d.components.schemas.AgentCreate.properties.labels = { type: 'array', items: { type: 'string' } }),
    expected: { category: 'non-breaking', impact: 'minor', operation: 'POST /agents', where: 'request body: labels' },
  },
  {
    kind: 'an added response property',
    plant: (d) => (d.components.schemas.TaskEntity.properties.tags = { type: 'array', items: { type: 'string' } }),
    expected: { category: 'non-breaking', impact: 'minor', operation: 'GET /agents/{agent_id}/tasks/{task_id}', where: '200 response: tags' },
  },
  {
    kind: 'a loosened request constraint (limit up to 2,000)',
    plant: (d) => (d.components.parameters.Limit.schema.maximum = 2000),
    expected: { category: 'non-breaking', operation: 'GET /agents', where: 'query parameter `limit`', direction: 'request', message: '`maximum` changed from 1000 to 2000' },
  },
  {
    kind: 'a tightened response constraint (the task entity\'s priority at most 5)',
    plant: (d) => (d.components.schemas.TaskEntity.properties.priority = { type: 'integer', minimum: 0, maximum: 5 }),
    expected: { category: 'non-breaking', operation: 'GET /agents/{agent_id}/tasks/{task_id}', where: '200 response: priority', direction: 'response' },
  },
  {
    kind: 'an added request enum value (a new sort key)',
    plant: (d) => d.components.parameters.AgentSort.schema.enum.push('owner_id', '-owner_id'),
    expected: { category: 'non-breaking', operation: 'GET /api/v1/agents', where: 'query parameter `sort`', direction: 'request' },
  },
  {
    kind: 'a new optional query parameter',
    plant: (d) => d.paths['/protected'].get.parameters.push({ name: 'q', in: 'query', description: 'Search.', schema: { type: 'string' } }),
    expected: { category: 'non-breaking', impact: 'minor', operation: 'GET /protected', where: 'query parameter `q`' },
  },
  {
    kind: 'a changed description',
    plant: (d) => (d.components.schemas.AgentCreate.description = 'What a new agent is made of.'),
    expected: { category: 'documentation', impact: 'patch', operation: 'POST /agents', where: 'request body' },
  },
  {
    kind: 'a reworded parameter (Redocly pairs parameters by likeness; it must not read as removed and added)',
    plant: (d) => (d.components.parameters.Skip.description = 'A different and much longer text that shares no words with the old one at all, to be sure of it.'),
    expected: { category: 'documentation', operation: 'GET /agents', where: 'query parameter `skip`' },
  },
];

const plantAll = (cases: Case[]) => (document: OpenApiDocument) => cases.forEach((entry) => entry.plant(document));

describe('api:diff classifies planted changes', () => {
  describe('when api.yaml gains breaking changes', () => {
    let comparison: ApiComparison;
    beforeAll(async () => {
      comparison = await compareSpecs(base, planted(plantAll(BREAKING)));
    });

    test.each(BREAKING)('then $kind is named as breaking, in its direction', ({ expected }) => {
      expect(breaking(comparison)).toEqual(matching({ category: 'breaking', impact: 'major', ...expected }));
    });

    test('then they need a major version and the gate fails while info.version stays', () => {
      expect(comparison.requiredBump).toBe('major');
      expect(comparison.gate).toEqual({ passed: false, reason: expect.stringContaining(`breaking changes need a major version: info.version is ${base.version}`) });
    });
  });

  describe('when api.yaml gains only compatible changes', () => {
    let comparison: ApiComparison;
    beforeAll(async () => {
      comparison = await compareSpecs(base, planted(plantAll(COMPATIBLE)));
    });

    test.each(COMPATIBLE)('then $kind is named, and not as breaking', ({ expected }) => {
      expect(comparison.changes).toEqual(matching(expected));
    });

    test('then nothing at all is breaking, the release needs a minor version, and the gate passes without one', () => {
      expect(breaking(comparison)).toEqual([]);
      expect(nonBreaking(comparison).length).toBeGreaterThan(0);
      expect(comparison.requiredBump).toBe('minor');
      expect(comparison.gate).toEqual({ passed: true, reason: `compatible changes, not yet released (the next release is ${semver.inc(base.version, 'minor')})` });
    });
  });

  test('when the breaking changes come with a major version, then the gate passes', async () => {
    const major = semver.inc(base.version, 'major')!;
    const comparison = await compareSpecs(base, planted(BREAKING[0]!.plant, major));

    expect(comparison.requiredBump).toBe('major');
    expect(comparison.gate).toEqual({ passed: true, reason: `info.version ${major} covers a major change from ${base.version}` });
  });

  test('when nothing changed, then the comparison is empty and the gate passes', async () => {
    const comparison = await compareSpecs(base, planted(() => undefined));

    expect(comparison.changes).toEqual([]);
    expect(comparison.requiredBump).toBe('none');
    expect(comparison.gate).toEqual({ passed: true, reason: 'no changes' });
  });
});

/** POST /agents as it was before creates took `Idempotency-Key`: no parameter, its own 409 and 422 only. */
function withoutIdempotency(d: any): void {
  const operation = d.paths['/agents'].post;
  operation.parameters = operation.parameters.filter((parameter: { $ref?: string }) => parameter.$ref !== '#/components/parameters/IdempotencyKey');
  operation.responses['409'] = { description: 'A quota would be exceeded.', content: { 'application/json': { schema: { $ref: '#/components/schemas/QuotaExceededError' } } } };
  operation.responses['422'] = { $ref: '#/components/responses/UnprocessableEntity' };
}

describe('when a create gains an optional parameter with answers of its own', () => {
  const before = planted(withoutIdempotency);

  test('when those answers are marked as given only to requests that send it, then a client of the base is not broken', async () => {
    const comparison = await compareSpecs(before, base);

    expect(breaking(comparison).filter((change) => change.operation === 'POST /agents')).toEqual([]);
    expect(comparison.changes).toEqual(matching({ category: 'non-breaking', operation: 'POST /agents', where: 'header parameter `Idempotency-Key`' }));
  });

  test('when they are not marked, then the widened 409 is breaking', async () => {
    const unmarked = planted((d) => delete d.components.schemas.IdempotencyKeyInUseError['x-answers-only-requests-with']);
    const comparison = await compareSpecs(before, unmarked);

    expect(breaking(comparison)).toEqual(matching({ operation: 'POST /agents', where: expect.stringContaining('409 response') }));
  });
});

describe('when a request field gains an enum', () => {
  /** `/token`'s grant_type as it was before its enum was declared: any string. */
  const before = planted((d) => {
    const grantType = d.components.schemas.TokenRequest.properties.grant_type;
    delete grantType.enum;
    delete grantType['x-enum-already-enforced'];
  });

  test('when it is marked as enforced already (every other value was refused before), then no client of the base is broken', async () => {
    const comparison = await compareSpecs(before, base);
    expect(breaking(comparison)).toEqual([]);
  });

  test('when it is not marked, then the narrowed request is breaking', async () => {
    const unmarked = planted((d) => delete d.components.schemas.TokenRequest.properties.grant_type['x-enum-already-enforced']);
    const comparison = await compareSpecs(before, unmarked);
    expect(breaking(comparison)).toEqual(matching({ operation: 'POST /token', rules: ['enum-values-removed'] }));
  });

  test('when the base had the enum and a value is dropped, then the mark does not hide it: breaking', async () => {
    const narrowed = planted((d) => {
      d.components.schemas.TokenRequest.properties.grant_type.enum = ['password', 'refresh_token'];
    });
    const comparison = await compareSpecs(base, narrowed);
    expect(breaking(comparison)).toEqual(matching({ operation: 'POST /token', rules: ['enum-values-removed'] }));
  });
});

/** Every operation that answers a task, whole or embedded: both surfaces read the one task entity. */
const TASK_READERS = [
  'GET /agents/{agent_id}/tasks',
  'POST /agents/{agent_id}/tasks',
  'GET /agents/{agent_id}/tasks/{task_id}',
  'PATCH /agents/{agent_id}/tasks/{task_id}',
  'GET /api/v1/agents/{agent_id}/tasks',
  'POST /api/v1/agents/{agent_id}/tasks',
  'GET /api/v1/agents/{agent_id}/tasks/{task_id}',
  'PATCH /api/v1/agents/{agent_id}/tasks/{task_id}',
  'GET /api/v1/agents',
  'GET /api/v1/agents/{agent_id}',
];

describe('when a field is removed from the task entity', () => {
  let comparison: ApiComparison;
  beforeAll(async () => {
    comparison = await compareSpecs(base, planted((d) => delete d.components.schemas.TaskEntity.properties.priority));
  });

  test.each(TASK_READERS)('then %s is flagged as breaking: its responses lose `priority`', (operation) => {
    const removed = breaking(comparison).filter((change) => change.operation === operation && change.direction === 'response' && /(^|[.:\s])priority$/.test(change.where));
    expect(removed).not.toEqual([]);
  });
});

describe('the semver gate', () => {
  test.each([
    ['1.4.2', '1.4.2', 'major', false],
    ['1.4.2', '1.9.0', 'major', false],
    ['1.4.2', '2.0.0', 'major', true],
    ['1.4.2', '1.4.2', 'minor', true],
    ['1.4.2', '1.5.0', 'minor', true],
    ['1.4.2', '1.4.1', 'patch', false],
    ['1.4.2', '1.4.2', 'none', true],
  ] as const)('when the base is %s, info.version is %s and the changes are %s, then the gate passes: %s', (baseVersion, version, bump, passed) => {
    expect(checkVersion(baseVersion, version, bump).passed).toBe(passed);
  });
});

describe('npm run api:diff, run as a reviewer runs it', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'api-diff-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const runDiff = (...args: string[]) =>
    spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(ROOT, 'scripts', 'api-diff.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

  test('when the base lacks an operation that api.yaml has, but info.version is unchanged, then the report names it and the command passes', () => {
    const baseFile = path.join(dir, 'without-operation.yaml');
    const document = YAML.parse(API_TEXT) as OpenApiDocument;
    delete document.paths!['/protected'];
    writeFileSync(baseFile, YAML.stringify(document));

    const run = runDiff('--base', baseFile);

    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^## API review: .*without-operation\.yaml \(\S+\) → api\.yaml \(\S+\)$/m);
    expect(run.stdout).toContain('✅ **Semver gate passed:**');
    expect(run.stdout).toMatch(/### 🟢 Non-breaking changes \(1\)\n\n\| Change \| Where \| Operations \| Rule \|/);
    expect(run.stdout).toContain('`/protected`');
    expect(run.stdout).not.toContain('🔴');
  });

  test('when api.yaml removed an operation the base has, without a major version, then the report names it as breaking and the command fails', () => {
    const baseFile = path.join(dir, 'with-extra-operation.yaml');
    const document = YAML.parse(API_TEXT) as OpenApiDocument;
    document.paths!['/agents/{agent_id}/archive'] = { post: { operationId: 'archiveAgent', summary: 'Archive', tags: ['agents'], responses: { '204': { description: 'Archived' } } } };
    writeFileSync(baseFile, YAML.stringify(document));

    const run = runDiff('--base', baseFile);

    expect(run.status).toBe(1);
    expect(run.stdout).toContain('❌ **Semver gate failed:** breaking changes need a major version');
    expect(run.stdout).toMatch(/### 🔴 Breaking changes \(1\)\n\n\| Change \| Where \| Operations \| Rule \|\n\| --- \| --- \| --- \| --- \|\n\| Path `\/agents\/\{agent_id\}\/archive` was removed\. \| path \| `\/agents\/\{agent_id\}\/archive` \| path-removed \|\n/);
    expect(run.stderr).toMatch(/api:diff: breaking changes need a major version/);
  });

  test('when the base is a git revision, then its api.yaml is compared', () => {
    const run = runDiff('--base', 'HEAD', '--format', 'json');

    expect(run.status).toBe(0);
    const comparison = JSON.parse(run.stdout) as ApiComparison;
    expect(comparison.base.label).toBe('git HEAD');
    expect(comparison.gate.passed).toBe(true);
  });

  test('when the base names neither a file nor a revision, then the command says so and fails', () => {
    const run = runDiff('--base', 'no-such-branch-or-file');

    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--base no-such-branch-or-file: no such file, and git has no api.yaml at revision 'no-such-branch-or-file'");
  });
});
