/** `npm test` runs every project's Jest configuration in one Jest process (one worker pool). */
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.cjs', '<rootDir>/libs/*/*/jest.config.cjs', '<rootDir>/apps/*/jest.config.cjs', '<rootDir>/test/jest.config.cjs'],
  // A global option (not read from the projects): process-level suites start real gateways.
  testTimeout: 20000,
  // On 2 cores Jest runs every suite in its main process (in band): one handle a library leaves
  // behind (a NATS consumer's heartbeat timer outliving its connection once held CI after the last
  // test, for good) must not keep it from exiting. Jest then says "Force exiting Jest" in the log.
  forceExit: true,
};
