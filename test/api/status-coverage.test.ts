import { loadContract, type Contract } from '../support/fuzzer/contract';
import type { ResponseRecord } from '../support/status-coverage/recorder';
import { renderMarkdown, statusCoverage } from '../support/status-coverage/report';
import { UNREACHABLE } from '../support/status-coverage/unreachable';

const AGENT = '0190a8f0-0000-7000-8000-000000000000';
const record = (method: string, path: string, status: number, file = 'test/api/some.test.ts'): ResponseRecord => ({ method, path, status, file });

/** The reporter's arithmetic, on records made up here (the real ones come from the whole run). */
describe('status coverage', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract();
  });

  it('when responses are recorded, then each counts for the operation its method and path match, and nothing else does', () => {
    const coverage = statusCoverage(contract, [record('GET', `/agents/${AGENT}`, 404), record('GET', `/agents/${AGENT}`, 404, 'test/api/other.test.ts'), record('HEAD', `/agents/${AGENT}`, 200), record('GET', '/nowhere', 404), record('GET', `/AGENTS/${AGENT}`, 200)], {});
    expect(coverage.covered).toEqual([{ operation: 'GET /agents/{agent_id}', status: '404', responses: 2, files: { 'test/api/some.test.ts': 1, 'test/api/other.test.ts': 1 } }]);
    expect(coverage.responses).toBe(5);
    expect(coverage.gaps).toContainEqual({ operation: 'GET /agents/{agent_id}', status: '200', responses: 0, files: {} });
    expect(coverage.gaps).toHaveLength(coverage.declared.length - 1);
    expect(coverage.undeclared).toEqual([]);
  });

  it('when an operation answers a status api.yaml does not declare for it, then it is listed as produced but not declared', () => {
    const coverage = statusCoverage(contract, [record('GET', '/agents', 418)], {});
    expect(coverage.undeclared).toEqual([{ operation: 'GET /agents', status: '418', responses: 1, files: { 'test/api/some.test.ts': 1 } }]);
    expect(renderMarkdown(coverage, { wholeSuite: true, generatedAt: 'now' })).toContain('| `GET /agents` | 418 | 1 | some.test.ts |');
  });

  it('when a pair is reviewed as unreachable, then it is no gap; once a test produces it or api.yaml drops it, the entry is stale', () => {
    const reviewed = { 'GET /agents 418': 'not declared', 'GET /agents 500': 'reviewed', 'GET /agents 503': 'reviewed' };
    const coverage = statusCoverage(contract, [record('GET', '/agents', 503)], reviewed);
    expect(coverage.unreachable).toEqual([{ operation: 'GET /agents', status: '500', responses: 0, files: {}, reason: 'reviewed' }]);
    expect(coverage.gaps.map((pair) => `${pair.operation} ${pair.status}`)).not.toContain('GET /agents 500');
    expect(coverage.stale).toEqual(['GET /agents 418 is listed as unreachable, and api.yaml does not declare it', 'GET /agents 503 is listed as unreachable, yet a test produced it']);
  });

  it('when the reviewed list of unreachable pairs is read, then each names a pair api.yaml declares and gives a reason', () => {
    const declared = new Set(contract.operations.flatMap((operation) => Object.keys(operation.operation.responses ?? {}).map((status) => `${operation.method} ${operation.template} ${status}`)));
    expect(Object.keys(UNREACHABLE).filter((key) => !declared.has(key))).toEqual([]);
    expect(Object.entries(UNREACHABLE).filter(([, reason]) => reason.length < 40)).toEqual([]);
  });
});
