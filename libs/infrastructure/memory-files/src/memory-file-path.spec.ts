import { isMobileClawError, type MemoryScope } from '@mobileclaw/domain';
import { SEGMENT_MAX_CHARS, isCalendarDay, memoryFilePath, parseMemoryFilePath, scopeFolder, scopeOfFolder } from './memory-file-path';

const HOSTILE_IDS = [
  '.',
  '..',
  '../../etc',
  'a/b',
  'a\\b',
  'nul\u0000byte',
  'con',
  'CON',
  'Lpt1',
  'com9',
  '%2E%2E',
  'sim-1 ',
  '.hidden',
  '妈妈的手机',
  '\uFEFFbom',
  '🙂'.repeat(40),
  'x'.repeat(300),
  '中'.repeat(300),
  'a+b',
];

describe('scope folders', () => {
  it('keeps ids of letters, digits, _ and - as they are', () => {
    expect(scopeFolder('device:sim-1')).toBe('device/sim-1');
    expect(scopeFolder('context:conv_42')).toBe('context/conv_42');
    expect(memoryFilePath('device:sim-1', 'daily', '2026-12-02')).toBe('device/sim-1/2026-12-02.md');
    expect(memoryFilePath('context:conv_42', 'curated')).toBe('context/conv_42/MEMORY.md');
  });

  it('percent-encodes every other byte, upper-case hex, so no id names a separator, `.` or `..`', () => {
    expect(scopeFolder('device:..')).toBe('device/%2E%2E');
    expect(scopeFolder('device:a/b')).toBe('device/a%2Fb');
    expect(scopeFolder('device:a\\b')).toBe('device/a%5Cb');
    expect(scopeFolder('device:nul\u0000byte')).toBe('device/nul%00byte');
    expect(scopeFolder('device:%2E')).toBe('device/%252E');
    expect(scopeFolder('context:妈')).toBe('context/%E5%A6%88');
  });

  it('encodes the first character of a folder Windows reserves', () => {
    expect(scopeFolder('device:con')).toBe('device/%63on');
    expect(scopeFolder('device:CON')).toBe('device/%43ON');
    expect(scopeFolder('device:Lpt1')).toBe('device/%4Cpt1');
    expect(scopeFolder('device:cons')).toBe('device/cons');
  });

  it('cuts a long encoded id into nested folders of at most SEGMENT_MAX_CHARS, each but the last ending in +, never inside %XX', () => {
    const folder = scopeFolder(`context:${'中'.repeat(300)}`);
    const segments = folder.split('/').slice(1);
    expect(segments.length).toBe(Math.ceil((300 * 9) / 117));
    for (const segment of segments) expect(segment.length).toBeLessThanOrEqual(SEGMENT_MAX_CHARS);
    for (const segment of segments.slice(0, -1)) expect(segment).toMatch(/^(%[0-9A-F]{2})+\+$/);
    expect(segments.at(-1)).toMatch(/^(%[0-9A-F]{2})+$/);
    expect(scopeFolder(`device:${'x'.repeat(300)}`).split('/')).toEqual(['device', `${'x'.repeat(119)}+`, `${'x'.repeat(119)}+`, 'x'.repeat(62)]);
  });

  it('is reversible and injective over hostile ids; every folder stays below the kind folder', () => {
    const folders = new Set<string>();
    for (const id of HOSTILE_IDS) {
      for (const kind of ['context', 'device'] as const) {
        const scope: MemoryScope = `${kind}:${id}`;
        const folder = scopeFolder(scope);
        folders.add(folder);
        const segments = folder.split('/');
        expect(segments[0]).toBe(kind);
        for (const segment of segments.slice(1)) {
          expect(segment).toMatch(/^[A-Za-z0-9_%-]+\+?$/);
          expect(segment).not.toMatch(/^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i);
        }
        expect(scopeOfFolder(segments)).toBe(scope);
        expect(parseMemoryFilePath(`${folder}/MEMORY.md`)).toEqual({ scope, layer: 'curated' });
        expect(parseMemoryFilePath(`${folder}/2026-02-28.md`)).toEqual({ scope, layer: 'daily', day: '2026-02-28' });
      }
    }
    expect(folders.size).toBe(HOSTILE_IDS.length * 2);
  });

  it('rejects scopes without a kind or an id, and ids with a lone surrogate, as VALIDATION_FAILED', () => {
    for (const scope of ['device:', 'phone:x', 'nothing', 'context:\uD800x']) {
      let error: unknown;
      try {
        scopeFolder(scope as MemoryScope);
      } catch (err) {
        error = err;
      }
      expect(isMobileClawError(error, 'VALIDATION_FAILED')).toBe(true);
    }
  });

  it('takes no path that is not exactly a memory file of a canonical folder', () => {
    for (const file of [
      '../device/sim-1/MEMORY.md',
      'device/../etc/MEMORY.md',
      'device/sim-1/../../MEMORY.md',
      'device/con/MEMORY.md',
      'device/%2e%2e/MEMORY.md',
      'device/a%2Fb+/MEMORY.md',
      'device/MEMORY.md',
      'phone/sim-1/MEMORY.md',
      'device/sim-1/notes.md',
      'device/sim-1/2026-02-30.md',
      'device/sim-1/2026-2-3.md',
      'device/sim-1/.MEMORY.md',
      'device/sim-1/sub/MEMORY.md',
      'device/a b/MEMORY.md',
      `device/${'x'.repeat(119)}/${'x'.repeat(181)}/MEMORY.md`,
      '/device/sim-1/MEMORY.md',
      '',
    ]) {
      expect(parseMemoryFilePath(file)).toBeUndefined();
    }
  });

  it('knows calendar days', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('2026-1-01')).toBe(false);
  });
});
