/**
 * Splits a byte stream into `\n`-terminated frames, whatever the chunking (1-byte writes, many
 * frames per chunk, a UTF-8 character split across chunks: bytes are only decoded once a whole
 * line is in). `\r\n` is accepted and empty lines are skipped. The limit counts the bytes before
 * the `\n` (a trailing `\r` included).
 *
 * A line longer than `maxFrameBytes` is discarded without buffering it: only its first
 * `headBytes` are kept (so that the caller can find its `requestId`), the rest is skipped up to
 * the next `\n`, and `onOversized` reports it. Memory per decoder stays ≤ maxFrameBytes + one chunk.
 *
 * Like Netty's `LineBasedFrameDecoder` with `failFast=false`: an oversized line is reported when it
 * ends, and the stream stays usable for the next line.
 */
export interface LineFrameDecoderOptions {
  /** Largest accepted line in bytes, `\n` excluded. */
  maxFrameBytes: number;
  /** Bytes kept from the start of an oversized line for `onOversized`. Default 4096. */
  headBytes?: number;
  onFrame: (line: Buffer) => void;
  /** Called once the line's end arrived. `head`: its first bytes; `size`: its full length in bytes. */
  onOversized: (head: Buffer, size: number) => void;
  /**
   * Called as soon as a line crosses the limit, before the rest of it arrives (so that a waiting
   * caller can be failed at once). `head`: its first bytes.
   */
  onDiscardStart?: (head: Buffer) => void;
}

const LF = 0x0a;
const CR = 0x0d;

export class LineFrameDecoder {
  private parts: Buffer[] = [];
  private buffered = 0;
  /** > 0 while skipping an oversized line: the bytes seen of it so far. */
  private discarding = 0;
  private head: Buffer | null = null;
  maxFrameBytes: number;
  private readonly headBytes: number;

  constructor(private readonly options: LineFrameDecoderOptions) {
    this.maxFrameBytes = options.maxFrameBytes;
    this.headBytes = options.headBytes ?? 4096;
  }

  /** Bytes held for an incomplete line. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  push(chunk: Buffer): void {
    let start = 0;
    const length = chunk.length;
    while (start < length) {
      const nl = chunk.indexOf(LF, start);
      if (this.discarding > 0) {
        if (nl < 0) {
          this.discarding += length - start;
          return;
        }
        const size = this.discarding + (nl - start);
        const head = this.head as Buffer;
        this.discarding = 0;
        this.head = null;
        this.options.onOversized(head, size);
        start = nl + 1;
        continue;
      }
      if (nl < 0) {
        const rest = length - start;
        if (this.buffered + rest > this.maxFrameBytes) {
          this.beginDiscard(chunk.subarray(start), this.buffered + rest);
          return;
        }
        // Kept by reference: net.Socket hands out a fresh buffer per read.
        this.parts.push(start === 0 ? chunk : chunk.subarray(start));
        this.buffered += rest;
        return;
      }
      const lineLength = this.buffered + (nl - start);
      if (lineLength > this.maxFrameBytes) {
        this.beginDiscard(chunk.subarray(start, nl), lineLength);
        const head = this.head as Buffer;
        this.discarding = 0;
        this.head = null;
        this.options.onOversized(head, lineLength);
        start = nl + 1;
        continue;
      }
      let line: Buffer;
      if (this.buffered === 0) {
        line = chunk.subarray(start, nl);
      } else {
        this.parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.parts, lineLength);
        this.parts = [];
        this.buffered = 0;
      }
      start = nl + 1;
      if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
      if (line.length > 0) this.options.onFrame(line);
    }
  }

  /** Drops any partial line (e.g. when the connection closes). */
  reset(): void {
    this.parts = [];
    this.buffered = 0;
    this.discarding = 0;
    this.head = null;
  }

  private beginDiscard(tail: Buffer, seen: number): void {
    const headParts: Buffer[] = [];
    let headLength = 0;
    for (const part of [...this.parts, tail]) {
      if (headLength >= this.headBytes) break;
      const piece = part.subarray(0, this.headBytes - headLength);
      headParts.push(piece);
      headLength += piece.length;
    }
    this.head = Buffer.concat(headParts, headLength);
    this.parts = [];
    this.buffered = 0;
    this.discarding = Math.max(seen, 1);
    this.options.onDiscardStart?.(this.head);
  }
}
