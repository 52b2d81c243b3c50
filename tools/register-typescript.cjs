'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload, loaded by `node --require` */
/**
 * Require hook for child processes of tests and for `npm run eval` (`node --require <this file> child.ts`):
 * compiles TypeScript on the fly with @swc/core, using the settings of jest.config.js, and resolves
 * `@mobileclaw/*` to the workspace sources (the `paths` of tsconfig.spec.json). No build needed.
 */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

function workspaceRoot(dir) {
  while (!fs.existsSync(path.join(dir, 'tsconfig.spec.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no tsconfig.spec.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

const root = workspaceRoot(__dirname);
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.spec.json'), 'utf8'));
const aliases = new Map(
  Object.entries(compilerOptions.paths).map(([name, targets]) => [name, path.join(root, compilerOptions.baseUrl || '.', targets[0])]),
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, aliases.get(request) || request, ...rest);
};

Module._extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
