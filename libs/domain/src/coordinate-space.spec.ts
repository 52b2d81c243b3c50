import { CoordinateSpace } from './coordinate-space';

describe('CoordinateSpace', () => {
  it('maps a 576x1280 image of a 1080x2400 screen back to device px per axis', () => {
    const space = CoordinateSpace.ofImage({ width: 576, height: 1280 }, { width: 1080, height: 2400 });
    expect(space.isScreen).toBe(false);
    expect(space.toDevice(0, 0)).toEqual([0, 0]);
    // 288 * 1080/576 = 540; 640 * 2400/1280 = 1200
    expect(space.toDevice(288, 640)).toEqual([540, 1200]);
    // 101 * 1.875 = 189.375 → 189; 333 * 1.875 = 624.375 → 624
    expect(space.toDevice(101, 333)).toEqual([189, 624]);
    // 575 * 1.875 = 1078.125 → 1078; 1279 * 1.875 = 2398.125 → 2398
    expect(space.toDevice(575, 1279)).toEqual([1078, 2398]);
  });

  it('rounds to the nearest px and clamps to the screen', () => {
    const space = CoordinateSpace.ofImage({ width: 576, height: 1280 }, { width: 1080, height: 2400 });
    // 3 * 1.875 = 5.625 → 6; 5 * 1.875 = 9.375 → 9
    expect(space.toDevice(3, 5)).toEqual([6, 9]);
    expect(space.toDevice(576, 1280)).toEqual([1079, 2399]);
    expect(space.toDevice(-4, 9999)).toEqual([0, 2399]);
  });

  it('maps a 1440x3200 screen downscaled to 576x1280 (factor 2.5)', () => {
    const space = CoordinateSpace.ofImage({ width: 576, height: 1280 }, { width: 1440, height: 3200 });
    expect(space.toDevice(288, 640)).toEqual([720, 1600]);
    // 1 * 2.5 = 2.5 → 3 (half rounds up); 3 * 2.5 = 7.5 → 8
    expect(space.toDevice(1, 3)).toEqual([3, 8]);
    expect(space.toDevice(575, 1279)).toEqual([1438, 3198]);
  });

  it('scales each axis on its own when the image aspect ratio was rounded', () => {
    // 1080x2340 downscaled to a long side of 1280 gives 591x1280 (590.77 rounded): x and y scale differently.
    const space = CoordinateSpace.ofImage({ width: 591, height: 1280 }, { width: 1080, height: 2340 });
    // 590 * 1080/591 = 1078.17 → 1078; 1279 * 2340/1280 = 2338.17 → 2338
    expect(space.toDevice(590, 1279)).toEqual([1078, 2338]);
    // 295 * 1080/591 = 539.09 → 539; 640 * 1.828125 = 1170
    expect(space.toDevice(295, 640)).toEqual([539, 1170]);
  });

  it('maps a landscape screen (2400x1080 → 1280x576)', () => {
    const space = CoordinateSpace.ofImage({ width: 1280, height: 576 }, { width: 2400, height: 1080 });
    expect(space.toDevice(640, 288)).toEqual([1200, 540]);
    expect(space.toDevice(1279, 575)).toEqual([2398, 1078]);
    expect(space.toDevice(333, 101)).toEqual([624, 189]);
  });

  it('maps device px into the image for bounds and earlier points', () => {
    const space = CoordinateSpace.ofImage({ width: 576, height: 1280 }, { width: 1080, height: 2400 });
    // 860/1.875 = 458.67 → 459; 220/1.875 = 117.33 → 117; 1080 → 576; 420/1.875 = 224
    expect(space.boundsFromDevice([860, 220, 1080, 420])).toEqual([459, 117, 576, 224]);
    expect(space.fromDevice(540, 1200)).toEqual([288, 640]);
    expect(space.fromDevice(1079, 2399)).toEqual([575, 1279]);
  });

  it('is the identity on the screen itself', () => {
    const space = CoordinateSpace.ofScreen({ width: 1080, height: 2400 });
    expect(space.isScreen).toBe(true);
    expect(space.toDevice(1079, 2399)).toEqual([1079, 2399]);
    expect(space.toDevice(1080, 2400)).toEqual([1079, 2399]);
    expect(space.boundsFromDevice([0, 63, 1080, 2337])).toEqual([0, 63, 1080, 2337]);
  });
});
