import sharp from 'sharp';
import { CoordinateSpace, type ScreenImageLimits, type ScreenshotData } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { SharpScreenImageEncoder } from './sharp-screen-image-encoder';

const encoder = new SharpScreenImageEncoder();
/** The limits an MCP `get_screen` result uses by default. */
const mcpLimits: ScreenImageLimits = { maxLongSidePx: 1568, maxBytes: 800 * 1024 };

/** A screenshot result carrying `file` (a PNG or JPEG). */
function screenshotOf(file: Buffer, mime: string, width: number, height: number): ScreenshotData {
  return { mime, width, height, base64: file.toString('base64'), screen: { width, height } };
}

/** A PNG of one colour (RGBA, so `alpha` below 1 is transparent). */
async function solidPng(width: number, height: number, colour = { r: 30, g: 120, b: 200, alpha: 1 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: colour } }).png().toBuffer();
}

/**
 * A PNG of random RGB pixels (xorshift32 from a fixed seed, so every run sees the same image): the
 * worst case for JPEG, which cannot compress noise.
 */
async function noisyPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 0x2545f491;
  for (let i = 0; i < pixels.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** What sharp reads back from the encoded image, and its file. */
async function decoded(base64: string): Promise<{ format?: string; width?: number; height?: number; file: Buffer }> {
  const file = Buffer.from(base64, 'base64');
  const { format, width, height } = await sharp(file).metadata();
  return { format, width, height, file };
}

describe('SharpScreenImageEncoder', () => {
  it('fits a 1080x2400 PNG to a long side of 1568 px as a JPEG at quality 80', async () => {
    const image = await encoder.encode(screenshotOf(await solidPng(1080, 2400), 'image/png', 1080, 2400), mcpLimits);

    // 1080 * 1568/2400 = 705.6 → 706
    expect(image).toMatchObject({ mime: 'image/jpeg', width: 706, height: 1568, quality: 80 });
    const read = await decoded(image.base64);
    expect(read).toMatchObject({ format: 'jpeg', width: 706, height: 1568 });
    expect(image.bytes).toBe(read.file.length);
    // Raw base64 (an MCP image content's `data`), not a data: URL.
    expect(image.base64.startsWith('data:')).toBe(false);
    expect(image.base64).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(read.file.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('gives image px that CoordinateSpace maps back to device px', async () => {
    const image = await encoder.encode(screenshotOf(await solidPng(1080, 2400), 'image/png', 1080, 2400), mcpLimits);
    const space = CoordinateSpace.ofImage(image, { width: 1080, height: 2400 });
    // 353 * 1080/706 = 540; 784 * 2400/1568 = 1200
    expect(space.toDevice(353, 784)).toEqual([540, 1200]);
    expect(space.toDevice(705, 1567)).toEqual([1078, 2398]);
  });

  it('bounds the width of a landscape screen', async () => {
    const image = await encoder.encode(screenshotOf(await solidPng(2400, 1080), 'image/png', 2400, 1080), mcpLimits);
    expect(image).toMatchObject({ width: 1568, height: 706 });
    await expect(decoded(image.base64)).resolves.toMatchObject({ width: 1568, height: 706 });
  });

  it('never upscales a screenshot smaller than the limit', async () => {
    const image = await encoder.encode(screenshotOf(await solidPng(320, 480), 'image/png', 320, 480), mcpLimits);
    expect(image).toMatchObject({ width: 320, height: 480, quality: 80 });
    await expect(decoded(image.base64)).resolves.toMatchObject({ format: 'jpeg', width: 320, height: 480 });
  });

  it('re-encodes a JPEG screenshot', async () => {
    const jpeg = await sharp({ create: { width: 1440, height: 3200, channels: 3, background: '#336699' } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const image = await encoder.encode(screenshotOf(jpeg, 'image/jpeg', 1440, 3200), mcpLimits);
    // 1440 * 1568/3200 = 705.6 → 706
    expect(image).toMatchObject({ mime: 'image/jpeg', width: 706, height: 1568, quality: 80 });
    await expect(decoded(image.base64)).resolves.toMatchObject({ format: 'jpeg', width: 706, height: 1568 });
  });

  it('flattens a transparent PNG on white', async () => {
    const png = await solidPng(64, 64, { r: 255, g: 0, b: 0, alpha: 0 });
    const image = await encoder.encode(screenshotOf(png, 'image/png', 64, 64), mcpLimits);
    const { data, info } = await sharp(Buffer.from(image.base64, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    // JPEG rounding may move a channel by a step or two, never towards the hidden red.
    expect(Math.min(...data)).toBeGreaterThanOrEqual(250);
  });

  describe('a noisy 1440x3200 screenshot (random pixels)', () => {
    let screenshot: ScreenshotData;
    beforeAll(async () => {
      screenshot = screenshotOf(await noisyPng(1440, 3200), 'image/png', 1440, 3200);
    });

    it('fits 800 KiB at a long side of 1568 px', async () => {
      const image = await encoder.encode(screenshot, mcpLimits);
      expect(image).toMatchObject({ width: 706, height: 1568 });
      expect(image.bytes).toBeLessThanOrEqual(800 * 1024);
      const read = await decoded(image.base64);
      expect(read.file.length).toBe(image.bytes);
      expect(read).toMatchObject({ format: 'jpeg', width: 706, height: 1568 });
    });

    it('lowers the quality before the size', async () => {
      // At 706x1568 this noise takes about 467 KB at quality 80, 343 KB at 70, 268 KB at 60.
      const image = await encoder.encode(screenshot, { maxLongSidePx: 1568, maxBytes: 300_000 });
      expect(image).toMatchObject({ width: 706, height: 1568, quality: 60 });
      expect(image.bytes).toBeLessThanOrEqual(300_000);
    });

    it('shrinks the image, aspect ratio kept, when the lowest quality is still too large', async () => {
      const image = await encoder.encode(screenshot, { maxLongSidePx: 3200, maxBytes: 800 * 1024 });
      expect(image.quality).toBe(50);
      expect(image.height).toBeLessThan(3200);
      expect(image.width).toBe(Math.round((1440 * image.height) / 3200));
      expect(image.bytes).toBeLessThanOrEqual(800 * 1024);
      const read = await decoded(image.base64);
      expect(read).toMatchObject({ format: 'jpeg', width: image.width, height: image.height });
      expect(read.file.length).toBe(image.bytes);
    });

    it('gives the same bytes for the same input and limits', async () => {
      const limits = { maxLongSidePx: 1568, maxBytes: 300_000 };
      const [first, second] = [await encoder.encode(screenshot, limits), await encoder.encode(screenshot, limits)];
      expect(second).toEqual(first);
    });
  });

  it('rejects a size limit no JPEG can meet with PAYLOAD_TOO_LARGE, naming the bytes reached', async () => {
    const screenshot = screenshotOf(await solidPng(1080, 2400), 'image/png', 1080, 2400);
    const err = await domainRejection(encoder.encode(screenshot, { maxLongSidePx: 1568, maxBytes: 100 }));
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    const reached = /^the screen image cannot fit 100 bytes: the smallest JPEG tried \((\d+)×(\d+) px, quality 50\) has (\d+) bytes$/.exec(
      err.message,
    );
    expect(reached).not.toBeNull();
    const [width, height, bytes] = (reached as RegExpExecArray).slice(1).map(Number);
    // Eight shrinks of at least 10 % each from 706x1568: 1568 * 0.9^8 = 674.8; JPEG headers alone exceed 100 bytes.
    expect(height).toBeLessThanOrEqual(674);
    expect(width).toBe(Math.round((706 * height) / 1568));
    expect(bytes).toBeGreaterThan(100);
  });

  it('stops at 1 px: a 1x1 screenshot tries only the qualities', async () => {
    const err = await domainRejection(
      encoder.encode(screenshotOf(await solidPng(1, 1), 'image/png', 1, 1), { maxLongSidePx: 1568, maxBytes: 100 }),
    );
    expect(err.code).toBe('PAYLOAD_TOO_LARGE');
    expect(err.message).toMatch(/^the screen image cannot fit 100 bytes: the smallest JPEG tried \(1×1 px, quality 50\) has \d{3} bytes$/);
  });

  it('rejects bytes that are not an image with PROTOCOL_ERROR naming the mime type and size', async () => {
    const garbage = Buffer.from('this is not a PNG, just 40 bytes of text');
    const err = await domainRejection(encoder.encode(screenshotOf(garbage, 'image/png', 1080, 2400), mcpLimits));
    expect(err.code).toBe('PROTOCOL_ERROR');
    expect(err.message).toMatch(/^cannot decode the image\/png screenshot \(40 bytes\): /);
  });

  it('rejects a truncated PNG and an empty screenshot with PROTOCOL_ERROR', async () => {
    const png = await noisyPng(64, 64);
    const truncated = png.subarray(0, png.length / 2);
    const cut = await domainRejection(encoder.encode(screenshotOf(truncated, 'image/png', 64, 64), mcpLimits));
    expect(cut.code).toBe('PROTOCOL_ERROR');
    expect(cut.message).toContain(`(${truncated.length} bytes)`);
    const empty = await domainRejection(encoder.encode(screenshotOf(Buffer.alloc(0), 'image/jpeg', 64, 64), mcpLimits));
    expect(empty.code).toBe('PROTOCOL_ERROR');
    expect(empty.message).toMatch(/^cannot decode the image\/jpeg screenshot \(0 bytes\): /);
  });

  it('rejects invalid limits with VALIDATION_FAILED before decoding', async () => {
    const garbage = screenshotOf(Buffer.from('not an image'), 'image/png', 1, 1);
    const err = await domainRejection(encoder.encode(garbage, { maxLongSidePx: 0, maxBytes: 800 * 1024 }));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors).toEqual([{ field: 'maxLongSidePx', message: 'must be an integer ≥ 1, got 0' }]);
  });
});
