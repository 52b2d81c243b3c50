import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CLI_EXIT, CliError } from './exit-codes';

/** Why a file could not be written, in words, by the system's error code (errno name). */
const WRITE_FAILURES: Record<string, (file: string) => string> = {
  ENOENT: (file) => `the directory ${dirname(file)} does not exist`,
  ENOTDIR: (file) => `a part of ${dirname(file)} is not a directory`,
  EACCES: () => 'permission denied',
  EPERM: () => 'permission denied',
  EISDIR: () => 'it is a directory',
  EROFS: () => 'the file system is read-only',
  ENOSPC: () => 'no space left on the device',
  EDQUOT: () => 'the disk quota is exhausted',
};

/**
 * What went wrong writing `file`, for a person: `the directory /x does not exist`, `permission
 * denied`, …; the system's own message for any other error.
 */
export function fileWriteFailure(error: unknown, file: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code === undefined ? undefined : WRITE_FAILURES[code];
  return known ? known(file) : error instanceof Error ? error.message : String(error);
}

/**
 * Writes `bytes` to `file` (created or replaced).
 * @throws CliError ({@link CLI_EXIT.localFile}) `cannot write <file>: <why>` when the file cannot be written.
 */
export function writeLocalFile(file: string, bytes: Uint8Array): void {
  try {
    writeFileSync(file, bytes);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${fileWriteFailure(error, file)}`, CLI_EXIT.localFile);
  }
}
