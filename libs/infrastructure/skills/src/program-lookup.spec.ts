import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createProgramLookup } from './program-lookup';

describe('createProgramLookup', () => {
  let tmp: string;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'program-lookup-'));
    for (const dir of ['a', 'b']) mkdirSync(join(tmp, dir));
    writeFileSync(join(tmp, 'b', 'tool'), '#!/bin/sh\n');
    chmodSync(join(tmp, 'b', 'tool'), 0o755);
    writeFileSync(join(tmp, 'a', 'data'), 'not a program');
    chmodSync(join(tmp, 'a', 'data'), 0o644);
    mkdirSync(join(tmp, 'a', 'folder'));
  });

  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds executable files in any PATH folder, not plain files, folders or missing names', async () => {
    const hasProgram = createProgramLookup([join(tmp, 'a'), join(tmp, 'b')].join(delimiter));
    expect(await Promise.all(['tool', 'data', 'folder', 'missing'].map(hasProgram))).toEqual([true, false, false, false]);
  });

  it('checks an absolute path itself, and never resolves relative paths or relative PATH entries', async () => {
    const hasProgram = createProgramLookup(['b', join(tmp, 'a')].join(delimiter));
    expect(await hasProgram(join(tmp, 'b', 'tool'))).toBe(true);
    expect(await hasProgram('tool')).toBe(false);
    expect(await hasProgram('b/tool')).toBe(false);
    expect(await hasProgram('')).toBe(false);
    expect(await createProgramLookup(undefined)('tool')).toBe(false);
  });
});
