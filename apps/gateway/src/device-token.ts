import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, ensurePrivateDirectory } from '@mobileclaw/store-sqlite';

/** File name of the generated device token inside the data directory. */
export const DEVICE_TOKEN_FILE = 'device-token';

/**
 * Returns the device token stored in `dataDir/device-token`, generating a random one (32 bytes,
 * base64url) on first start, mode 0600 in a 0700 directory. There is no default shared token in code.
 * @returns `{token, created}` — `created` is true when this call generated it.
 * @throws Error when the directory cannot be created or the file cannot be read or written.
 */
export function loadOrCreateDeviceToken(dataDir: string): { token: string; created: boolean; path: string } {
  const path = join(dataDir, DEVICE_TOKEN_FILE);
  try {
    const token = readFileSync(path, 'utf8').trim();
    if (token.length > 0) return { token, created: false, path };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  ensurePrivateDirectory(dataDir);
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path, token + '\n', { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE);
  return { token, created: true, path };
}
