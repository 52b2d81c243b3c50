import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileToolCallStore } from './file-tool-call-store';
import { ToolCallStoreError } from './tool-errors';

const NOW = new Date('2026-12-01T20:00:00.000Z');

describe('FileToolCallStore', () => {
  let root: string;
  let dir: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'mobileclaw-tool-calls-'));
    dir = join(root, 'client', 'tool-calls');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps records across a restart: a new store over the same folder sees them', async () => {
    const before = new FileToolCallStore(dir, () => NOW);
    await before.begin('task-1:0', 'lookup_order');
    await before.finish('task-1:0', { outcome: 'ok', result: { status: 'shipped' } });
    await before.begin('task-1:1', 'refund');

    const after = new FileToolCallStore(dir, () => NOW);
    await expect(after.get('task-1:0')).resolves.toMatchObject({ state: 'done', outcome: { outcome: 'ok', result: { status: 'shipped' } } });
    await expect(after.begin('task-1:1', 'refund')).resolves.toMatchObject({ toolCallId: 'task-1:1', state: 'running' });
  });

  it('creates its folder 0700 and its records 0600, one file per call named by the id hash, no temporary files left', async () => {
    const store = new FileToolCallStore(dir, () => NOW);
    await store.begin('task-1:0', 'lookup_order');
    await store.finish('task-1:0', { outcome: 'ok', result: 1 });
    await store.begin('task-1:1', 'lookup_order');

    const names = (await readdir(dir)).sort();
    const hash = (id: string) => createHash('sha256').update(id).digest('hex');
    expect(names).toEqual([`${hash('task-1:0')}.json`, `${hash('task-1:1')}.json`].sort());
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const name of names) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, `${hash('task-1:0')}.json`), 'utf8'))).toEqual({
      toolCallId: 'task-1:0',
      name: 'lookup_order',
      state: 'done',
      outcome: { outcome: 'ok', result: 1 },
      startedAt: NOW.toISOString(),
      endedAt: NOW.toISOString(),
    });
  });

  it('makes an existing, too open folder owner-only (0700)', async () => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o777);
    await new FileToolCallStore(dir, () => NOW).begin('task-1:0', 'lookup_order');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it('claims a call once across two stores over the same folder (as two processes would)', async () => {
    const a = new FileToolCallStore(dir, () => NOW);
    const b = new FileToolCallStore(dir, () => NOW);
    const claims = await Promise.all([a.begin('task-1:0', 'lookup_order'), b.begin('task-1:0', 'lookup_order'), a.begin('task-1:0', 'lookup_order')]);
    expect(claims.filter((claim) => claim === 'started')).toHaveLength(1);
  });

  it('reports a damaged record as unreadable instead of treating the call as new', async () => {
    const store = new FileToolCallStore(dir, () => NOW);
    await store.begin('task-1:0', 'lookup_order');
    const [name] = await readdir(dir);
    await writeFile(join(dir, name), '{"toolCallId": "task-1:0", "state": "runn');

    const error = await store.get('task-1:0').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ToolCallStoreError);
    expect(error).toMatchObject({ code: 'TOOL_CALL_RECORD_UNREADABLE' });
    expect((error as Error).message).toMatch(/^the record of tool call task-1:0 cannot be read: /);
    await expect(store.begin('task-1:0', 'lookup_order')).rejects.toMatchObject({ code: 'TOOL_CALL_RECORD_UNREADABLE' });
  });

  it('reports a record that names another call as unreadable', async () => {
    const store = new FileToolCallStore(dir, () => NOW);
    await store.begin('task-1:0', 'lookup_order');
    const [name] = await readdir(dir);
    await writeFile(join(dir, name), JSON.stringify({ toolCallId: 'task-9:9', name: 'x', state: 'running', startedAt: NOW.toISOString() }));
    await expect(store.get('task-1:0')).rejects.toThrow('the record of tool call task-1:0 cannot be read: it names another tool call');
  });

  it('fails begin with the file system error when the folder cannot be created, and creates it once it can', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, '');
    const blocked = new FileToolCallStore(join(blocker, 'tool-calls'), () => NOW);
    await expect(blocked.begin('task-1:0', 'lookup_order')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await rm(blocker);
    await expect(blocked.begin('task-1:0', 'lookup_order')).resolves.toBe('started');
  });
});
