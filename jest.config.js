/** `npm test` runs every project's Jest configuration in one Jest process (one worker pool). */
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.cjs', '<rootDir>/libs/*/*/jest.config.cjs', '<rootDir>/apps/*/jest.config.cjs', '<rootDir>/test/jest.config.cjs'],
  // A global option (not read from the projects): process-level suites start real gateways.
  testTimeout: 20000,
  // Suites run in worker processes, also on 2 cores (where Jest would otherwise run them all in its
  // own process): a worker that holds more than this after a suite is replaced. In one process the
  // modules and servers of 300 suites grew past Node's 4 GB heap, and garbage collection took longer
  // than the tests.
  workerIdleMemoryLimit: '1536MB',
  // A handle a library leaves behind (a NATS consumer's heartbeat timer outliving its connection once
  // held CI after the last test, for good) must not keep Jest from exiting; it says "Force exiting
  // Jest" in the log then.
  forceExit: true,
};
