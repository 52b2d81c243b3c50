import { DEFAULT_MEMORY_OPTIONS, memoryOptions } from './memory-options';

describe('memoryOptions', () => {
  it('puts the options given over the defaults', () => {
    expect(memoryOptions()).toEqual(DEFAULT_MEMORY_OPTIONS);
    expect(memoryOptions({ flushThreshold: 10, halfLifeDays: 0.5 })).toEqual({ ...DEFAULT_MEMORY_OPTIONS, flushThreshold: 10, halfLifeDays: 0.5 });
  });

  it.each([
    [{ flushThreshold: 0 }, 'memory option flushThreshold must be a positive integer, got 0'],
    [{ dailyResults: 2.5 }, 'memory option dailyResults must be a positive integer, got 2.5'],
    [{ halfLifeDays: 0 }, 'memory option halfLifeDays must be a positive number, got 0'],
    [{ halfLifeDays: Number.NaN }, 'memory option halfLifeDays must be a positive number, got NaN'],
    [{ mmrLambda: 1.5 }, 'memory option mmrLambda must be a number 0–1, got 1.5'],
    [{ minSemanticScore: -2 }, 'memory option minSemanticScore must be a number -1–1, got -2'],
  ])('rejects %j', (options, message) => {
    expect(() => memoryOptions(options)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message }));
  });
});
