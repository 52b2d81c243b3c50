/** Test doubles of @mobileclaw/case-tools: a fake tool source and test descriptors. */
export * from './fake-tool-source';
