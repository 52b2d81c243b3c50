/**
 * Approximate text measurement for layout and drawing. The simulator has no font engine at layout
 * time (librsvg shapes text only when rasterising), so widths are estimated per grapheme: good
 * enough to wrap message bubbles and to ellipsize long labels. The text in `ui_tree` is never
 * altered; only what is drawn is shortened.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits text into user-perceived characters (so emoji ZWJ sequences stay whole). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** East Asian wide characters and emoji take about a full em; Latin/Arabic/Hebrew about 0.58 em. */
function isWide(grapheme: string): boolean {
  const cp = grapheme.codePointAt(0) ?? 0;
  return (
    grapheme.length > 2 ||
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0x1f000 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Estimated advance of one grapheme at `fontSize` px. */
function advance(grapheme: string, fontSize: number): number {
  return (isWide(grapheme) ? 1 : 0.58) * fontSize;
}

/** Estimated width in px of `text` drawn at `fontSize` px. */
export function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const g of graphemes(text)) width += advance(g, fontSize);
  return width;
}

/** Shortens `text` with a trailing ellipsis so that it fits `maxWidth` px (drawing only). */
export function ellipsize(text: string, fontSize: number, maxWidth: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const budget = maxWidth - advance('…', fontSize);
  let width = 0;
  let out = '';
  for (const g of graphemes(text)) {
    width += advance(g, fontSize);
    if (width > budget) break;
    out += g;
  }
  return out + '…';
}

/** Breaks `text` into lines no wider than `maxWidth` px, preferring spaces, never splitting a grapheme. */
export function wrapText(text: string, fontSize: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let width = 0;
    let lastSpace = -1;
    for (const g of graphemes(paragraph)) {
      const w = advance(g, fontSize);
      if (width + w > maxWidth && line !== '') {
        if (lastSpace > 0) {
          lines.push(line.slice(0, lastSpace));
          line = line.slice(lastSpace + 1);
        } else {
          lines.push(line);
          line = '';
        }
        width = textWidth(line, fontSize);
        lastSpace = -1;
      }
      if (g === ' ') lastSpace = line.length;
      line += g;
      width += w;
    }
    lines.push(line);
  }
  return lines;
}

/** Keeps the end of `text` (where the cursor is) with a leading ellipsis so that it fits `maxWidth` px. */
export function ellipsizeStart(text: string, fontSize: number, maxWidth: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  const budget = maxWidth - advance('…', fontSize);
  let width = 0;
  const kept: string[] = [];
  for (const g of graphemes(text).reverse()) {
    width += advance(g, fontSize);
    if (width > budget) break;
    kept.push(g);
  }
  return '…' + kept.reverse().join('');
}
