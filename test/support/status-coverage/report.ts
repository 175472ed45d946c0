import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Contract } from '../fuzzer/contract';
import type { ResponseRecord } from './recorder';

/** `GET /agents/{agent_id}`, one status it declares, and how many recorded responses had it. */
export interface StatusPair {
  operation: string;
  status: string;
  responses: number;
  /** The test files that produced it, with how many responses each. */
  files: Record<string, number>;
}

export interface StatusCoverage {
  declared: StatusPair[];
  covered: StatusPair[];
  gaps: StatusPair[];
  /** Responses of an operation with a status it does not declare (the response validation cannot see every one). */
  undeclared: StatusPair[];
  /** Recorded responses in all. */
  responses: number;
}

const total = (files: Record<string, number>) => Object.values(files).reduce((sum, count) => sum + count, 0);

export function readRecords(directory: string): ResponseRecord[] {
  const records: ResponseRecord[] = [];
  for (const name of readdirSync(directory).filter((entry) => entry.endsWith('.jsonl'))) {
    for (const line of readFileSync(path.join(directory, name), 'utf8').split('\n')) {
      if (line) records.push(JSON.parse(line) as ResponseRecord);
    }
  }
  return records;
}

/**
 * Every (operation, declared status) pair of api.yaml against the recorded responses. A response
 * counts for the operation its method and path match (HEAD does not count for GET; a path or
 * method api.yaml does not declare counts for no operation).
 */
export function statusCoverage(contract: Contract, records: ResponseRecord[]): StatusCoverage {
  const counts = new Map<string, Record<string, number>>();
  const matches = new Map<string, string | undefined>();
  for (const record of records) {
    let template = matches.get(record.path);
    if (!matches.has(record.path)) {
      template = contract.matchPath(record.path)?.template;
      matches.set(record.path, template);
    }
    if (!template) continue;
    const key = `${record.method} ${template}\t${record.status}`;
    const files = counts.get(key) ?? {};
    files[record.file] = (files[record.file] ?? 0) + 1;
    counts.set(key, files);
  }
  const declared: StatusPair[] = [];
  const operations = new Set<string>();
  for (const { method, template, operation } of contract.operations) {
    operations.add(`${method} ${template}`);
    for (const status of Object.keys(operation.responses ?? {})) {
      const files = counts.get(`${method} ${template}\t${status}`) ?? {};
      declared.push({ operation: `${method} ${template}`, status, responses: total(files), files });
    }
  }
  const declaredKeys = new Set(declared.map((pair) => `${pair.operation}\t${pair.status}`));
  const undeclared = [...counts]
    .filter(([key]) => operations.has(key.split('\t')[0] as string) && !declaredKeys.has(key))
    .map(([key, files]) => {
      const [operation = '', status = ''] = key.split('\t');
      return { operation, status, responses: total(files), files };
    });
  return {
    declared,
    covered: declared.filter((pair) => pair.responses > 0),
    gaps: declared.filter((pair) => pair.responses === 0),
    undeclared,
    responses: records.length,
  };
}

/** `GET /agents: 412, 500` per operation. */
function byOperation(pairs: StatusPair[]): Array<[string, string[]]> {
  const grouped = new Map<string, string[]>();
  for (const pair of pairs) grouped.set(pair.operation, [...(grouped.get(pair.operation) ?? []), pair.status]);
  return [...grouped];
}

const percent = (coverage: StatusCoverage) => (coverage.declared.length === 0 ? 100 : (100 * coverage.covered.length) / coverage.declared.length).toFixed(1);

export function summaryLine(coverage: StatusCoverage): string {
  return `Status coverage: ${coverage.covered.length} of ${coverage.declared.length} (operation, status) pairs of api.yaml produced (${percent(coverage)}%) by ${coverage.responses} recorded responses.`;
}

/** The short text the reporter prints. */
export function renderText(coverage: StatusCoverage): string {
  const lines = [summaryLine(coverage)];
  if (coverage.gaps.length > 0) {
    lines.push('Never produced:');
    for (const [operation, statuses] of byOperation(coverage.gaps)) lines.push(`  ${operation}: ${statuses.join(', ')}`);
  }
  if (coverage.undeclared.length > 0) {
    lines.push('Produced but not declared:');
    for (const pair of coverage.undeclared) lines.push(`  ${pair.operation}: ${pair.status} (${pair.responses}x, ${Object.keys(pair.files).join(', ')})`);
  }
  return lines.join('\n');
}

/** The test files that produced a pair, most responses first. */
const filesOf = (pair: StatusPair) =>
  Object.entries(pair.files)
    .sort(([, a], [, b]) => b - a)
    .map(([file]) => path.basename(file))
    .join(', ');

export function renderMarkdown(coverage: StatusCoverage, context: { wholeSuite: boolean; generatedAt: string }): string {
  const lines = [
    '# Status coverage',
    '',
    `${summaryLine(coverage)}`,
    '',
    `Generated ${context.generatedAt} by the jest run${context.wholeSuite ? ' of the whole suite' : ' of part of the suite (filtered: gaps do not fail it)'}. Every response of the in-process apps counts; real server processes (test/ops) and answers of Node's HTTP parser are not recorded.`,
    '',
    '## Never produced',
    '',
  ];
  if (coverage.gaps.length === 0) lines.push('None.');
  else {
    lines.push('| Operation | Statuses |', '|---|---|');
    for (const [operation, statuses] of byOperation(coverage.gaps)) lines.push(`| \`${operation}\` | ${statuses.join(', ')} |`);
  }
  lines.push('', '## Produced but not declared', '');
  if (coverage.undeclared.length === 0) lines.push('None.');
  else {
    lines.push('| Operation | Status | Responses | Test files |', '|---|---|---|---|');
    for (const pair of coverage.undeclared) lines.push(`| \`${pair.operation}\` | ${pair.status} | ${pair.responses} | ${filesOf(pair)} |`);
  }
  lines.push('', '## Every declared pair', '', '| Operation | Status | Responses | Test files |', '|---|---|---|---|');
  for (const pair of coverage.declared) lines.push(`| \`${pair.operation}\` | ${pair.status} | ${pair.responses} | ${filesOf(pair)} |`);
  return `${lines.join('\n')}\n`;
}
