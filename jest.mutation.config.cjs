/**
 * The Jest configuration `npm run mutation` (Stryker, stryker.config.json) runs: only the specs of the
 * framing and device-session core (libs/protocol, libs/infrastructure/device, libs/infrastructure/tcp,
 * and test/device, the session specs run over every transport), as one project so that Stryker's test environment wraps it with the preset's export conditions intact.
 *
 * Stryker mutates copies of the sources in a sandbox, but node_modules still links each workspace
 * package to the original folder, so the mutated packages are mapped to the sandbox's own sources here;
 * every other workspace package resolves through the `@mobileclaw/source` export condition as usual.
 */
const preset = require('./jest.preset.cjs')(__dirname);

const CORE = ['libs/protocol/src', 'libs/infrastructure/device/src', 'libs/infrastructure/tcp/src', 'test/device'];

module.exports = {
  ...preset,
  displayName: 'mutation-core',
  roots: CORE.map((dir) => `<rootDir>/${dir}`),
  moduleNameMapper: {
    '^@mobileclaw/protocol$': '<rootDir>/libs/protocol/src/index.ts',
    '^@mobileclaw/device$': '<rootDir>/libs/infrastructure/device/src/index.ts',
  },
};
