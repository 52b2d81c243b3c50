import { currentGeometry, parseGetprop, parseRotation, parseWmDensity, parseWmSize } from './device-facts';
import { dumpsysInputRotation, dumpsysInputRotationAndroid14, GETPROP_PIXEL_7, WM_DENSITY, WM_DENSITY_OVERRIDDEN, WM_SIZE, WM_SIZE_OVERRIDDEN } from './testing';

describe('device facts parsers', () => {
  it('parseGetprop reads [name]: [value] lines, with CRLF and values holding brackets', () => {
    const props = parseGetprop(GETPROP_PIXEL_7);
    expect(props.get('ro.product.model')).toBe('Pixel 7');
    expect(props.get('ro.product.manufacturer')).toBe('Google');
    expect(props.get('ro.build.version.release')).toBe('14');
    expect(props.get('ro.build.version.sdk')).toBe('34');
    expect(props.get('ro.build.fingerprint')).toBe('google/panther/panther:14/UQ1A.240205.004/11269751:user/release-keys');
    const odd = parseGetprop('[a.b]: [x [y] z]\r\n[empty]: []\r\n[multi]: [first\nsecond]\nnot a prop\n');
    expect([...odd]).toEqual([
      ['a.b', 'x [y] z'],
      ['empty', ''],
      ['multi', 'first'],
    ]);
  });

  it('parseWmSize reads the physical size and an override', () => {
    expect(parseWmSize(WM_SIZE)).toEqual({ physical: { width: 1080, height: 2400 } });
    expect(parseWmSize(WM_SIZE_OVERRIDDEN)).toEqual({ physical: { width: 1440, height: 3120 }, override: { width: 1080, height: 2340 } });
    expect(parseWmSize('Physical size: 1080x2400\r\n')).toEqual({ physical: { width: 1080, height: 2400 } });
    expect(parseWmSize('/system/bin/sh: wm: not found\n')).toBeUndefined();
  });

  it('parseWmDensity prefers the override', () => {
    expect(parseWmDensity(WM_DENSITY)).toBe(420);
    expect(parseWmDensity(WM_DENSITY_OVERRIDDEN)).toBe(480);
    expect(parseWmDensity('')).toBeUndefined();
  });

  it('parseRotation reads dumpsys input of Android 12 and 14, older viewports and dumpsys window', () => {
    expect([0, 1, 2, 3].map((r) => parseRotation(dumpsysInputRotation(r as 0 | 1 | 2 | 3)))).toEqual([0, 1, 2, 3]);
    expect([0, 1, 2, 3].map((r) => parseRotation(dumpsysInputRotationAndroid14(r as 0 | 1 | 2 | 3)))).toEqual([0, 1, 2, 3]);
    expect(parseRotation('      Viewport: displayId=0, orientation=3, logicalFrame=[0, 0, 2280, 1080]\n')).toBe(3);
    expect(parseRotation('      SurfaceOrientation: 1\n')).toBe(1);
    expect(parseRotation('    mRotation=1 mDeferredRotationPauseCount=0\n')).toBe(1);
    expect(parseRotation('  mCurrentRotation=ROTATION_270\n')).toBe(3);
    // The internal display wins over an external one listed first.
    expect(parseRotation('Viewport EXTERNAL: displayId=2, orientation=0,\n  Viewport INTERNAL: displayId=0, orientation=1, logicalFrame=[]\n')).toBe(1);
    expect(parseRotation('')).toBeNull();
    expect(parseRotation('SurfaceOrientation: 7\n')).toBeNull();
  });

  it('currentGeometry turns the size in effect by the rotation', () => {
    expect(currentGeometry({ physical: { width: 1080, height: 2400 } }, 0, 420)).toEqual({ width: 1080, height: 2400, densityDpi: 420, rotation: 0 });
    expect(currentGeometry({ physical: { width: 1440, height: 3120 }, override: { width: 1080, height: 2340 } }, 1)).toEqual({ width: 2340, height: 1080, rotation: 1 });
  });
});
