import sharp from 'sharp';
import {
  MobileClawError,
  ScreenImageEncoder,
  assertScreenImageLimits,
  type EncodedScreenImage,
  type ScreenImageLimits,
  type ScreenshotData,
} from '@mobileclaw/domain';

/**
 * JPEG qualities tried in turn at the first size, best first. 80 keeps small UI text legible; below 50
 * the artefacts around text cost more legibility than a smaller image does, so the size drops instead.
 */
export const SCREEN_IMAGE_QUALITIES = [80, 70, 60, 50] as const;

/** Most attempts at a smaller size once the lowest quality is still too large. */
export const SCREEN_IMAGE_MAX_SHRINKS = 8;

/**
 * Bounds of one shrink step, as a factor on the long side. The next size is estimated from the bytes
 * (a JPEG's size grows with its pixel count), but never less than half (the estimate misleads at small
 * sizes, where the headers dominate) and at least 10 % smaller (so every step makes progress).
 */
const SHRINK_FACTOR_MIN = 0.5;
const SHRINK_FACTOR_MAX = 0.9;
/** Aim a little under the limit, so that the estimate's error rarely costs another step. */
const SHRINK_TARGET_SHARE = 0.95;

/** Decoded pixels: 8 bits a channel, no alpha (flattened), one channel (grey) or three (sRGB). */
interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** One encoded attempt. */
interface JpegAttempt {
  data: Buffer;
  width: number;
  height: number;
  quality: number;
}

/**
 * {@link ScreenImageEncoder} backed by sharp (libvips). The screenshot is decoded and resized once, to
 * raw pixels; every attempt encodes from those pixels: the qualities of {@link SCREEN_IMAGE_QUALITIES}
 * at that size, then at the lowest quality up to {@link SCREEN_IMAGE_MAX_SHRINKS} smaller sizes, until
 * the JPEG fits `maxBytes`. The same input and limits always give the same bytes (with the same sharp
 * build).
 */
export class SharpScreenImageEncoder extends ScreenImageEncoder {
  /**
   * @throws MobileClawError `VALIDATION_FAILED` for a limit that is not an integer ≥ 1,
   *   `PROTOCOL_ERROR` when the screenshot cannot be decoded, `PAYLOAD_TOO_LARGE` when the smallest
   *   attempt still exceeds `maxBytes`.
   */
  async encode(screenshot: ScreenshotData, limits: ScreenImageLimits): Promise<EncodedScreenImage> {
    assertScreenImageLimits(limits);
    const fitted = await decodeFitted(screenshot, limits.maxLongSidePx);
    let smallest: JpegAttempt | undefined;
    for await (const attempt of attempts(fitted, limits.maxBytes)) {
      if (attempt.data.length <= limits.maxBytes) return toEncoded(attempt);
      smallest = attempt;
    }
    // `attempts` yields at least one JPEG: SCREEN_IMAGE_QUALITIES is not empty.
    const { width, height, quality, data } = smallest as JpegAttempt;
    throw new MobileClawError(
      'PAYLOAD_TOO_LARGE',
      `the screen image cannot fit ${limits.maxBytes} bytes: the smallest JPEG tried ` +
        `(${width}×${height} px, quality ${quality}) has ${data.length} bytes`,
    );
  }
}

/**
 * The JPEGs to try, in order, each smaller than the one before: `image` at its own size in each quality
 * of {@link SCREEN_IMAGE_QUALITIES}, then smaller sizes at the lowest quality, each estimated from the
 * bytes of the one before; it stops at {@link SCREEN_IMAGE_MAX_SHRINKS} sizes or a long side of 1 px.
 * The caller stops pulling at the first that fits.
 */
async function* attempts(image: RawImage, maxBytes: number): AsyncGenerator<JpegAttempt> {
  let attempt: JpegAttempt | undefined;
  for (const quality of SCREEN_IMAGE_QUALITIES) {
    attempt = await encodeJpeg(image, image.width, image.height, quality);
    yield attempt;
  }
  const lowest = SCREEN_IMAGE_QUALITIES[SCREEN_IMAGE_QUALITIES.length - 1];
  for (let shrink = 0; shrink < SCREEN_IMAGE_MAX_SHRINKS && attempt && longSide(attempt) > 1; shrink++) {
    const [width, height] = shrunkSize(image, attempt, maxBytes);
    attempt = await encodeJpeg(image, width, height, lowest);
    yield attempt;
  }
}

/**
 * The screenshot decoded, flattened on white and resized to fit `maxLongSidePx` (never enlarged).
 * @throws MobileClawError `PROTOCOL_ERROR` naming the mime type and byte size when sharp cannot decode it.
 */
async function decodeFitted(screenshot: ScreenshotData, maxLongSidePx: number): Promise<RawImage> {
  const input = Buffer.from(screenshot.base64, 'base64');
  try {
    const { data, info } = await sharp(input)
      .resize({ width: maxLongSidePx, height: maxLongSidePx, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (err) {
    throw new MobileClawError(
      'PROTOCOL_ERROR',
      `cannot decode the ${screenshot.mime} screenshot (${input.length} bytes): ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/** `image` as a JPEG of `width`×`height` px (resized only when that differs from its own size). */
async function encodeJpeg(image: RawImage, width: number, height: number, quality: number): Promise<JpegAttempt> {
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (width !== image.width || height !== image.height) pipeline = pipeline.resize({ width, height, fit: 'fill' });
  const data = await pipeline.jpeg({ quality }).toBuffer();
  return { data, width, height, quality };
}

/**
 * The next smaller size of `image` to try after `attempt` exceeded `maxBytes`, each side ≥ 1 px. Both
 * sides derive from `image`'s own (not from the rounded sides of the attempt), so the aspect ratio
 * never drifts over several steps.
 */
function shrunkSize(image: RawImage, attempt: JpegAttempt, maxBytes: number): [number, number] {
  const estimate = Math.sqrt((maxBytes * SHRINK_TARGET_SHARE) / attempt.data.length);
  const factor = Math.min(SHRINK_FACTOR_MAX, Math.max(SHRINK_FACTOR_MIN, estimate));
  const long = longSide(attempt);
  const nextLong = Math.max(1, Math.min(long - 1, Math.floor(long * factor)));
  const scale = nextLong / longSide(image);
  return [Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale))];
}

function longSide(size: { width: number; height: number }): number {
  return Math.max(size.width, size.height);
}

function toEncoded(attempt: JpegAttempt): EncodedScreenImage {
  return {
    mime: 'image/jpeg',
    base64: attempt.data.toString('base64'),
    width: attempt.width,
    height: attempt.height,
    bytes: attempt.data.length,
    quality: attempt.quality,
  };
}
