import type { ScreenImageLimits } from '@mobileclaw/domain';

/** Settings of {@link DeviceControlService}. */
export interface DeviceControlOptions {
  /** Observed frames remembered for later actions, across all phones; the oldest is forgotten first. Default 256. */
  maxFrames: number;
  /**
   * Bounds of a frame's screenshot: longest side 1568 px and 800 KiB (JPEG) by default, so that an image
   * plus its element list stays under the 1 MB result cap of MCP clients.
   */
  image: ScreenImageLimits;
  /** Deadline of each phone command, in ms; default: the gateway's command timeout. */
  commandTimeoutMs?: number;
  /**
   * How long a person's hold on a phone (a takeover) lasts from its last renewal, in ms: their page
   * renews it while open, so a closed page or a lost connection frees the phone after this. Default 30 000.
   */
  controlLeaseMs: number;
}

export const DEFAULT_DEVICE_CONTROL_OPTIONS: DeviceControlOptions = {
  maxFrames: 256,
  image: { maxLongSidePx: 1568, maxBytes: 800 * 1024 },
  controlLeaseMs: 30_000,
};

/** DI token of the {@link DeviceControlOptions}. */
export const DEVICE_CONTROL_OPTIONS = Symbol('DEVICE_CONTROL_OPTIONS');
