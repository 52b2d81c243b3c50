#!/usr/bin/env node
// The `mobileclaw` command: runs the built CLI (apps/gateway/dist/main.js). This file is committed,
// not built, because npm links a package's commands at install time and skips one whose file does
// not exist yet; a fresh checkout has no dist/ until `npm run build`.
try {
  require.resolve('../dist/main.js');
} catch {
  process.stderr.write('mobileclaw: the gateway is not built yet: run `npm run build` in the MobileClaw checkout first\n');
  process.exit(1);
}
require('../dist/main.js');
