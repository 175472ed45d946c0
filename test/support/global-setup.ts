import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@jest/types';
import { buildBrowserAssets } from '../../scripts/build-browser';
import { RECORD_DIR_ENV } from './status-coverage/recorder';
import { CHROMIUM_PATH, chromiumRunnable, IN_CI, PG_TEST_URL, postgresReachable, REDIS_TEST_URL, redisReachable } from './services';

interface Service {
  name: string;
  /** Where it was looked for, and what to do about it. */
  where: string;
  /** Set to '0' or '1' for the suites that need it. */
  flag: string;
  /** Undefined when the service answers; otherwise why not. */
  probe: () => Promise<string | undefined>;
}

const SERVICES: Service[] = [
  { name: 'PostgreSQL', where: PG_TEST_URL, flag: 'TEST_PG_AVAILABLE', probe: postgresReachable },
  { name: 'Redis', where: REDIS_TEST_URL, flag: 'TEST_REDIS_AVAILABLE', probe: redisReachable },
  { name: 'Chromium', where: `${CHROMIUM_PATH} (set CHROMIUM_PATH or apt-get install chromium)`, flag: 'TEST_CHROMIUM_AVAILABLE', probe: chromiumRunnable },
];

/** The status-coverage reporter is listening: its module is among the run's reporters. */
const STATUS_COVERAGE_REPORTER = /[\\/]status-coverage[\\/]reporter\.js$/;

/**
 * Builds the pages' scripts and styles, and probes the services the suites need once. In CI a missing service fails the run; on a
 * developer's machine its suites are skipped with the reason printed. When the status-coverage
 * reporter is configured, makes the directory the workers record their responses in.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  // Every app serves the pages' bundles: built once per run, from the sources under test.
  await buildBrowserAssets();
  if ((globalConfig.reporters ?? []).some((reporter) => STATUS_COVERAGE_REPORTER.test(typeof reporter === 'string' ? reporter : reporter[0]))) {
    process.env[RECORD_DIR_ENV] = mkdtempSync(path.join(os.tmpdir(), 'agent-fleet-status-coverage-'));
  }
  for (const service of SERVICES) {
    const problem = await service.probe();
    if (problem && IN_CI) throw new Error(`${service.name} at ${service.where} is required in CI and unavailable: ${problem}`);
    if (problem) console.warn(`\n[skip] ${service.name} suites skipped: ${service.where} unavailable (${problem})\n`);
    process.env[service.flag] = problem ? '0' : '1';
  }
}
