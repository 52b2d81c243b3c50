import { largeLineStats, liftLargeStrings, parseJsonLine, LARGE_LINE_BYTES, LARGE_STRING_BYTES } from './parse-json-line';
import { decodeFrame } from './decode-frame';

/**
 * `actual` deep-equals `expected`, compared as JSON with long repeats written as `<unit×count>`: a
 * failure then shows a diff of a few lines instead of megabytes of base64.
 */
function expectSame(actual: unknown, expected: unknown): void {
  const brief = (value: unknown) => JSON.stringify(value).replace(/(.{1,4}?)\1{15,}/gs, (run, unit: string) => `<${unit}×${run.length / unit.length}>`);
  expect(brief(actual)).toBe(brief(expected));
}

/** The contract: same value and same accept/reject verdict as JSON.parse(line.toString('utf8')). */
function same(line: Buffer): void {
  let expected: unknown;
  let expectedError: string | undefined;
  try {
    expected = JSON.parse(line.toString('utf8'));
  } catch (e) {
    expectedError = (e as Error).constructor.name;
  }
  if (expectedError !== undefined) {
    expect(() => parseJsonLine(line)).toThrow(SyntaxError);
  } else {
    expectSame(parseJsonLine(line), expected);
  }
}

const big = 'A'.repeat(LARGE_LINE_BYTES + 10);
const b64 = Buffer.alloc(1_125_000, 7).toString('base64');

