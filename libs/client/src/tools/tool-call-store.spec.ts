import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileToolCallStore } from './file-tool-call-store';
import { CONTRACT_NOW, describeToolCallStoreContract } from './testing/tool-call-store-contract';
import { InMemoryToolCallStore } from './tool-call-store';

describeToolCallStoreContract('InMemoryToolCallStore', () => new InMemoryToolCallStore(() => CONTRACT_NOW));

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describeToolCallStoreContract('FileToolCallStore', async () => {
  const root = await mkdtemp(join(tmpdir(), 'mobileclaw-tool-calls-'));
  roots.push(root);
  return new FileToolCallStore(join(root, 'tool-calls'), () => CONTRACT_NOW);
});
