export * from './openai-embedding-provider';
