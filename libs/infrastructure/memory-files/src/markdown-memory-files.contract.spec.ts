import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMemoryFilesContract } from '@mobileclaw/domain/testing';
import { MarkdownMemoryFiles } from './markdown-memory-files';

let root: string | undefined;
let files: MarkdownMemoryFiles | undefined;

describeMemoryFilesContract('MarkdownMemoryFiles', {
  create: async () => {
    root = await mkdtemp(join(tmpdir(), 'memory-files-contract-'));
    files = new MarkdownMemoryFiles({ dir: join(root, 'memory'), debounceMs: 20 });
    return files;
  },
  dispose: async () => {
    await files?.close();
    if (root) await rm(root, { recursive: true, force: true });
  },
});
