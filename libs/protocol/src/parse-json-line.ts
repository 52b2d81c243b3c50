import { isAscii } from 'node:buffer';
import { randomBytes } from 'node:crypto';

/** Lines shorter than this take the plain path (`JSON.parse(line.toString('utf8'))`). */
export const LARGE_LINE_BYTES = 64 * 1024;
/** String values at least this long are lifted out of a large line before `JSON.parse`. */
export const LARGE_STRING_BYTES = 16 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CONTROL = /[\x00-\x1f]/;
/** Stands for a lifted string in the text given to JSON.parse; the nonce makes a clash impossible in practice. */
const MARK = `\u0001mc-${randomBytes(6).toString('hex')}-`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

/**
 * What the large-line path of {@link parseJsonLine} did since the process started: `lines` parsed
 * through it, `liftedStrings` cut out of them. Diagnostics (and the proof, in tests, that the path is
 * taken); read only.
 */
export const largeLineStats = { lines: 0, liftedStrings: 0 };

/**
 * `JSON.parse(line.toString('utf8'))`, with the same result and the same accept/reject verdict, but
 * fast for frames that carry a large string (a screenshot's base64). Such a string, when it is pure
 * ASCII without escapes or control characters, is cut out of the line with `toString('ascii')`
 * (Node makes strings over ~1 MB external: one memcpy, no V8 large-object allocation) and only the
 * small rest goes through `JSON.parse`. Any other text is decoded as ASCII when it is ASCII (same
 * string, ~7× cheaper than UTF-8 decoding) and as UTF-8 otherwise. Lines below
 * {@link LARGE_LINE_BYTES} are parsed exactly as before. Measured on 1.5 MB screenshot replies:
 * 10.2 ms → 1.6 ms per frame (docs/benchmarks.md). @throws SyntaxError like JSON.parse.
 */
export function parseJsonLine(line: Buffer): unknown {
  if (line.length < LARGE_LINE_BYTES) return JSON.parse(line.toString('utf8'));
  const { text, lifted } = liftLargeStrings(line);
  largeLineStats.lines += 1;
  largeLineStats.liftedStrings += lifted.length;
  if (lifted.length === 0) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'string' && value.startsWith(MARK)) {
      const index = Number(value.slice(MARK.length));
      if (Number.isInteger(index) && index < lifted.length) return lifted[index];
    }
    return value;
  });
}

/**
 * The fast path of {@link parseJsonLine} for a line of any size: `lifted` holds, in order, every string
 * value of at least 16 KiB that is pure ASCII without escapes or control characters (keys are never
 * lifted); `text` is the line decoded, each lifted string replaced by a placeholder only
 * {@link parseJsonLine} recognises. A line with nothing to lift gives `lifted: []` and the whole line as
 * `text`. Never throws: malformed JSON is left for `JSON.parse` to reject.
 */
export function liftLargeStrings(line: Buffer): { text: string; lifted: string[] } {
  const lifted: string[] = [];
  const text: string[] = [];
  let copied = 0;
  let open = line.indexOf(QUOTE);
  while (open >= 0) {
    let close = line.indexOf(QUOTE, open + 1);
    while (close >= 0 && escaped(line, close)) close = line.indexOf(QUOTE, close + 1);
    if (close < 0) break; // unterminated: JSON.parse reports it
    if (close - open - 1 >= LARGE_STRING_BYTES && !isKey(line, close)) {
      const body = line.subarray(open + 1, close);
      if (body.indexOf(BACKSLASH) < 0 && isAscii(body)) {
        const value = body.toString('ascii');
        if (!CONTROL.test(value)) {
          text.push(decode(line, copied, open + 1), MARK_JSON, String(lifted.length));
          lifted.push(value);
          copied = close;
        }
      }
    }
    open = line.indexOf(QUOTE, close + 1);
  }
  if (lifted.length === 0) return { text: decode(line, 0, line.length), lifted };
  text.push(decode(line, copied, line.length));
  return { text: text.join(''), lifted };
}

/** True when the byte at `at` is preceded by an odd number of backslashes. */
function escaped(line: Buffer, at: number): boolean {
  let count = 0;
  for (let i = at - 1; i >= 0 && line[i] === BACKSLASH; i -= 1) count += 1;
  return count % 2 === 1;
}

/** True when the string closed at `close` is an object key (next non-blank byte is `:`). */
function isKey(line: Buffer, close: number): boolean {
  for (let i = close + 1; i < line.length; i += 1) {
    const c = line[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c === 0x3a;
  }
  return false;
}

function decode(line: Buffer, start: number, end: number): string {
  const part = line.subarray(start, end);
  return isAscii(part) ? part.toString('ascii') : part.toString('utf8');
}
