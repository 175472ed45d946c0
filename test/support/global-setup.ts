import { IN_CI, PG_TEST_URL, postgresReachable } from './services';

/**
 * Probes the services the suites need once. In CI a missing service fails the run; on a
 * developer's machine its suites are skipped with the reason printed.
 */
export default async function globalSetup(): Promise<void> {
  const pgProblem = await postgresReachable();
  if (pgProblem && IN_CI) {
    throw new Error(`PostgreSQL at ${PG_TEST_URL} is required in CI and unreachable: ${pgProblem}`);
  }
  if (pgProblem) {
    console.warn(`\n[skip] PostgreSQL suites skipped: ${PG_TEST_URL} unreachable (${pgProblem})\n`);
  }
  process.env.TEST_PG_AVAILABLE = pgProblem ? '0' : '1';
}
