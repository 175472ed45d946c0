/**
 * npm run api:release [-- --version X.Y.Z] [--date YYYY-MM-DD] [--dry-run]
 *
 * Gives the changes since the last release a version (the smallest the diff allows, unless one is
 * named), sets it as info.version, appends the CHANGELOG.md entry and snapshots the spec under
 * generated/releases/. Commit the three files together.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { release } from './api-review/release';
import { ROOT } from './api-review/spec-source';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const result = await release({ version: values.version, date: values.date!, dryRun: values['dry-run'] });
  process.stdout.write(`${result.entry}\n`);
  const verb = values['dry-run'] ? 'would release' : 'released';
  console.log(`${verb} ${result.version} (a ${result.comparison.requiredBump} change from ${result.comparison.base.version}): api.yaml, CHANGELOG.md, ${path.relative(ROOT, result.snapshot)}`);
}

main().catch((error: unknown) => {
  console.error(`api:release: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
