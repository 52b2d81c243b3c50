import sharp from 'sharp';
import { PhoneUi } from './phone-ui';
import { RASTERISER_SETTINGS } from './rasteriser-settings';
import { renderScreenshot } from './screenshot';

describe('the simulator rasteriser settings', () => {
  it('are no operation cache and one thread per image', () => {
    expect(RASTERISER_SETTINGS).toEqual({ cache: false, concurrency: 1 });
  });

  it('are applied to sharp by a screenshot, which keeps its size and format', async () => {
    const shot = await renderScreenshot(new PhoneUi({ width: 720, height: 1280, densityDpi: 320 }));

    // libvips' cache limits: 0 means nothing is kept (sharp.cache(false)).
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, files: { max: 0 }, items: { max: 0, current: 0 } });
    expect(sharp.concurrency()).toBe(1);
    expect(shot).toMatchObject({ mime: 'image/png', width: 720, height: 1280 });
    expect(await sharp(Buffer.from(shot.base64, 'base64')).metadata()).toMatchObject({ format: 'png', width: 720, height: 1280 });
  });

  it('keep the cache empty over later screenshots, and the same frame renders to the same bytes', async () => {
    const ui = new PhoneUi({ width: 720, height: 1280, densityDpi: 320 });
    const first = await renderScreenshot(ui);
    const second = await renderScreenshot(ui);

    expect(second.base64).toBe(first.base64);
    expect(sharp.cache()).toMatchObject({ items: { max: 0, current: 0 } });
  });
});
