import { createHash } from 'node:crypto';
import { headers as natsHeaders, type Msg, type MsgHdrs } from '@nats-io/transport-node';
import { MobileClawError } from '@mobileclaw/domain';

/**
 * Header of every chunk of a chunked message: `<index>/<count>`, 1-based (`1/3`, `2/3`, `3/3`). A
 * message without it is whole.
 */
export const CHUNK_HEADER = 'Mobileclaw-Chunk';
/** Header of a chunked message's first chunk: the whole body's length in bytes. */
export const CHUNKED_BYTES_HEADER = 'Mobileclaw-Chunked-Bytes';
/** Header of a chunked message's first chunk: the SHA-256 of the whole body, lowercase hex. */
export const CHUNKED_SHA256_HEADER = 'Mobileclaw-Chunked-Sha256';

/**
 * Room kept in each chunk for its headers, in bytes: the NATS server's `max_payload` counts headers
 * and data together. The three headers above take under 200 bytes.
 */
export const CHUNK_HEADER_ROOM = 256;

/** One NATS message of a body: its data, and the chunk headers when the body was split. */
export interface MessageChunk {
  data: Uint8Array;
  headers?: MsgHdrs;
}

/**
 * `body` as the NATS messages that carry it, in order: one message without headers when it fits in
 * `maxPayload` bytes (as any peer reads it), else chunks of at most `maxPayload` bytes each (headers
 * included), each marked {@link CHUNK_HEADER}, the first also {@link CHUNKED_BYTES_HEADER} and
 * {@link CHUNKED_SHA256_HEADER}. NATS delivers one connection's messages to a subscriber in the order
 * they were published, so a receiver sees them in order or not at all.
 * @throws Error when `maxPayload` is below `2 × CHUNK_HEADER_ROOM` (512 bytes) and `body` does not fit.
 */
export function splitIntoChunks(body: Uint8Array, maxPayload: number): MessageChunk[] {
  if (body.length <= maxPayload) return [{ data: body }];
  const chunkBytes = maxPayload - CHUNK_HEADER_ROOM;
  if (chunkBytes < CHUNK_HEADER_ROOM) throw new Error(`a max payload of ${maxPayload} bytes leaves no room for chunks (at least ${2 * CHUNK_HEADER_ROOM} bytes needed)`);
  const count = Math.ceil(body.length / chunkBytes);
  const sha256 = createHash('sha256').update(body).digest('hex');
  const chunks: MessageChunk[] = [];
  for (let index = 1; index <= count; index += 1) {
    const headers = natsHeaders();
    headers.set(CHUNK_HEADER, `${index}/${count}`);
    if (index === 1) {
      headers.set(CHUNKED_BYTES_HEADER, String(body.length));
      headers.set(CHUNKED_SHA256_HEADER, sha256);
    }
    chunks.push({ data: body.subarray((index - 1) * chunkBytes, index * chunkBytes), headers });
  }
  return chunks;
}

export interface ChunkAssemblerOptions {
  /** The largest body accepted, in bytes (checked against the first chunk's declared length). */
  maxBytes: number;
  /** What is being received, for error messages, e.g. `the reply of gateway instance a`. */
  what: string;
  /** Set on the errors thrown. */
  deviceId?: string;
}

/**
 * Reassembles one body from the messages of {@link splitIntoChunks}, fed in arrival order through
 * {@link add}. Holds at most `maxBytes` bytes. Once it threw, it is spent (every later {@link add}
 * throws the same error).
 */
export class ChunkAssembler {
  private readonly parts: Uint8Array[] = [];
  private received = 0;
  private receivedBytes = 0;
  private count = 0;
  private declaredBytes = 0;
  private sha256 = '';
  private failure: MobileClawError | undefined;

  constructor(private readonly options: ChunkAssemblerOptions) {}

