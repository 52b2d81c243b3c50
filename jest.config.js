/** `npm test` runs every project's Jest configuration in one Jest process (one worker pool). */
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.cjs', '<rootDir>/libs/*/*/jest.config.cjs', '<rootDir>/apps/*/jest.config.cjs', '<rootDir>/test/jest.config.cjs'],
  // A global option (not read from the projects): process-level suites start real gateways.
  testTimeout: 20000,
};
