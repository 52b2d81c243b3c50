'use strict';
/**
 * Require hook for child processes of tests and for `npm run eval`:
 * `node --conditions=@mobileclaw/source --require tools/register-typescript.cjs child.ts`.
 * Compiles TypeScript on the fly with @swc/core (tools/swc-options.cjs, as Jest does). Workspace packages
 * resolve to their sources through the `@mobileclaw/source` export condition, so no build is needed.
 */
const Module = require('node:module');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');
const swcOptions = require('./swc-options.cjs');

Module._extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};
