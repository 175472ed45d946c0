import Ajv2020 from 'ajv/dist/2020';
import { loadApiDocument } from '../../src/contract/openapi';
import { selectBranchesByConst } from '../../src/contract/branch-selection';
import { patternMessagesOf } from '../../src/http/validation';

type Schema = Record<string, unknown>;
const document = loadApiDocument() as unknown as { components: { schemas: Record<string, Schema> } };

/** A validator of `name` among `schemas`, by ajv as the request validator compiles them (2020-12, all errors). */
function validatorOf(schemas: Record<string, Schema>, name: string): (value: unknown) => boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: { schemas } });
  return ajv.compile({ $ref: `doc#/components/schemas/${name}` });
}

describe('a oneOf told apart by a const, as the validator sees it', () => {
  const original = structuredClone(document.components.schemas);
  const rewritten = structuredClone(document.components.schemas);
  selectBranchesByConst(rewritten);

  it('when LeaseUpdate is rewritten, then it becomes the if/then chain of its branches, and schemas without such a oneOf stay as they are', () => {
    expect(rewritten['LeaseUpdate']).toMatchObject({ if: { required: ['status'] }, else: { $ref: '#/components/schemas/LeaseHeartbeat' } });
    expect(rewritten['LeaseUpdate']).not.toHaveProperty('oneOf');
    expect(rewritten['Agent']).toEqual(original['Agent']);
    expect(Object.keys(rewritten).filter((name) => JSON.stringify(rewritten[name]) !== JSON.stringify(original[name]))).toEqual(['LeaseUpdate']);
  });

  it('when bodies of every shape are checked against the oneOf and its rewrite, then both accept and refuse exactly the same ones', () => {
    const before = validatorOf(original, 'LeaseUpdate');
    const after = validatorOf(rewritten, 'LeaseUpdate');
    const statuses = [undefined, 'succeeded', 'failed', 'running', '', 1, null];
    const extras: Schema[] = [{}, { ttl_seconds: 30 }, { ttl_seconds: 1 }, { progress: { percent: 5 } }, { progress: {} }, { result: { a: 1 } }, { error: 'why' }, { error: { a: 1 } }, { retry: true }, { other: 1 }];
    const bodies: unknown[] = [null, [], 'text', 3];
    for (const status of statuses) for (const first of extras) for (const second of extras) bodies.push({ ...(status === undefined ? {} : { status }), ...first, ...second });
    const differing = bodies.filter((body) => before(body) !== after(body));
    expect(differing).toEqual([]);
    expect(bodies.filter((body) => after(body)).length).toBeGreaterThan(10);
  });
});

describe('what a pattern means', () => {
  it('when api.yaml declares a pattern, then it says in words what the pattern asks for (x-pattern-message), which the validator\'s message becomes', () => {
    const patterns: string[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (typeof node !== 'object' || node === null) return;
      const { pattern, 'x-pattern-message': message } = node as { pattern?: unknown; 'x-pattern-message'?: unknown };
      if (typeof pattern === 'string' && typeof message !== 'string') patterns.push(pattern);
      Object.values(node).forEach(visit);
    };
    visit(document);
    expect(patterns).toEqual([]);
    expect(patternMessagesOf(document).get('must match pattern "\\S"')).toBe('must not be blank');
  });
});
