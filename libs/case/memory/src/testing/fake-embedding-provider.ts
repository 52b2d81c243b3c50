import { EmbeddingProvider, MobileClawError, memoryWords } from '@mobileclaw/domain';

/** Options of {@link FakeEmbeddingProvider}. */
export interface FakeEmbeddingOptions {
  /** Vector length. Default 256. */
  dimensions?: number;
  /** The vector of a text, instead of the bag of hashed words (e.g. to make two words synonyms). */
  vectorOf?: (text: string) => number[];
}

/**
 * An {@link EmbeddingProvider} for tests: deterministic vectors — by default a bag of words, each of
 * {@link memoryWords} counted in the dimension its FNV-1a hash picks — so texts that share words are
 * similar and texts that share none are (almost always) orthogonal. `failing` makes every call fail
 * like a down endpoint (`PLANNER_ERROR`); every call's texts are logged in `calls`.
 */
export class FakeEmbeddingProvider extends EmbeddingProvider {
  readonly model = 'fake-embedding';
  /** The texts of every call, in order (failed calls included). */
  readonly calls: string[][] = [];
  /** When true, every call rejects. */
  failing = false;
  private readonly dimensions: number;
  private readonly vectorOf?: (text: string) => number[];

  constructor(options: FakeEmbeddingOptions = {}) {
    super();
    this.dimensions = options.dimensions ?? 256;
    this.vectorOf = options.vectorOf;
  }

  override async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    if (signal?.aborted) throw new MobileClawError('ABORTED', 'the embeddings request was aborted');
    if (this.failing) throw new MobileClawError('PLANNER_ERROR', 'the embeddings endpoint answered 503 (fake)');
    return texts.map((text) => this.vector(text));
  }

  /** The vector this provider gives `text`. */
  vector(text: string): Float32Array {
    if (this.vectorOf) return Float32Array.from(this.vectorOf(text));
    const vector = new Float32Array(this.dimensions);
    for (const word of memoryWords(text)) vector[fnv1a(word) % this.dimensions] += 1;
    return vector;
  }

  /** How many texts were embedded in all (failed calls included). */
  get textCount(): number {
    return this.calls.reduce((sum, call) => sum + call.length, 0);
  }
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
