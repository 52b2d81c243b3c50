/**
 * The last `maxBytes` of a child process's stderr, for diagnosing a stdio server that failed to start
 * or died: bounded, so a chatty server cannot grow the gateway's memory. Kept for people to read
 * (e.g. a status page), never written to the gateway's log, since a server may print its secrets.
 */
export class StderrTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Appends `chunk`, dropping the oldest bytes beyond `maxBytes`. */
  push(chunk: Buffer | string): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(buffer);
    this.bytes += buffer.length;
    while (this.bytes > this.maxBytes && this.chunks.length > 0) {
      const excess = this.bytes - this.maxBytes;
      const first = this.chunks[0]!;
      if (first.length <= excess) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.bytes -= excess;
      }
    }
  }

  /** What is kept, as UTF-8 (a character cut at the start shows as U+FFFD). */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
