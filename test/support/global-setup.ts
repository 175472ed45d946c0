import { CHROMIUM_PATH, chromiumRunnable, IN_CI, PG_TEST_URL, postgresReachable, REDIS_TEST_URL, redisReachable } from './services';

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

  const redisProblem = await redisReachable();
  if (redisProblem && IN_CI) {
    throw new Error(`Redis at ${REDIS_TEST_URL} is required in CI and unreachable: ${redisProblem}`);
  }
  if (redisProblem) {
    console.warn(`\n[skip] Redis suites skipped: ${REDIS_TEST_URL} unreachable (${redisProblem})\n`);
  }
  process.env.TEST_REDIS_AVAILABLE = redisProblem ? '0' : '1';

  const chromiumProblem = await chromiumRunnable();
  if (chromiumProblem && IN_CI) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} is required in CI for the browser suites and cannot run: ${chromiumProblem}`);
  }
  if (chromiumProblem) {
    console.warn(`\n[skip] browser suites skipped: Chromium at ${CHROMIUM_PATH} cannot run (${chromiumProblem}); set CHROMIUM_PATH or apt-get install chromium\n`);
  }
  process.env.TEST_CHROMIUM_AVAILABLE = chromiumProblem ? '0' : '1';
}
