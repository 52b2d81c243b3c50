import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** Lints `code` as if it were the file `filePath` and returns the messages of the boundary rules. */
function lintAs(filePath: string, code: string): { ruleId: string | null; message: string }[] {
  const run = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', '--stdin', '--stdin-filename', filePath], {
    cwd: root,
    input: code,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  expect(run.stdout).not.toBe('');
  // The Nx rule silently skips itself without a project graph: fail loudly instead.
  expect(run.stderr).not.toContain('No cached ProjectGraph');
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages;
}

describe('layer boundaries are enforced by lint (trigger → case → domain ← infrastructure)', () => {
  it('fails a domain file that imports infrastructure', () => {
    const messages = lintAs('libs/domain/src/boundary-canary.ts', "import { DeviceHub } from '@mobileclaw/device';\nexport const x = DeviceHub;\n");
    expect(messages.map((m) => m.ruleId)).toContain('@nx/enforce-module-boundaries');
  });

  it('fails a domain file that does I/O or uses Nest', () => {
    const messages = lintAs('libs/domain/src/boundary-canary.ts', "import { Socket } from 'node:net';\nimport { Controller } from '@nestjs/common';\nexport const x = [Socket, Controller];\n");
    expect(messages.filter((m) => m.ruleId === 'no-restricted-imports')).toHaveLength(2);
  });

  it('fails a trigger file that imports infrastructure directly', () => {
    const messages = lintAs('libs/trigger/rest/src/boundary-canary.ts', "import { DeviceHub } from '@mobileclaw/device';\nexport const y = DeviceHub;\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: '@nx/enforce-module-boundaries', message: expect.stringContaining('type:trigger') })]);
  });

  it('fails the simulator if it imports the gateway side', () => {
    const messages = lintAs('libs/simulator/src/boundary-canary.ts', "import { MobileClawError } from '@mobileclaw/domain';\nexport const z = MobileClawError;\n");
    expect(messages.map((m) => m.ruleId)).toContain('@nx/enforce-module-boundaries');
  });

  it('fails the case layer if it imports an adapter package or another adapter', () => {
    const messages = lintAs('libs/case/tasks/src/boundary-canary.ts', "import Database from 'better-sqlite3';\nimport { SqliteTaskRepository } from '@mobileclaw/store-sqlite';\nexport const w = [Database, SqliteTaskRepository];\n");
    expect(messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message)).toEqual([
      expect.stringContaining('better-sqlite3'),
      expect.stringContaining('type:case'),
    ]);
  });

  it('fails a phone-side app that imports a gateway-side library (scope)', () => {
    const messages = lintAs('apps/simulator/src/boundary-canary.ts', "import { DeviceHub } from '@mobileclaw/device';\nexport const s = DeviceHub;\n");
    expect(messages).toEqual([expect.objectContaining({ ruleId: '@nx/enforce-module-boundaries', message: expect.stringContaining('scope:phone') })]);
  });

  it('lets phone-side infrastructure (the ADB bridge) use the phone link, and no gateway-side adapter (scope)', () => {
    const code = "import { PhoneLink } from '@mobileclaw/phone-link';\nexport const p = PhoneLink;\n";
    expect(lintAs('libs/infrastructure/adb/src/boundary-canary.ts', code)).toEqual([]);
    expect(lintAs('libs/infrastructure/device/src/boundary-canary.ts', code)).toEqual([expect.objectContaining({ ruleId: '@nx/enforce-module-boundaries', message: expect.stringContaining('scope:gateway') })]);
    expect(lintAs('libs/infrastructure/adb/src/boundary-canary.ts', "import { MobileClawError } from '@mobileclaw/domain';\nexport const d = MobileClawError;\n")).toEqual([
      expect.objectContaining({ ruleId: '@nx/enforce-module-boundaries', message: expect.stringContaining('scope:phone') }),
    ]);
  });

  it('accepts infrastructure depending on the domain', () => {
    expect(lintAs('libs/infrastructure/sqlite/src/boundary-canary.ts', "import { MobileClawError } from '@mobileclaw/domain';\nexport const ok = MobileClawError;\n")).toEqual([]);
  });
});
