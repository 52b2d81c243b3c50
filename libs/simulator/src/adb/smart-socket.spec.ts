import { PassThrough } from 'node:stream';
import { ByteReader } from './byte-reader';
import { AdbProtocolError, encodeRequest, fail, hex4, okay, parseHex4 } from './smart-socket';
import { parseSyncHeader, SYNC_DATA_MAX, syncDent, syncFail, syncFile, syncStat } from './sync-protocol';

describe('smart-socket framing', () => {
  it('prefixes a request with its byte length in 4 lowercase hex digits', () => {
    expect(encodeRequest('host:version').toString('latin1')).toBe('000chost:version');
    expect(encodeRequest('shell:echo é').toString('latin1')).toBe('000dshell:echo \u00c3\u00a9');
    expect(hex4(0x29)).toBe('0029');
    expect(hex4(0xffff)).toBe('ffff');
  });

  it('refuses lengths 4 hex digits cannot carry', () => {
    expect(() => hex4(0x10000)).toThrow(RangeError);
    expect(() => hex4(-1)).toThrow(RangeError);
    expect(() => hex4(1.5)).toThrow(RangeError);
  });

  it('writes OKAY, OKAY with a value, and FAIL with a message', () => {
    expect(okay().toString('latin1')).toBe('OKAY');
    expect(okay('0029').toString('latin1')).toBe('OKAY00040029');
    expect(okay('').toString('latin1')).toBe('OKAY0000');
    expect(fail("device 'x' not found").toString('latin1')).toBe("FAIL0014device 'x' not found");
  });

  it('reads upper- and lower-case hex lengths and rejects anything else with a typed error', () => {
    expect(parseHex4(Buffer.from('001A'))).toBe(26);
    expect(parseHex4(Buffer.from('00ff'))).toBe(255);
    for (const bad of ['00 1', '0x10', 'zzzz', '12']) {
      const err = (() => {
        try {
          parseHex4(Buffer.from(bad));
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(err).toBeInstanceOf(AdbProtocolError);
      expect(err).toMatchObject({ code: 'ADB_PROTOCOL_ERROR', message: `bad smart-socket length prefix ${JSON.stringify(bad)}` });
    }
  });
});

describe('ByteReader', () => {
  it('assembles exact lengths across chunk boundaries and keeps the rest for the next read', async () => {
    const stream = new PassThrough();
    const reader = new ByteReader(stream);
    const first = reader.read(4);
    stream.write('00');
    stream.write('0chost:ver');
    expect((await first)?.toString()).toBe('000c');
    expect((await reader.read(8))?.toString()).toBe('host:ver');
    const rest = reader.read(4);
    stream.write('sionEXTRA');
    expect((await rest)?.toString()).toBe('sion');
    expect((await reader.read(5))?.toString()).toBe('EXTRA');
  });

  it('answers null when the stream ends before the bytes arrive', async () => {
    const stream = new PassThrough();
    const reader = new ByteReader(stream);
    const read = reader.read(4);
    stream.end('ab');
    expect(await read).toBeNull();
    expect((await reader.read(2))?.toString()).toBe('ab');
    expect(await reader.read(1)).toBeNull();
  });
});

describe('sync framing', () => {
  it('encodes STAT answers, directory entries and failures little-endian', () => {
    const stat = syncStat(0o100660, 5012, 1_700_000_000);
    expect(stat.subarray(0, 4).toString()).toBe('STAT');
    expect([stat.readUInt32LE(4), stat.readUInt32LE(8), stat.readUInt32LE(12)]).toEqual([0o100660, 5012, 1_700_000_000]);
    const dent = syncDent(0o100660, 3, 7, 'é.xml');
    expect(dent.subarray(0, 4).toString()).toBe('DENT');
    expect(dent.readUInt32LE(16)).toBe(6);
    expect(dent.subarray(20).toString('utf8')).toBe('é.xml');
    expect(syncFail('open failed').toString('latin1')).toBe('FAIL\u000b\u0000\u0000\u0000open failed');
    expect(parseSyncHeader(Buffer.from('RECV\u0017\u0000\u0000\u0000', 'latin1'))).toEqual({ id: 'RECV', value: 23 });
  });

  it('sends a file as DATA chunks of at most 64 KiB and a DONE', () => {
    const data = Buffer.alloc(SYNC_DATA_MAX + 10, 7);
    const out = syncFile(data);
    expect(parseSyncHeader(out.subarray(0, 8))).toEqual({ id: 'DATA', value: SYNC_DATA_MAX });
    const second = 8 + SYNC_DATA_MAX;
    expect(parseSyncHeader(out.subarray(second, second + 8))).toEqual({ id: 'DATA', value: 10 });
    expect(parseSyncHeader(out.subarray(second + 18))).toEqual({ id: 'DONE', value: 0 });
    expect(out.length).toBe(second + 18 + 8);
    expect(syncFile(Buffer.alloc(0)).toString('latin1')).toBe('DONE\u0000\u0000\u0000\u0000');
  });
});
