import { MobileClawError } from './errors';
import { assertScreenImageLimits } from './screen-image-encoder';

function thrown(run: () => void): MobileClawError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(MobileClawError);
    return err as MobileClawError;
  }
  throw new Error('expected a throw');
}

describe('assertScreenImageLimits', () => {
  it('accepts integer limits of at least 1', () => {
    expect(() => assertScreenImageLimits({ maxLongSidePx: 1568, maxBytes: 800 * 1024 })).not.toThrow();
    expect(() => assertScreenImageLimits({ maxLongSidePx: 1, maxBytes: 1 })).not.toThrow();
  });

  it('names each limit that is not an integer ≥ 1', () => {
    const err = thrown(() => assertScreenImageLimits({ maxLongSidePx: 0, maxBytes: 1.5 }));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors).toEqual([
      { field: 'maxLongSidePx', message: 'must be an integer ≥ 1, got 0' },
      { field: 'maxBytes', message: 'must be an integer ≥ 1, got 1.5' },
    ]);
    expect(err.message).toBe(
      'invalid screen image limits: maxLongSidePx: must be an integer ≥ 1, got 0; maxBytes: must be an integer ≥ 1, got 1.5',
    );
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, '800' as unknown as number])('rejects maxBytes %p', (maxBytes) => {
    const err = thrown(() => assertScreenImageLimits({ maxLongSidePx: 1568, maxBytes }));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.fieldErrors?.map((e) => e.field)).toEqual(['maxBytes']);
  });
});
