import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestContext } from '@jest/reporters';
import type { AggregatedResult } from '@jest/test-result';
import type { Config } from '@jest/types';
import { loadContract } from '../fuzzer/contract';
import { RECORD_DIR_ENV } from './recorder';
import { readRecords, renderMarkdown, renderText, statusCoverage } from './report';

export interface StatusCoverageOptions {
  /** Where the Markdown report goes, relative to rootDir (default build/status-coverage.md; the JSON beside it). */
  output?: string;
}

/** What narrowed this run to part of the suite (empty: the whole suite ran). */
export function filtersOf(config: Config.GlobalConfig): string[] {
  const filters: string[] = [];
  if (config.testPathPatterns.isSet()) filters.push(`test paths ${config.testPathPatterns.toPretty()}`);
  if (config.testNamePattern) filters.push(`test names ${config.testNamePattern}`);
  if (config.onlyChanged || config.lastCommit || config.changedSince || config.findRelatedTests) filters.push('changed or related files only');
  if (config.onlyFailures) filters.push('failed tests only');
  if (config.watch || config.watchAll) filters.push('watch mode');
  if (config.shard) filters.push(`shard ${config.shard.shardIndex}/${config.shard.shardCount}`);
  if (config.listTests) filters.push('listing tests');
  return filters;
}

/**
 * Status coverage, the reporting half: when the run is over, the responses the workers recorded
 * (recorder.ts) are matched to api.yaml's operations; the reporter prints how many (operation,
 * declared status) pairs were produced and which never were, and writes the same as Markdown to
 * build/status-coverage.md. When the whole suite ran and passed, a pair never produced fails the
 * run: a status api.yaml promises must be one some test has seen the service answer.
 */
export default class StatusCoverageReporter implements Reporter {
  private error: Error | undefined;

  constructor(
    private readonly globalConfig: Config.GlobalConfig,
    private readonly options: StatusCoverageOptions = {},
  ) {}

  async onRunComplete(_contexts: Set<TestContext>, results: AggregatedResult): Promise<void> {
    const directory = process.env[RECORD_DIR_ENV];
    if (!directory || !existsSync(directory)) return;
    try {
      const coverage = statusCoverage(await loadContract(), readRecords(directory));
      const filters = filtersOf(this.globalConfig);
      if (results.wasInterrupted) filters.push('interrupted');
      const wholeSuite = filters.length === 0;
      const output = path.resolve(this.globalConfig.rootDir, this.options.output ?? 'build/status-coverage.md');
      mkdirSync(path.dirname(output), { recursive: true });
      writeFileSync(output, renderMarkdown(coverage, { wholeSuite, generatedAt: new Date().toISOString() }));
      // The same, for tools: which test files produce each pair.
      writeFileSync(output.replace(/\.md$/, '.json'), `${JSON.stringify({ wholeSuite, ...coverage }, null, 1)}\n`);
      const scope = wholeSuite ? '' : `\n(part of the suite ran: ${filters.join('; ')}; gaps do not fail it)`;
      process.stderr.write(`\n${renderText(coverage)}${scope}\nReport: ${path.relative(process.cwd(), output)}\n\n`);
      const passed = results.numFailedTests === 0 && results.numRuntimeErrorTestSuites === 0 && !results.runExecError;
      if (wholeSuite && passed && (coverage.gaps.length > 0 || coverage.stale.length > 0)) {
        const problems = [coverage.gaps.length > 0 ? `${coverage.gaps.length} (operation, status) pairs api.yaml declares were never produced by a test` : '', coverage.stale.length > 0 ? `${coverage.stale.length} entries of unreachable.ts are stale` : ''];
        this.error = new Error(`${problems.filter(Boolean).join('; ')} (listed above)`);
        process.stderr.write(`Status coverage fails this run: ${this.error.message}.\n\n`);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }

  getLastError(): Error | undefined {
    return this.error;
  }
}
