import { parseJsonLine, LARGE_LINE_BYTES } from './parse-json-line';
import { decodeFrame } from './decode-frame';

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
    expect(parseJsonLine(line)).toEqual(expected);
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
  ])('%s', (_name, text) => same(Buffer.from(text)));

  it('invalid UTF-8 is replaced as toString does', () => {
    same(Buffer.concat([Buffer.from(`{"a":"${big}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]));
  });

  it('decodeFrame returns the whole base64 of a large reply', () => {
    const line = Buffer.from(JSON.stringify({ type: 'response', requestId: 'r1', status: 'success', data: { base64: b64 } }));
    const decoded = decodeFrame(line);
    expect(decoded.ok && decoded.frame.type === 'response' && decoded.frame.status === 'success' && decoded.frame.data?.['base64']).toBe(b64);
  });
});
