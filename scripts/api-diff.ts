/**
 * npm run api:diff [-- --base <git revision | file>] [--output <file>] [--format markdown|json]
 *
 * Compares api.yaml with a base (by default the last released spec under generated/releases/),
 * prints a Markdown review report and exits 1 when the semver gate fails: a breaking change
 * without a major info.version bump.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compareSpecs } from './api-review/compare';
import { renderReport } from './api-review/report';
import { readBase, readWorkingSpec, releasesWithoutEntry } from './api-review/spec-source';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string' },
      output: { type: 'string', short: 'o' },
      format: { type: 'string', default: 'markdown' },
    },
  });
  if (values.format !== 'markdown' && values.format !== 'json') throw new Error(`--format ${values.format}: markdown or json`);
  const comparison = await compareSpecs(readBase(values.base), readWorkingSpec());
  const text = values.format === 'json' ? `${JSON.stringify(comparison, null, 2)}\n` : renderReport(comparison);
  if (values.output) {
    writeFileSync(values.output, text);
    console.log(`wrote ${values.output}`);
  } else {
    process.stdout.write(text);
  }
  const unrecorded = releasesWithoutEntry();
  if (unrecorded.length > 0) {
    console.error(`api:diff: generated/releases/ holds ${unrecorded.join(', ')} without an entry in CHANGELOG.md (npm run api:release writes both)`);
    process.exitCode = 1;
  }
  if (!comparison.gate.passed) {
    console.error(`api:diff: ${comparison.gate.reason}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(`api:diff: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
