import sharp from 'sharp';
import { msBetween, type FrameGeometry, type PhoneUi } from './phone-ui';
import { applyRasteriserSettings } from './rasteriser-settings';

export interface ScreenshotOptions {
  /** Default 'png'. */
  format?: 'png' | 'jpeg';
  /** JPEG quality 1–100 (default 80); ignored for PNG. */
  quality?: number;
  /** Scale the image down (keeping its aspect ratio) when the screen is wider than this, in px. */
  maxWidth?: number;
}

/** `screenshot` result data (wire protocol v1). `width`/`height`: the image's actual size in px. */
export interface ScreenshotResult {
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  base64: string;
  frameId: string;
  /** The screen the image shows (its size may differ from the image's when scaled). */
  screen: FrameGeometry;
  /** Time the phone spent producing the image (drawing, rasterising, encoding), in ms (microsecond precision). */
  captureMs: number;
}

/**
 * Rasterises the current frame of `ui` as a real PNG or JPEG (SVG rendered by sharp/librsvg). The
 * first call applies the simulator's libvips settings (`RASTERISER_SETTINGS`: no operation cache, one
 * thread per image), which are process-wide.
 */
export async function renderScreenshot(ui: PhoneUi, options: ScreenshotOptions = {}): Promise<ScreenshotResult> {
  const started = ui.clock();
  applyRasteriserSettings();
  // The picture and the frame id are taken together, before any await, so they describe the same state.
  const svg = ui.toSvg();
  const { frameId, screen } = ui.registerFrame();
  let image = sharp(Buffer.from(svg, 'utf8'));
  if (options.maxWidth !== undefined && options.maxWidth < screen.width) image = image.resize({ width: Math.max(1, Math.round(options.maxWidth)) });
  const format = options.format ?? 'png';
  // PNG compression level 3: far faster than the default 6 on flat UI colours, and barely larger.
  image = format === 'jpeg' ? image.jpeg({ quality: Math.round(options.quality ?? 80) }) : image.png({ compressionLevel: 3 });
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return {
    mime: format === 'jpeg' ? 'image/jpeg' : 'image/png',
    width: info.width,
    height: info.height,
    base64: data.toString('base64'),
    frameId,
    screen,
    captureMs: msBetween(started, ui.clock()),
  };
}
