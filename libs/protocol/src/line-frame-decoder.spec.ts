import { LineFrameDecoder } from './line-frame-decoder';

interface Oversized {
  head: string;
  size: number;
}

function setup(maxFrameBytes: number, headBytes?: number) {
  const frames: string[] = [];
  const frameBytes: Buffer[] = [];
  const oversized: Oversized[] = [];
  const heads: Buffer[] = [];
  const decoder = new LineFrameDecoder({
    maxFrameBytes,
    headBytes,
    onFrame: (line) => {
      frameBytes.push(Buffer.from(line));
      frames.push(line.toString('utf8'));
    },
    onOversized: (head, size) => {
      heads.push(head);
      oversized.push({ head: head.toString('utf8'), size });
    },
  });
  const push = (data: string | Buffer) => decoder.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  return { decoder, frames, frameBytes, oversized, heads, push };
}

/** Deterministic PRNG (mulberry32) so that the chunking tests are reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LineFrameDecoder', () => {
  describe('chunking', () => {
    it('reassembles a frame written one byte at a time', () => {
      const { decoder, frames, push } = setup(1024);
      const frame = '{"type":"ping","ts":1767225600000}';
      const bytes = Buffer.from(frame + '\n', 'utf8');
      for (let i = 0; i < bytes.length - 1; i += 1) {
        push(bytes.subarray(i, i + 1));
        expect(frames).toEqual([]);
        expect(decoder.bufferedBytes).toBe(i + 1);
      }
      push(bytes.subarray(bytes.length - 1));
      expect(frames).toEqual([frame]);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('splits many frames arriving in one chunk, in order', () => {
      const { decoder, frames, push } = setup(1024);
      const sent = Array.from({ length: 500 }, (_, i) => `{"type":"response","requestId":"r${i}","status":"success"}`);
      push(sent.join('\n') + '\n');
      expect(frames).toEqual(sent);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('keeps the incomplete tail of a chunk for the next one', () => {
      const { decoder, frames, push } = setup(1024);
      push('{"a":1}\n{"b":2}\n{"c":');
      expect(frames).toEqual(['{"a":1}', '{"b":2}']);
      expect(decoder.bufferedBytes).toBe(5);
      push('3}\n{"d":4}');
      expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
      expect(decoder.bufferedBytes).toBe(7);
      push('\n');
      expect(frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it.each(['世', '👋', 'é', '👩‍👩‍👧'])('decodes %s split across two chunks at every byte offset', (char) => {
      const frame = `{"type":"action","requestId":"r1","command":"input","text":"a${char}b${char}"}`;
      const bytes = Buffer.from(frame + '\n', 'utf8');
      for (let cut = 1; cut < bytes.length; cut += 1) {
        const { frames, frameBytes, push } = setup(1024);
        push(bytes.subarray(0, cut));
        push(bytes.subarray(cut));
        expect(frames).toEqual([frame]);
        expect(frameBytes[0].equals(bytes.subarray(0, bytes.length - 1))).toBe(true);
      }
    });

    it('decodes a multi-byte character delivered one byte per chunk', () => {
      const { frames, push } = setup(64);
      const bytes = Buffer.from('"世👋"\n', 'utf8');
      for (const byte of bytes) push(Buffer.from([byte]));
      expect(frames).toEqual(['"世👋"']);
    });

    it('gives the same lines for any chunking of a mixed stream (seeded random cuts)', () => {
      const max = 200;
      const lines = [
        '{"type":"ping","ts":1}',
        '',
        `{"type":"event","event":"n","data":{"t":"世界 👋 مرحبا \\"q\\""}}`,
        'x'.repeat(max),
        'y'.repeat(max + 1),
        '{"type":"pong","ts":2}\r',
        '\r',
        'z'.repeat(3 * max),
        '{"type":"response","requestId":"r1","status":"success"}',
      ];
      const stream = Buffer.from(lines.map((l) => l + '\n').join(''), 'utf8');
      const expectedFrames = ['{"type":"ping","ts":1}', lines[2], lines[3], '{"type":"pong","ts":2}', lines[8]];
      const expectedOversized = [max + 1, 3 * max];
      const random = prng(7397);
      for (let round = 0; round < 200; round += 1) {
        const { decoder, frames, oversized, push } = setup(max, 16);
        let at = 0;
        while (at < stream.length) {
          const size = 1 + Math.floor(random() * (round % 2 === 0 ? 8 : 300));
          push(stream.subarray(at, at + size));
          at += size;
          expect(decoder.bufferedBytes).toBeLessThanOrEqual(max);
        }
        expect(frames).toEqual(expectedFrames);
        expect(oversized.map((o) => o.size)).toEqual(expectedOversized);
        expect(oversized.map((o) => o.head)).toEqual(['y'.repeat(16), 'z'.repeat(16)]);
        expect(decoder.bufferedBytes).toBe(0);
      }
    });
  });

  describe('line endings', () => {
    it('accepts \\r\\n and strips only the \\r before the \\n', () => {
      const { frames, push } = setup(1024);
      push('{"a":1}\r\n{"b":"x\ry"}\r\n{"c":3}\n');
      expect(frames).toEqual(['{"a":1}', '{"b":"x\ry"}', '{"c":3}']);
    });

    it('accepts \\r\\n split between chunks', () => {
      const { frames, push } = setup(1024);
      push('{"a":1}\r');
      expect(frames).toEqual([]);
      push('\n{"b":2}\r');
      push('\n');
      expect(frames).toEqual(['{"a":1}', '{"b":2}']);
    });

    it('skips empty lines (\\n and \\r\\n)', () => {
      const { decoder, frames, push } = setup(1024);
      push('\n\n\r\n{"a":1}\n\n\r\n');
      push('\n');
      push('\r');
      push('\n{"b":2}\n\n');
      expect(frames).toEqual(['{"a":1}', '{"b":2}']);
      expect(decoder.bufferedBytes).toBe(0);
    });
  });

  describe('frame limit', () => {
    const max = 32;

    it('accepts a line of exactly maxFrameBytes, in one chunk or many', () => {
      const line = 'a'.repeat(max);
      const one = setup(max);
      one.push(line + '\n');
      expect(one.frames).toEqual([line]);
      expect(one.oversized).toEqual([]);

      const many = setup(max);
      many.push(line.slice(0, 10));
      many.push(line.slice(10));
      expect(many.decoder.bufferedBytes).toBe(max);
      many.push('\n');
      expect(many.frames).toEqual([line]);
      expect(many.oversized).toEqual([]);
    });

    it('counts multi-byte characters in bytes, not chars', () => {
      const atLimit = '世'.repeat(max / 4) + 'abcdefgh'; // 8 × 3 + 8 = 32 bytes
      const overLimit = '世'.repeat(max / 4) + 'abcdefghi'; // 33 bytes
      const { frames, oversized, push } = setup(max);
      push(`${atLimit}\n${overLimit}\n`);
      expect(frames).toEqual([atLimit]);
      expect(oversized.map((o) => o.size)).toEqual([33]);
    });

    it('counts a trailing \\r against the limit', () => {
      const { frames, oversized, push } = setup(max);
      push('a'.repeat(max - 1) + '\r\n' + 'b'.repeat(max) + '\r\n');
      expect(frames).toEqual(['a'.repeat(max - 1)]);
      expect(oversized).toEqual([{ head: 'b'.repeat(max) + '\r', size: max + 1 }]);
    });

    it('discards a line of maxFrameBytes + 1 and reports its head and exact size', () => {
      const { decoder, frames, oversized, push } = setup(max, 8);
      push('0123456789abcdefghijklmnopqrstuvw\n');
      expect(frames).toEqual([]);
      expect(oversized).toEqual([{ head: '01234567', size: max + 1 }]);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('builds the head from the buffered chunks and the overflowing one', () => {
      const { oversized, push } = setup(10, 6);
      push('abc');
      push('def');
      push('ghijklmnop');
      push('qr\nok\n');
      expect(oversized).toEqual([{ head: 'abcdef', size: 18 }]);
    });

    it('reports the whole line as head when it is shorter than headBytes', () => {
      const { oversized, push } = setup(4, 4096);
      push('0123456789\n');
      expect(oversized).toEqual([{ head: '0123456789', size: 10 }]);
    });

    it('decodes the next frame in the same chunk', () => {
      const { frames, oversized, push } = setup(max, 4);
      push(`${'x'.repeat(100)}\n{"type":"ping"}\n${'y'.repeat(40)}\n{"type":"pong"}\n`);
      expect(frames).toEqual(['{"type":"ping"}', '{"type":"pong"}']);
      expect(oversized).toEqual([
        { head: 'xxxx', size: 100 },
        { head: 'yyyy', size: 40 },
      ]);
    });

    it('decodes the next frame in later chunks', () => {
      const { decoder, frames, oversized, push } = setup(max, 4);
      push('x'.repeat(50));
      expect(oversized).toEqual([]);
      push('x'.repeat(50));
      push('xxx\n{"type":');
      expect(oversized).toEqual([{ head: 'xxxx', size: 103 }]);
      expect(decoder.bufferedBytes).toBe(8);
      push('"ping"}\n');
      push('{"type":"pong"}\n');
      expect(frames).toEqual(['{"type":"ping"}', '{"type":"pong"}']);
    });

    it('keeps memory bounded while an oversized line streams in', () => {
      const limit = 1024;
      const headBytes = 64;
      const { decoder, frames, oversized, heads, push } = setup(limit, headBytes);
      const chunks: Buffer[] = [];
      let discarding = false;
      for (let i = 0; i < 2000; i += 1) {
        // Buffer.alloc: a chunk of its own, never from the shared pool, so retention is observable.
        const chunk = Buffer.alloc(100, 0x41 + (i % 26));
        chunks.push(chunk);
        push(chunk);
        expect(decoder.bufferedBytes).toBeLessThanOrEqual(limit);
        if ((i + 1) * 100 > limit) discarding = true;
        if (discarding) expect(decoder.bufferedBytes).toBe(0);
      }
      expect(oversized).toEqual([]);
      push('\n{"type":"ping"}\n');
      expect(oversized).toHaveLength(1);
      expect(oversized[0].size).toBe(2000 * 100);
      expect(oversized[0].head).toBe('A'.repeat(100).slice(0, headBytes));
      // The head is a copy of headBytes, not a view that pins one of the chunks.
      expect(heads[0].length).toBe(headBytes);
      for (const chunk of chunks) expect(heads[0].buffer).not.toBe(chunk.buffer);
      expect(frames).toEqual(['{"type":"ping"}']);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('applies a changed maxFrameBytes to the following lines (hello limit, then session limit)', () => {
      const { decoder, frames, oversized, push } = setup(8);
      push('12345678\n');
      decoder.maxFrameBytes = 16;
      push('1234567890123456\n12345678901234567\n');
      expect(frames).toEqual(['12345678', '1234567890123456']);
      expect(oversized.map((o) => o.size)).toEqual([17]);
    });
  });

  describe('reset', () => {
    it('drops a partial line', () => {
      const { decoder, frames, push } = setup(1024);
      push('{"type":"pi');
      expect(decoder.bufferedBytes).toBe(11);
      decoder.reset();
      expect(decoder.bufferedBytes).toBe(0);
      push('{"type":"pong"}\n');
      expect(frames).toEqual(['{"type":"pong"}']);
    });

    it('decodes a line split across chunks after a reset dropped a partial one', () => {
      const { decoder, frames, push } = setup(1024);
      push('{"type":"pi');
      decoder.reset();
      push('{"type":');
      push('"po');
      expect(decoder.bufferedBytes).toBe(11);
      push('ng"}\n{"a":1}\n');
      expect(frames).toEqual(['{"type":"pong"}', '{"a":1}']);
      expect(decoder.bufferedBytes).toBe(0);
    });

    it('decodes a line split across chunks after a reset ended a discard', () => {
      const { decoder, frames, oversized, push } = setup(8);
      push('y'.repeat(20));
      decoder.reset();
      push('ab');
      push('cd\n');
      push('x'.repeat(9) + '\n');
      expect(frames).toEqual(['abcd']);
      expect(oversized).toEqual([{ head: 'x'.repeat(9), size: 9 }]);
    });

    it('ends discarding an oversized line without reporting it', () => {
      const { decoder, frames, oversized, push } = setup(8);
      push('x'.repeat(20));
      decoder.reset();
      push('xxx\n');
      expect(frames).toEqual(['xxx']);
      expect(oversized).toEqual([]);
    });
  });
});
