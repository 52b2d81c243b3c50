/** One Jest run for every project: sources are compiled by SWC (with decorator metadata for Nest DI). */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
const source = {
  domain: 'libs/domain',
  protocol: 'libs/protocol',
  infrastructure: 'libs/infrastructure',
  'gateway-case': 'apps/gateway/case',
  'gateway-trigger': 'apps/gateway/trigger',
  simulator: 'apps/simulator',
  gateway: 'apps/gateway',
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: Object.fromEntries(
    Object.entries(source).map(([name, dir]) => [`^@mobileclaw/${name}$`, `<rootDir>/${dir}/src/index.ts`]),
  ),
  testTimeout: 20000,
};
