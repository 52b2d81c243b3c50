import { describeJsonValue, QUOTED_CHARS, quoteText } from './describe-json-value';

describe('describeJsonValue', () => {
  it.each([
    ['ok', 'a string "ok"'],
    ['say "hi"\n', 'a string "say \\"hi\\"\\n"'],
    [3.5, 'a number'],
    [true, 'a boolean'],
    [null, 'null'],
    [undefined, 'nothing'],
    [[1, [2]], 'an array'],
    [{ a: { b: 1 } }, 'an object'],
  ])('describes %p as %s', (value, text) => {
    expect(describeJsonValue(value)).toBe(text);
  });

  it('describes a value nested 100,000 levels deep without walking it', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(describeJsonValue(deep)).toBe('an array');
    expect(describeJsonValue({ type: deep })).toBe('an object');
  });
});

describe('quoteText', () => {
  it('quotes a string of up to 64 characters whole, and cuts a longer one with an ellipsis', () => {
    expect(QUOTED_CHARS).toBe(64);
    expect(quoteText('')).toBe('""');
    expect(quoteText('a'.repeat(64))).toBe(`"${'a'.repeat(64)}"`);
    expect(quoteText('b'.repeat(65))).toBe(`"${'b'.repeat(64)}…"`);
    expect(quoteText('c'.repeat(65_000))).toHaveLength(67);
  });
});
