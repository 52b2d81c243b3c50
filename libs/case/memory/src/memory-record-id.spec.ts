import { createHash } from 'node:crypto';
import { memoryContentHash, memoryRecordId } from './memory-record-id';

describe('memoryRecordId', () => {
  const hash = memoryContentHash('Mom is Alice');

  it('is mem_ and the first 24 hex of SHA-256 of scope, layer and content hash', () => {
    const expected = `mem_${createHash('sha256').update(`device:sim-1\ndaily\n${hash}`).digest('hex').slice(0, 24)}`;
    expect(memoryRecordId('device:sim-1', 'daily', hash)).toBe(expected);
    expect(expected).toMatch(/^mem_[0-9a-f]{24}$/);
  });

  it('differs by scope and by layer, and is the same for the same inputs', () => {
    const ids = new Set([memoryRecordId('device:sim-1', 'daily', hash), memoryRecordId('device:sim-2', 'daily', hash), memoryRecordId('device:sim-1', 'curated', hash), memoryRecordId('context:sim-1', 'daily', hash)]);
    expect(ids.size).toBe(4);
    expect(memoryRecordId('device:sim-1', 'daily', hash)).toBe(memoryRecordId('device:sim-1', 'daily', hash));
  });
});

describe('memoryContentHash', () => {
  it('is SHA-256 hex of the normalised text, so spacing and case do not matter', () => {
    expect(memoryContentHash('  Mom   is\nALICE ')).toBe(createHash('sha256').update('mom is alice').digest('hex'));
    expect(memoryContentHash('Mom is Alice')).not.toBe(memoryContentHash('Mom is Bob'));
  });
});
