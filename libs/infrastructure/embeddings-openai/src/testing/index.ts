export * from './embeddings-server';
