import { OpenAiEmbeddingProvider } from '@mobileclaw/embeddings-openai';
import { startEmbeddingsServer } from '@mobileclaw/embeddings-openai/testing';
import type { EmbeddingProvider } from '@mobileclaw/domain';
import { conceptEmbedding, CONCEPT_DIMENSIONS } from './concept-embedding';

/** The concept embedding behind a local `/v1/embeddings` endpoint, and the gateway's client of it. */
export interface ConceptEmbeddings {
  /** `OpenAiEmbeddingProvider` (the `openai` package) against the endpoint. */
  provider: EmbeddingProvider;
  /** The endpoint's base URL, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a local HTTP server speaking the OpenAI `/v1/embeddings` wire format that answers with
 * {@link conceptEmbedding}, and the `OpenAiEmbeddingProvider` the gateway would use against it (its
 * default settings: 64 texts a request), so the
 * semantic arms pay what a local embeddings server costs (HTTP, JSON, base64 float32) — not a model's time.
 */
export async function startConceptEmbeddings(): Promise<ConceptEmbeddings> {
  const server = await startEmbeddingsServer({ embed: (text) => Array.from(conceptEmbedding(text)) });
  const provider = new OpenAiEmbeddingProvider({ baseUrl: server.baseUrl, apiKey: 'bench', model: `concept-${CONCEPT_DIMENSIONS}` });
  return { provider, baseUrl: server.baseUrl, close: () => server.close() };
}
