import { FrameRegistry } from './frame-registry';
import { PhoneError } from './phone-error';

function refusal(fn: () => void): { code: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof PhoneError)) throw err;
    return { code: err.code, message: err.message };
  }
}

describe('FrameRegistry', () => {
  const portrait = { width: 1080, height: 2400, rotation: 0 };

  it('accepts a frame while the geometry is unchanged, and refuses it STALE_FRAME after a rotation', () => {
    const frames = new FrameRegistry();
    const id = frames.register(portrait);
    expect(refusal(() => frames.check(id, portrait))).toBeNull();
    expect(refusal(() => frames.check(id, { width: 2400, height: 1080, rotation: 1 }))).toEqual({
      code: 'STALE_FRAME',
      message: `frame ${id} was 1080x2400 rotation 0; the screen is now 2400x1080 rotation 1`,
    });
    // Rotation alone counts: 1 and 3 have the same size but mirrored coordinates.
    const landscape = frames.register({ width: 2400, height: 1080, rotation: 1 });
    expect(refusal(() => frames.check(landscape, { width: 2400, height: 1080, rotation: 3 }))?.code).toBe('STALE_FRAME');
  });

  it('refuses ids it never issued, and forgets the oldest beyond its capacity', () => {
    const frames = new FrameRegistry(32);
    expect(refusal(() => frames.check('elsewhere-1', portrait))).toEqual({ code: 'STALE_FRAME', message: 'unknown frameId "elsewhere-1"' });
    const first = frames.register(portrait);
    const ids = Array.from({ length: 32 }, () => frames.register(portrait));
    expect(frames.geometry(first)).toBeUndefined();
    expect(frames.geometry(ids[0] as string)).toEqual(portrait);
    expect(new Set([first, ...ids]).size).toBe(33);
  });

  it('ids of two registries never collide', () => {
    const a = new FrameRegistry().register(portrait);
    const b = new FrameRegistry();
    expect(refusal(() => b.check(a, portrait))?.code).toBe('STALE_FRAME');
  });

  it('needs room for at least the 32 frames the protocol asks for', () => {
    expect(() => new FrameRegistry(31)).toThrow(RangeError);
  });
});
