#!/usr/bin/env node
// The `mobileclaw-sim` command: runs the built CLI (apps/simulator/dist/cli.js). This file is
// committed, not built, because npm links a package's commands at install time and skips one whose
// file does not exist yet; a fresh checkout has no dist/ until `npm run build`.
try {
  require.resolve('../dist/cli.js');
} catch {
  process.stderr.write('mobileclaw-sim: the simulator is not built yet: run `npm run build` in the MobileClaw checkout first\n');
  process.exit(1);
}
require('../dist/cli.js');
