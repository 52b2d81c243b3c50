/**
 * The Jest settings every project shares: sources compiled by SWC (with decorator metadata for Nest
 * DI), and workspace packages resolved to their TypeScript sources through the `@mobileclaw/source`
 * export condition (no build needed, no alias map to keep). Each project's jest.config.cjs calls this.
 * @param {string} projectDir absolute path of the project
 */
module.exports = (projectDir) => ({
  displayName: require(`${projectDir}/package.json`).name,
  rootDir: projectDir,
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['@mobileclaw/source', 'node', 'require', 'default'] },
  testMatch: ['<rootDir>/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/out-tsc/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', require('./tools/swc-options.cjs')],
    // jose (used by @a2a-js/sdk's CommonJS build) ships ES modules only, which Node 20 can require but
    // Jest cannot: compiled to CommonJS like the sources.
    '^.+/node_modules/jose/.+\\.js$': ['@swc/jest', { ...require('./tools/swc-options.cjs'), jsc: { ...require('./tools/swc-options.cjs').jsc, parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  testTimeout: 20000,
  // MOBILECLAW_TEST_RETRIES (set by .ci/run): a failed test is tried again, and reported flaky.
  setupFilesAfterEnv: [require.resolve('./tools/jest-retries.cjs')],
});
