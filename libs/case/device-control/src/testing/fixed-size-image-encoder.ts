import { ScreenImageEncoder, type EncodedScreenImage, type PixelSize, type ScreenImageLimits, type ScreenshotData } from '@mobileclaw/domain';

/**
 * A {@link ScreenImageEncoder} that returns an image of a fixed size (e.g. 540×1200 for a 1080×2400
 * screen) whatever it is given, and records each call's limits: the case layer's tests need the
 * image's size, not its pixels (the sharp adapter has its own tests).
 */
export class FixedSizeImageEncoder extends ScreenImageEncoder {
  readonly calls: { screenshot: ScreenshotData; limits: ScreenImageLimits }[] = [];

  constructor(private readonly size: PixelSize = { width: 540, height: 1200 }) {
    super();
  }

  override async encode(screenshot: ScreenshotData, limits: ScreenImageLimits): Promise<EncodedScreenImage> {
    this.calls.push({ screenshot, limits });
    return { mime: 'image/jpeg', base64: Buffer.from('jpeg').toString('base64'), width: this.size.width, height: this.size.height, bytes: 4, quality: 80 };
  }
}
