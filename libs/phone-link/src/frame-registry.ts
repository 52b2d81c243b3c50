import { randomBytes } from 'node:crypto';
import { PhoneError } from './phone-error';

/** The screen geometry a frame was taken with (what STALE_FRAME compares): px of the rotation, and the rotation 0–3. */
export interface FrameGeometry {
  width: number;
  height: number;
  rotation: number;
}

/**
 * Frame ids of one phone (docs/protocol.md, "frameId and STALE_FRAME"): each `screenshot`/`ui_tree`
 * result gets a new id bound to the geometry it was taken with; an action planned on a frame is
 * refused `STALE_FRAME` when the screen's geometry is no longer that one, or the id is unknown (from
 * another phone, an earlier run, or older than the last `capacity` frames).
 */
export class FrameRegistry {
  private readonly frames = new Map<string, FrameGeometry>();
  // A per-instance prefix, so that a frame id issued by another phone or an earlier run is unknown here.
  private readonly prefix = randomBytes(3).toString('hex');
  private counter = 0;

  /** @param capacity how many frames are remembered (at least the protocol's 32). */
  constructor(private readonly capacity = 64) {
    if (!Number.isInteger(capacity) || capacity < 32) throw new RangeError(`a phone remembers at least 32 frames, got ${capacity}`);
  }

  /** A new frame id bound to `geometry`, e.g. `3f9a1c-17`. */
  register(geometry: FrameGeometry): string {
    const frameId = `${this.prefix}-${++this.counter}`;
    this.frames.set(frameId, { width: geometry.width, height: geometry.height, rotation: geometry.rotation });
    if (this.frames.size > this.capacity) this.frames.delete(this.frames.keys().next().value as string);
    return frameId;
  }

  /** The geometry `frameId` was taken with, or undefined when unknown. */
  geometry(frameId: string): FrameGeometry | undefined {
    const g = this.frames.get(frameId);
    return g && { ...g };
  }

  /** @throws PhoneError `STALE_FRAME` unless `frameId` is known and was taken with exactly the geometry `now`. */
  check(frameId: string, now: FrameGeometry): void {
    const then = this.frames.get(frameId);
    if (!then) throw new PhoneError('STALE_FRAME', `unknown frameId ${JSON.stringify(frameId)}`);
    if (then.width !== now.width || then.height !== now.height || then.rotation !== now.rotation)
      throw new PhoneError(
        'STALE_FRAME',
        `frame ${frameId} was ${then.width}x${then.height} rotation ${then.rotation}; the screen is now ${now.width}x${now.height} rotation ${now.rotation}`,
      );
  }
}