describe('parseJsonLine', () => {
  it.each([
    ['a screenshot reply', JSON.stringify({ type: 'response', requestId: 'r1', status: 'success', data: { mime: 'image/png', base64: b64, frameId: 'f1' } })],
    ['escapes and Unicode beside a large string', JSON.stringify({ requestId: 'x"\\', data: { base64: big, t: 'é漢😀 %', q: 'a\\"b' } })],
    ['a large key is left alone', JSON.stringify({ [big]: 1, b: big })],
    ['two large strings in an array', `["${big}", "${big}"]`],
    ['a string that looks like the placeholder', `{"a" : "${big}" , "b":"\\u0001mc-zz-0"}`],
    ['a large top-level string', `"${big}"`],
    ['a raw control character inside (invalid)', `{"a":"${big}\u0001"}`],
    ['unterminated object', `{"a":"${big}"`],
    ['unterminated string', `{"a":"${big}`],
    ['a bad escape', `{"a":"${big}\\q"}`],
    ['non-ASCII inside', `{"a":"${big}é"}`],
    ['trailing garbage', `{"a":"${big}"}x`],
    ['a stray token before the string', `{"a":x"${big}"}`],
    ['a small line', '{"type":"pong","ts":1}'],
    ['a large string starting with an escape', `{"a":"\\n${big}"}`],
    ['a large string ending with an escaped backslash', `{"a":"${big}\\\\","b":"${big}"}`],
    ['a space before the colon of a large key', `{"${big}" \t\r\n: "${big}"}`],
    ['an escaped quote before a large section', `{"q":"x\\"y","a":"${big}","r":"\\"${big}"}`],
    ['a large value followed by blanks', `["${big}" \n ]`],
  ])('%s', (_name, text) => same(Buffer.from(text)));

  it('invalid UTF-8 is replaced as toString does', () => {
    same(Buffer.concat([Buffer.from(`{"a":"${big}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]));
  });

  it('decodeFrame returns the whole base64 of a large reply', () => {
    const line = Buffer.from(JSON.stringify({ type: 'response', requestId: 'r1', status: 'success', data: { base64: b64 } }));
    const decoded = decodeFrame(line);
    expectSame(decoded.ok && decoded.frame.type === 'response' && decoded.frame.status === 'success' && decoded.frame.data?.['base64'], b64);
  });

  describe('the large-string fast path', () => {
    const large = 'B'.repeat(LARGE_STRING_BYTES);
    const lifted = (text: string) => liftLargeStrings(Buffer.from(text)).lifted;

    it('lifts the base64 of a screenshot reply and parses the same value', () => {
      const line = Buffer.from(JSON.stringify({ type: 'response', requestId: 'r1', status: 'success', data: { base64: b64, frameId: 'f1' } }));
      expectSame(liftLargeStrings(line).lifted, [b64]);
      expectSame(parseJsonLine(line), JSON.parse(line.toString('utf8')));
    });

    it('is taken from LARGE_LINE_BYTES on, and only then', () => {
      const line = (bytes: number) => {
        const text = `["${large}",""]`;
        return Buffer.from(text.replace('""', `"${'s'.repeat(bytes - text.length)}"`));
      };
      const before = { ...largeLineStats };
      // Counts, not merely numbers: `expect.any(Number)` and `toEqual` would both let NaN through.
      expect(Object.keys(before)).toEqual(['lines', 'liftedStrings']);
      expect(Number.isInteger(before.lines) && Number.isInteger(before.liftedStrings)).toBe(true);
      expectSame(parseJsonLine(line(LARGE_LINE_BYTES - 1)), JSON.parse(line(LARGE_LINE_BYTES - 1).toString()));
      expect(largeLineStats).toEqual(before);
      expect(line(LARGE_LINE_BYTES)).toHaveLength(LARGE_LINE_BYTES);
      expectSame(parseJsonLine(line(LARGE_LINE_BYTES)), JSON.parse(line(LARGE_LINE_BYTES).toString()));
      expect(largeLineStats).toEqual({ lines: before.lines + 1, liftedStrings: before.liftedStrings + 2 });
      parseJsonLine(Buffer.from(`{"a":"${'é'.repeat(LARGE_LINE_BYTES)}"}`));
      expect(largeLineStats).toEqual({ lines: before.lines + 2, liftedStrings: before.liftedStrings + 2 });
    });

    it('lifts string values of at least LARGE_STRING_BYTES, in order, and nothing shorter', () => {
      const shorter = large.slice(1);
      expectSame(lifted(`["${large}","${shorter}","${large}C"]`), [large, `${large}C`]);
      expectSame(lifted(`["${shorter}"]`), []);
    });

    it('never lifts a key, whatever blanks precede its colon', () => {
      for (const blank of ['', ' ', '\t', '\n', '\r', ' \r\n\t ']) {
        expectSame(lifted(`{"${large}"${blank}:"${large}D"}`), [`${large}D`]);
      }
      expectSame(lifted(`["${large}" , "${large}E"]`), [large, `${large}E`]);
      expectSame(lifted(`"${large}"`), [large]);
    });

    it('leaves strings with escapes, control characters or non-ASCII bytes to JSON.parse', () => {
      expectSame(lifted(`["\\n${large}"]`), []);
      expectSame(lifted(`["${large}\\\\"]`), []);
      expectSame(lifted(`["${large}\u0001"]`), []);
      expectSame(lifted(`["${large}é"]`), []);
    });

    it('finds the right string bounds past escaped quotes and escaped backslashes', () => {
      expectSame(lifted(`{"q":"x\\"y","a":"${large}"}`), [large]);
      expectSame(lifted(`{"q":"x\\\\","a":"${large}"}`), [large]);
      expectSame(lifted(`{"q":"\\"${large}","a":"${large}F"}`), [`${large}F`]);
    });

    it('keeps the rest of the line, placeholders aside, and decodes it as UTF-8 when it is not ASCII', () => {
      const { text } = liftLargeStrings(Buffer.from(`{"t":"é漢","a":"${large}","z":"😀"}`));
      expect(text.startsWith('{"t":"é漢","a":"')).toBe(true);
      expect(text.endsWith('","z":"😀"}')).toBe(true);
      expect(text.length).toBeLessThan(64);
      expect(liftLargeStrings(Buffer.from('{"a":"é"}'))).toEqual({ text: '{"a":"é"}', lifted: [] });
    });

    it('never takes the text between two strings for a string', () => {
      const gap = ' '.repeat(LARGE_STRING_BYTES);
      expectSame(lifted(`["a",${gap}"b"]`), []);
      same(Buffer.from(`["a",${gap}"b","${big}"]`));
    });

    it('gives back a short string that equals a placeholder index untouched', () => {
      expectSame(parseJsonLine(Buffer.from(`{"a":"${big}","b":"0","c":["1"]}`)), { a: big, b: '0', c: ['1'] });
    });

    it('stops at an unterminated string', () => {
      expect(liftLargeStrings(Buffer.from(`["${large}","${large}`))).toMatchObject({ lifted: [large] });
    });
  });
});
