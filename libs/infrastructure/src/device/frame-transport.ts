/**
 * What a device session needs from a transport: frames out, close. Frames in arrive through
 * {@link DeviceSession.receive}. TCP is the first implementation; a WebSocket transport reuses the
 * session logic unchanged.
 */
export interface FrameTransport {
  /** Writes one encoded frame (JSON + `\n`). */
  write(line: string): void;
  /** Bytes accepted by `write` but not yet handed to the OS (backpressure signal). */
  readonly pendingWriteBytes: number;
  /** Flushes what was written, then closes. */
  end(): void;
  /** Closes at once, dropping unsent bytes (dead or misbehaving peer). */
  destroy(): void;
  /** Changes the largest incoming frame the transport accepts (handshake → session limit). */
  setMaxFrameBytes(bytes: number): void;
  readonly remoteAddress?: string;
}
