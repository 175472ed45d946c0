import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Contract } from '../fuzzer/contract';
import type { ResponseRecord } from './recorder';
import { UNREACHABLE, unreachableKey } from './unreachable';

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
  /** Never produced, and not reviewed as unreachable: what the reporter fails a run of the whole suite for. */
  gaps: StatusPair[];
  /** Never produced, reviewed as unreachable (unreachable.ts), with the reason. */
  unreachable: Array<StatusPair & { reason: string }>;
  /** Entries of unreachable.ts that a test produced or api.yaml no longer declares. */
  stale: string[];
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
export function statusCoverage(contract: Contract, records: ResponseRecord[], reviewed: Record<string, string> = UNREACHABLE): StatusCoverage {
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
  const reasonOf = (pair: StatusPair) => reviewed[unreachableKey(pair.operation, pair.status)];
  const produced = new Set(declared.filter((pair) => pair.responses > 0).map((pair) => unreachableKey(pair.operation, pair.status)));
  const declaredPairs = new Set(declared.map((pair) => unreachableKey(pair.operation, pair.status)));
  return {
    declared,
    covered: declared.filter((pair) => pair.responses > 0),
    gaps: declared.filter((pair) => pair.responses === 0 && reasonOf(pair) === undefined),
    unreachable: declared.flatMap((pair) => {
      const reason = reasonOf(pair);
      return pair.responses === 0 && reason !== undefined ? [{ ...pair, reason }] : [];
    }),
    stale: Object.keys(reviewed).flatMap((key) => (produced.has(key) ? [`${key} is listed as unreachable, yet a test produced it`] : declaredPairs.has(key) ? [] : [`${key} is listed as unreachable, and api.yaml does not declare it`])),
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
  return (
    `Status coverage: ${coverage.covered.length} of ${coverage.declared.length} (operation, status) pairs of api.yaml produced (${percent(coverage)}%) by ${coverage.responses} recorded responses; ` +
    `${coverage.unreachable.length} reviewed as unreachable, ${coverage.gaps.length} never produced.`
  );
}

/** The short text the reporter prints. */
export function renderText(coverage: StatusCoverage): string {
  const lines = [summaryLine(coverage)];
  if (coverage.gaps.length > 0) {
    lines.push('Never produced:');
    for (const [operation, statuses] of byOperation(coverage.gaps)) lines.push(`  ${operation}: ${statuses.join(', ')}`);
  }
  for (const stale of coverage.stale) lines.push(`Stale entry of unreachable.ts: ${stale}`);
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
  lines.push('', '## Reviewed as unreachable', '');
  if (coverage.unreachable.length === 0) lines.push('None.');
  else {
    lines.push('| Operation | Status | Why no request can produce it |', '|---|---|---|');
    for (const pair of coverage.unreachable) lines.push(`| \`${pair.operation}\` | ${pair.status} | ${pair.reason.replace(/\|/g, '\\|')} |`);
  }
  if (coverage.stale.length > 0) lines.push('', '## Stale entries of the unreachable list', '', ...coverage.stale.map((stale) => `- ${stale}`));
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
