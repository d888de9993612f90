/** Type checking happens once in `tsc -b` (part of `npm test`); jest only transpiles. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/scratch-setup.js',
  globalTeardown: '<rootDir>/test/support/scratch-teardown.js',
  setupFiles: ['<rootDir>/test/support/calendar-day.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
};
