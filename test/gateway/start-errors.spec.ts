import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayProcess } from '../support/gateway-process';

/**
 * What the `mobileclaw` process prints when it cannot start: one `mobileclaw: …` line (or the list of
 * configuration problems) on exit 1, naming the setting to change — no stack, no framework lines.
 */
// Each case starts a gateway process: seconds each under a loaded machine (a budget, not a speed check).
jest.setTimeout(60_000);

let root!: string;
beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'mobileclaw-start-errors-'))));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a gateway that cannot start', () => {
  it('names MOBILECLAW_DATA_DIR when the data directory cannot be created (a file in the path; a folder refusing new entries)', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    expect(await GatewayProcess.failedStart({ MOBILECLAW_DATA_DIR: join(file, 'data'), MOBILECLAW_SIM: 'off' })).toBe(
      `mobileclaw: cannot use the data directory ${join(file, 'data')} (MOBILECLAW_DATA_DIR): ENOTDIR: not a directory, mkdir '${join(file, 'data')}'; set MOBILECLAW_DATA_DIR to a directory this user may create and write\n`,
    );
    // Node's own recursive mkdir never returns here (it retries at full CPU): the gateway fails at once.
    expect(await GatewayProcess.failedStart({ MOBILECLAW_DATA_DIR: '/proc/mobileclaw-data', MOBILECLAW_SIM: 'off' })).toBe(
      "mobileclaw: cannot use the data directory /proc/mobileclaw-data (MOBILECLAW_DATA_DIR): ENOENT: no such file or directory, mkdir '/proc/mobileclaw-data'; set MOBILECLAW_DATA_DIR to a directory this user may create and write\n",
    );
  });

  it('lists every configuration problem at once', async () => {
    const output = await GatewayProcess.failedStart({ MOBILECLAW_DATA_DIR: join(root, 'config'), MOBILECLAW_HTTP_PORT: 'abc', MOBILECLAW_DATABASE_URL: 'notaurl', MOBILECLAW_SIM: 'off' });
    expect(output).toBe(
      [
        'mobileclaw: Invalid MobileClaw configuration:',
        '  - MOBILECLAW_HTTP_PORT: MOBILECLAW_HTTP_PORT must be an integer number',
        '  - MOBILECLAW_DATABASE_URL must be a postgres:// or postgresql:// URL with a host, e.g. postgres://mobileclaw:secret@db.internal:5432/mobileclaw',
        '',
      ].join('\n'),
    );
  });
});
