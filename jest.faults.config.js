/**
 * The slow fault suites (`npm run test:faults`, run by .ci/run): real service processes against
 * private redis-server and PostgreSQL instances that the tests kill, freeze and restart. One at a
 * time: they measure latency and count resets.
 */
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/faults'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 180000,
  maxWorkers: 1,
  // Their services are real processes: no in-process responses to count for status coverage.
  setupFilesAfterEnv: [],
  reporters: ['default'],
};
