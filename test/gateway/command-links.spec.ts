import { accessSync, constants, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * npm links a workspace package's commands (`npx mobileclaw`) when it installs, and skips a command
 * whose file does not exist then: a command pointing into dist/ is missing on a fresh checkout until
 * the build. So each command is a committed file outside dist/, runnable by itself.
 */
describe.each([
  ['apps/gateway', 'mobileclaw', 'dist/main.js'],
  ['apps/simulator', 'mobileclaw-sim', 'dist/cli.js'],
])('the %s command', (dir, command, built) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
  const target = manifest.bin[command];

  it(`${command} is a committed, executable node script outside dist/, published with the package`, () => {
    expect(target).toBeDefined();
    expect(normalize(target).startsWith('dist')).toBe(false);
    const file = join(ROOT, dir, target);
    expect(readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(() => accessSync(file, constants.X_OK)).not.toThrow();
    expect(manifest.files).toContain(target.split('/')[0]);
  });

  it(`${command} runs the built ${built}`, () => {
    expect(readFileSync(join(ROOT, dir, target), 'utf8')).toContain(`require('../${built}')`);
  });
});
