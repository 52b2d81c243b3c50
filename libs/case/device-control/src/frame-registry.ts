import { MobileClawError } from '@mobileclaw/domain';
import { deviceOfFrameId, type ScreenFrame } from './screen-frame';

/**
 * The most recent observed frames, at most `capacity` across all phones (the oldest is forgotten
 * first). Lookups of a forgotten or never-issued frame fail with `STALE_FRAME`, so an action is never
 * planned on a screen the gateway no longer knows.
 */
export class FrameRegistry {
  private readonly frames = new Map<string, ScreenFrame>();

  /** @param capacity frames kept, ≥ 1. */
  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`frame capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.frames.size;
  }

  add(frame: ScreenFrame): void {
    this.frames.set(frame.frameId, frame);
    while (this.frames.size > this.capacity) this.frames.delete(this.frames.keys().next().value as string);
  }

  /**
   * The frame `frameId` names.
   * @throws MobileClawError `STALE_FRAME` when the frame was never issued or is no longer kept.
   */
  get(frameId: string): ScreenFrame {
    const frame = this.frames.get(frameId);
    if (frame) return frame;
    const deviceId = deviceOfFrameId(frameId);
    throw new MobileClawError(
      'STALE_FRAME',
      deviceId === undefined
        ? `unknown frameId ${JSON.stringify(frameId)}: take a screen first and use the frameId it returns`
        : `frame ${frameId} is no longer known (only the ${this.capacity} most recent frames are kept): take a new screen`,
      deviceId === undefined ? {} : { deviceId },
    );
  }

  /** Forgets every frame of `deviceId` (its screen geometry changed, or it reconnected as another session). */
  forgetDevice(deviceId: string): void {
    for (const [id, frame] of this.frames) if (frame.deviceId === deviceId) this.frames.delete(id);
  }
}