  /**
   * Takes the next message: the whole body once it is complete (at once for a message that was not
   * split), else undefined.
   * @throws MobileClawError `PAYLOAD_TOO_LARGE` when the declared length exceeds `maxBytes`;
   *   `PROTOCOL_ERROR` when a chunk is missing (a later one came first), a header is absent or
   *   malformed, a chunk disagrees with the first on the count, or the body's length or SHA-256 is not
   *   the declared one.
   */
  add(msg: Pick<Msg, 'data' | 'headers'>): Uint8Array | undefined {
    if (this.failure !== undefined) throw this.failure;
    try {
      return this.take(msg);
    } catch (err) {
      this.failure = err as MobileClawError;
      throw err;
    }
  }

  /** Whether a chunk arrived and the body is not complete yet. */
  get partial(): boolean {
    return this.received > 0 && this.received < this.count;
  }

  /** What arrived so far, for messages: e.g. `2 of 5 chunks (8 000 of 19 500 bytes)`. */
  progress(): string {
    return `${this.received} of ${this.count} chunks (${this.receivedBytes} of ${this.declaredBytes} bytes)`;
  }

  private take(msg: Pick<Msg, 'data' | 'headers'>): Uint8Array | undefined {
    const chunk = msg.headers?.get(CHUNK_HEADER) ?? '';
    if (chunk === '') {
      if (this.received === 0) return msg.data;
      throw this.error('PROTOCOL_ERROR', `a message without a chunk header arrived after ${this.progress()}`);
    }
    const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(chunk);
    if (match === null) throw this.error('PROTOCOL_ERROR', `malformed ${CHUNK_HEADER} header ${JSON.stringify(chunk)} (expected <index>/<count>)`);
    const index = Number(match[1]);
    const count = Number(match[2]);
    if (this.received === 0) {
      if (index !== 1) throw this.error('PROTOCOL_ERROR', `chunk ${index}/${count} arrived first: chunks 1 to ${index - 1} are missing`);
      this.start(msg.headers as MsgHdrs, count);
    } else if (count !== this.count) {
      throw this.error('PROTOCOL_ERROR', `chunk ${index}/${count} disagrees with the first chunk's count of ${this.count}`);
    } else if (index !== this.received + 1) {
      throw this.error('PROTOCOL_ERROR', `chunk ${index}/${count} arrived after ${this.progress()}: chunk ${this.received + 1} is missing`);
    }
    this.received += 1;
    this.receivedBytes += msg.data.length;
    if (this.receivedBytes > this.declaredBytes) throw this.error('PROTOCOL_ERROR', `${this.receivedBytes} bytes arrived in ${this.received} of ${this.count} chunks, more than the declared ${this.declaredBytes}`);
    this.parts.push(msg.data);
    if (this.received < this.count) return undefined;
    if (this.receivedBytes !== this.declaredBytes) throw this.error('PROTOCOL_ERROR', `the ${this.count} chunks hold ${this.receivedBytes} bytes, not the declared ${this.declaredBytes}`);
    const body = Buffer.concat(this.parts);
    this.parts.length = 0;
    if (createHash('sha256').update(body).digest('hex') !== this.sha256) throw this.error('PROTOCOL_ERROR', `the ${this.count} chunks do not match the declared SHA-256`);
    return body;
  }

  private start(headers: MsgHdrs, count: number): void {
    const bytes = headers.get(CHUNKED_BYTES_HEADER);
    const sha256 = headers.get(CHUNKED_SHA256_HEADER);
    if (!/^[0-9]+$/.test(bytes) || !/^[0-9a-f]{64}$/.test(sha256)) {
      throw this.error('PROTOCOL_ERROR', `the first chunk lacks a valid ${CHUNKED_BYTES_HEADER} or ${CHUNKED_SHA256_HEADER} header`);
    }
    const declared = Number(bytes);
    if (declared > this.options.maxBytes) throw this.error('PAYLOAD_TOO_LARGE', `${declared} bytes announced, more than the ${this.options.maxBytes} accepted`);
    this.count = count;
    this.declaredBytes = declared;
    this.sha256 = sha256;
  }

  private error(code: 'PROTOCOL_ERROR' | 'PAYLOAD_TOO_LARGE', detail: string): MobileClawError {
    return new MobileClawError(code, `${this.options.what}: ${detail}`, { deviceId: this.options.deviceId });
  }
}
