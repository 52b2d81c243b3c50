import sharp from 'sharp';
import type { PlannerObservation } from '@mobileclaw/domain';

/** A JPEG copy of a screenshot, as sent to a model. */
export interface ModelImage {
  /** `data:image/jpeg;base64,…` URL for an `image_url` content part. */
  dataUrl: string;
  /** Size of the JPEG, in px. */
  width: number;
  height: number;
  /** Size of the JPEG file, in bytes. */
  bytes: number;
}

/**
 * Re-encodes a screenshot (PNG or JPEG, base64) as a JPEG whose long side is at most `maxSide` px,
 * keeping the aspect ratio and never upscaling.
 * @param quality JPEG quality, 1–100.
 * @throws Error when the screenshot cannot be decoded.
 */
export async function downscaleScreenshot(
  screenshot: NonNullable<PlannerObservation['screenshot']>,
  maxSide: number,
  quality: number,
): Promise<ModelImage> {
  const input = Buffer.from(screenshot.base64, 'base64');
  try {
    const { data, info } = await sharp(input)
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer({ resolveWithObject: true });
    return {
      dataUrl: `data:image/jpeg;base64,${data.toString('base64')}`,
      width: info.width,
      height: info.height,
      bytes: data.length,
    };
  } catch (err) {
    throw new Error(
      `cannot decode the ${screenshot.mime} screenshot (${input.length} bytes) for the model: ${(err as Error).message}`,
      { cause: err },
    );
  }
}
