import { MobileClawError, type FieldError } from './errors';
import type { ScreenshotData } from './results';

/** Bounds a screen image must fit. */
export interface ScreenImageLimits {
  /** Longest side, px (an integer ≥ 1). */
  maxLongSidePx: number;
  /** Largest encoded size, bytes (an integer ≥ 1). */
  maxBytes: number;
}

/** A screenshot re-encoded to fit {@link ScreenImageLimits}. */
export interface EncodedScreenImage {
  mime: 'image/jpeg';
  /** The JPEG file, raw base64 (no `data:` prefix). */
  base64: string;
  /** Size of the JPEG, px: the space a client answers in (see `CoordinateSpace.ofImage`). */
  width: number;
  height: number;
  /** Size of the encoded file, bytes (≤ `maxBytes`). */
  bytes: number;
  /** JPEG quality used, 1–100. */
  quality: number;
}

/**
 * Re-encodes a phone's screenshot so that it fits a size budget: e.g. an MCP `image` result, which
 * clients refuse past 1 MB. An abstract class so that it doubles as the Nest DI token; the sharp
 * adapter (`@mobileclaw/screen-image`) implements it.
 */
export abstract class ScreenImageEncoder {
  /**
   * `screenshot` (PNG or JPEG, base64) as a JPEG whose long side is at most `limits.maxLongSidePx` px
   * and whose file is at most `limits.maxBytes` bytes. The aspect ratio is kept, the image is never
   * upscaled, transparency is flattened on white. To fit the bytes the quality drops first, then the
   * size; the same input and limits always give the same image.
   * @throws MobileClawError `VALIDATION_FAILED` (with `fieldErrors`) when a limit is not an integer ≥ 1;
   *   `PROTOCOL_ERROR` when the screenshot's bytes are not a decodable image (the phone sent a broken
   *   one); `PAYLOAD_TOO_LARGE` when even the smallest image tried exceeds `maxBytes`.
   */
  abstract encode(screenshot: ScreenshotData, limits: ScreenImageLimits): Promise<EncodedScreenImage>;
}

/**
 * Checks both limits, for every {@link ScreenImageEncoder} to reject the same input the same way.
 * @throws MobileClawError `VALIDATION_FAILED`, one field error per limit that is not an integer ≥ 1.
 */
export function assertScreenImageLimits(limits: ScreenImageLimits): void {
  const fieldErrors: FieldError[] = [];
  for (const field of ['maxLongSidePx', 'maxBytes'] as const) {
    const value = limits[field];
    if (!Number.isSafeInteger(value) || value < 1) {
      fieldErrors.push({ field, message: `must be an integer ≥ 1, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}` });
    }
  }
  if (fieldErrors.length > 0) {
    throw new MobileClawError(
      'VALIDATION_FAILED',
      `invalid screen image limits: ${fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
      { fieldErrors },
    );
  }
}
