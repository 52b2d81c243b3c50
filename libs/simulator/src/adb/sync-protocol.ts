/**
 * The sync protocol (AOSP packages/modules/adb SYNC.TXT), version 1: after `sync:` is OKAYed, every
 * message is a 4-byte ASCII id and a 32-bit little-endian number, and requests (`STAT`, `LIST`,
 * `RECV`, `SEND`) carry that many bytes of UTF-8 path. A file travels as `DATA` chunks of at most
 * {@link SYNC_DATA_MAX} bytes and a closing `DONE`.
 */

/** Largest DATA chunk, in bytes (64 KiB, as adbd sends). */
export const SYNC_DATA_MAX = 64 * 1024;

/** Longest path accepted in a sync request, in bytes (adbd's limit is 1024). */
export const SYNC_MAX_PATH = 1024;

/** `S_IFREG | 0660`: a regular file on shared storage. */
export const MODE_FILE = 0o100660;
/** `S_IFDIR | 0771`: a directory on shared storage. */
export const MODE_DIRECTORY = 0o40771;

/** An 8-byte sync header: `id` (4 ASCII bytes) and `value` (uint32 LE). */
export function syncHeader(id: string, value: number): Buffer {
  const out = Buffer.alloc(8);
  out.write(id, 0, 4, 'latin1');
  out.writeUInt32LE(value >>> 0, 4);
  return out;
}

/** Splits a received header into its id and number. */
export function parseSyncHeader(header: Buffer): { id: string; value: number } {
  return { id: header.subarray(0, 4).toString('latin1'), value: header.readUInt32LE(4) };
}

/** A `STAT` (v1) answer: mode, size in bytes, mtime in s; all zero means "no such file". */
export function syncStat(mode: number, size: number, mtimeS: number): Buffer {
  const out = Buffer.alloc(16);
  out.write('STAT', 0, 4, 'latin1');
  out.writeUInt32LE(mode >>> 0, 4);
  out.writeUInt32LE(size >>> 0, 8);
  out.writeUInt32LE(mtimeS >>> 0, 12);
  return out;
}

/** A `LIST` entry: `DENT`, mode, size, mtime, name length, name. */
export function syncDent(mode: number, size: number, mtimeS: number, name: string): Buffer {
  const bytes = Buffer.from(name, 'utf8');
  const out = Buffer.alloc(20);
  out.write('DENT', 0, 4, 'latin1');
  out.writeUInt32LE(mode >>> 0, 4);
  out.writeUInt32LE(size >>> 0, 8);
  out.writeUInt32LE(mtimeS >>> 0, 12);
  out.writeUInt32LE(bytes.length, 16);
  return Buffer.concat([out, bytes]);
}

/** The end of a `LIST`: `DONE` and four zero numbers (20 bytes, the size of a DENT head). */
export function syncListDone(): Buffer {
  return Buffer.concat([syncHeader('DONE', 0), Buffer.alloc(12)]);
}

/** A file's bytes as `DATA` chunks of at most {@link SYNC_DATA_MAX} bytes, then `DONE`. */
export function syncFile(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += SYNC_DATA_MAX) {
    const chunk = data.subarray(offset, offset + SYNC_DATA_MAX);
    parts.push(syncHeader('DATA', chunk.length), chunk);
  }
  parts.push(syncHeader('DONE', 0));
  return Buffer.concat(parts);
}

/** A sync failure: `FAIL` and its message length, then the message (adb prints it). */
export function syncFail(message: string): Buffer {
  const bytes = Buffer.from(message, 'utf8');
  return Buffer.concat([syncHeader('FAIL', bytes.length), bytes]);
}
