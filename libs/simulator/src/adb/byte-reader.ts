import type { Readable } from 'node:stream';

/**
 * Awaitable exact-length reads over a socket: the ADB host protocol and the sync protocol are both
 * "read N bytes, then decide". Data that arrives before anyone asks is buffered.
 */
export class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private waiter: { n: number; resolve: (bytes: Buffer | null) => void } | null = null;

  constructor(stream: Readable) {
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.settle();
    });
    stream.on('end', () => this.finish());
    stream.on('close', () => this.finish());
  }

  /** Exactly `n` bytes, or `null` when the stream has ended with fewer buffered (they stay for a shorter read). One read at a time. */
  read(n: number): Promise<Buffer | null> {
    if (this.waiter) throw new Error('ByteReader: a read is already pending');
    return new Promise((resolve) => {
      this.waiter = { n, resolve };
      this.settle();
    });
  }

  private finish(): void {
    this.ended = true;
    this.settle();
  }

  private settle(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    if (this.buffered >= waiter.n) {
      this.waiter = null;
      waiter.resolve(this.take(waiter.n));
    } else if (this.ended) {
      this.waiter = null;
      waiter.resolve(null);
    }
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }
}
