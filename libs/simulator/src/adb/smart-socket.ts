/**
 * Framing of the ADB host protocol ("smart sockets", AOSP packages/modules/adb OVERVIEW.TXT and
 * SERVICES.TXT): a request is 4 hex digits giving its length in bytes, then that many bytes of
 * service name; an answer is `OKAY` or `FAIL`, and a FAIL (and most host answers) carries a
 * message framed the same way. Everything after the OKAY of a local service is that service's own
 * byte stream (raw shell output, the sync protocol).
 */

/** Longest request accepted, in bytes: what 4 hex digits can express. */
export const MAX_REQUEST_BYTES = 0xffff;

/** A peer broke the framing (bad length prefix); the connection is closed, as adb does. */
export class AdbProtocolError extends Error {
  readonly code = 'ADB_PROTOCOL_ERROR' as const;

  constructor(message: string) {
    super(message);
    this.name = 'AdbProtocolError';
  }
}

/** `n` as the 4 lowercase hex digits adb writes (`0029`). Throws RangeError outside 0…0xffff. */
export function hex4(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > MAX_REQUEST_BYTES) throw new RangeError(`a smart-socket length must be an integer from 0 to 65535, got ${n}`);
  return n.toString(16).padStart(4, '0');
}

/** Reads a 4-byte length prefix. Throws {@link AdbProtocolError} unless it is exactly 4 hex digits. */
export function parseHex4(prefix: Buffer): number {
  const text = prefix.toString('latin1');
  if (!/^[0-9a-fA-F]{4}$/.test(text)) throw new AdbProtocolError(`bad smart-socket length prefix ${JSON.stringify(text)}`);
  return parseInt(text, 16);
}

/** `payload` prefixed with its byte length in 4 hex digits (a request, or the value after OKAY/FAIL). */
export function lengthPrefixed(payload: string | Buffer): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.from(hex4(bytes.length), 'latin1'), bytes]);
}

/** A client's request for `service`, e.g. `000chost:version`. */
export function encodeRequest(service: string): Buffer {
  return lengthPrefixed(service);
}

/** `OKAY`, followed by `value` length-prefixed when given (host queries answer a value). */
export function okay(value?: string | Buffer): Buffer {
  const head = Buffer.from('OKAY', 'latin1');
  return value === undefined ? head : Buffer.concat([head, lengthPrefixed(value)]);
}

/** `FAIL` and its length-prefixed message; adb clients print the message (`adb: error: …`). */
export function fail(message: string): Buffer {
  return Buffer.concat([Buffer.from('FAIL', 'latin1'), lengthPrefixed(message)]);
}
