/**
 * Word segmentation for memory search, the same for indexing and for queries: Unicode NFKC,
 * lower-cased, split by `Intl.Segmenter` (ICU's dictionary-based word breaks, so Chinese and other
 * unspaced scripts give words, English gives words at spaces and punctuation), only word-like
 * segments kept. E.g. `My office Wi-Fi是ACME-5G` → `my`, `office`, `wi`, `fi`, `是`, `acme`, `5g`.
 */
const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });

/** The words of `text` in order (repeats kept). */
export function memoryWords(text: string): string[] {
  const words: string[] = [];
  for (const segment of SEGMENTER.segment(text.normalize('NFKC').toLowerCase())) {
    if (segment.isWordLike) words.push(segment.segment);
  }
  return words;
}
