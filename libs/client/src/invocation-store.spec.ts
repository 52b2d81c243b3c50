import { mkdtempSync, readdirSync, rmSync, statSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MobileClawClientError } from './errors';
import { FileInvocationStore, MemoryInvocationStore, type InvocationRecord, type InvocationStore } from './invocation-store';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-invocations-'));
  dirs.push(dir);
  return dir;
}

const record = (invocationRef: string, lastEventId = 0): InvocationRecord => ({
  invocationRef,
  conversationId: 'c-1',
  idempotencyKey: 'k-1',
  request: { deviceId: 'sim-1', goal: 'Turn on Wi-Fi', contextId: 'c-1' },
  lastEventId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe.each<[string, () => InvocationStore]>([
  ['MemoryInvocationStore', () => new MemoryInvocationStore()],
  ['FileInvocationStore', () => new FileInvocationStore(join(tempDir(), 'invocations'))],
])('%s', (_name, make) => {
  it('puts, gets (a copy), replaces and deletes records', async () => {
    const store = make();
    expect(await store.get('a')).toBeUndefined();
    await store.put(record('a'));
    const got = await store.get('a');
    expect(got).toEqual(record('a'));
    got!.lastEventId = 99;
    expect((await store.get('a'))!.lastEventId).toBe(0);
    await store.put(record('a', 7));
    expect((await store.get('a'))!.lastEventId).toBe(7);
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });
});

describe('FileInvocationStore', () => {
  it('keeps records across instances (a restart) in an owner-only directory, files 0600, no temporary files left', async () => {
    const dir = join(tempDir(), 'invocations');
    const store = new FileInvocationStore(dir);
    await Promise.all([1, 2, 3, 4, 5].map((id) => store.put(record('a', id))));
    expect((await new FileInvocationStore(dir).get('a'))!.lastEventId).toBe(5);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'a.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('makes an existing, too open directory owner-only', async () => {
    const dir = join(tempDir(), 'open');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    await new FileInvocationStore(dir).put(record('a'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('never turns a ref into a path: other spellings are unknown, and refused on put', async () => {
    const store = new FileInvocationStore(join(tempDir(), 'invocations'));
    expect(await store.get('../etc/passwd')).toBeUndefined();
    await expect(store.put(record('../escape'))).rejects.toThrow('invocationRef "../escape" is not 1–128 of A-Z a-z 0-9 _ -');
  });
});

describe('FileInvocationStore with a damaged record', () => {
  it.each([
    ['not JSON', '{"invocationRef": "a", "lastEv', /^the record of invocation a \(.*a\.json\) cannot be read: it is not JSON \(/],
    ['JSON but not an object', '[1, 2]', /cannot be read: it is not a JSON object$/],
    ['a record of another invocation', JSON.stringify({ ...record('b') }), /cannot be read: it names another invocation$/],
    ['a record without its fields', JSON.stringify({ invocationRef: 'a' }), /cannot be read: it lacks idempotencyKey, conversationId, request or lastEventId$/],
  ])('answers INVOCATION_RECORD_UNREADABLE for a file that is %s', async (_case, text, message) => {
    const dir = join(tempDir(), 'invocations');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'a.json'), text);
    const error = await new FileInvocationStore(dir).get('a').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MobileClawClientError);
    expect(error).toMatchObject({ code: 'INVOCATION_RECORD_UNREADABLE', message: expect.stringMatching(message) });
  });
});
