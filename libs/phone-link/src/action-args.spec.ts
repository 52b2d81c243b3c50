import { describeValue, numberArg } from './action-args';

describe('describeValue', () => {
  it.each([
    [undefined, 'nothing'],
    ['abc', '"abc"'],
    [12, '12'],
    [false, 'false'],
    [null, 'null'],
    ['x'.repeat(100), `"${'x'.repeat(39)}`],
    [[1, 2], 'an array'],
    [{ a: 1 }, 'an object'],
  ])('describes %p as %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('describes an argument nested 100,000 levels deep by its kind, where JSON.stringify would overflow the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(() => numberArg({ x: deep }, 'x')).toThrow('"x" must be a finite number, got an array');
  });
});
