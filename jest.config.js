/** @type {import('jest').Config} */
module.exports = {
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The slow fault suites run on their own: jest.faults.config.js.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/faults/'],
  // The client runtime (src/client) imports with .js extensions, as ESM under nodenext needs.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest'] },
  // ESM-only packages are transformed to CommonJS too.
  transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi|oidc-provider|marked|request-filtering-agent|eventsource-parser)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Status coverage: every response of the in-process apps is recorded, and the reporter lists the
  // (operation, status) pairs of api.yaml no test produced (build/status-coverage.md).
  setupFilesAfterEnv: ['<rootDir>/test/support/status-coverage/record-responses.ts'],
  reporters: ['default', '<rootDir>/test/support/status-coverage/reporter.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
