'use strict';
/**
 * How tests and TypeScript child processes compile the sources: SWC to CommonJS, ES2022, with legacy
 * decorators and their design-time metadata (Nest's dependency injection reads it). One definition
 * for jest.preset.cjs and tools/register-typescript.cjs.
 */
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
