import { createHash } from 'node:crypto';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { MobileClawError } from '@mobileclaw/domain';
import { CHUNK_HEADER, CHUNKED_BYTES_HEADER, CHUNKED_SHA256_HEADER, ChunkAssembler, splitIntoChunks, type MessageChunk } from './message-chunks';

/** 10 000 bytes, every byte value present, so that a misplaced slice shows. */
const body = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256));

const assembler = (maxBytes = 1_000_000): ChunkAssembler => new ChunkAssembler({ maxBytes, what: 'the reply of gateway instance a', deviceId: 'p1' });

function thrown(run: () => unknown): MobileClawError {
  try {
    run();
  } catch (err) {
    if (err instanceof MobileClawError) return err;
    throw err;
  }
  throw new Error('expected a MobileClawError');
}

describe('splitIntoChunks', () => {
  it('keeps a body that fits as one message without headers', () => {
    expect(splitIntoChunks(body, 10_000)).toEqual([{ data: body }]);
  });

  it('splits a larger body into chunks of max payload minus the header room, numbered, the first with length and SHA-256', () => {
    const chunks = splitIntoChunks(body, 4096);
    expect(chunks.map((c) => c.data.length)).toEqual([3840, 3840, 2320]);
    expect(chunks.map((c) => c.headers?.get(CHUNK_HEADER))).toEqual(['1/3', '2/3', '3/3']);
    expect(chunks[0]?.headers?.get(CHUNKED_BYTES_HEADER)).toBe('10000');
    expect(chunks[0]?.headers?.get(CHUNKED_SHA256_HEADER)).toBe(createHash('sha256').update(body).digest('hex'));
    expect(chunks[1]?.headers?.get(CHUNKED_BYTES_HEADER)).toBe('');
    expect(Buffer.concat(chunks.map((c) => c.data))).toEqual(body);
  });

  it('refuses a max payload that leaves no room for chunks', () => {
    expect(() => splitIntoChunks(body, 300)).toThrow('a max payload of 300 bytes leaves no room for chunks (at least 512 bytes needed)');
  });
});

describe('ChunkAssembler', () => {
  it('returns a whole message at once and a chunked body once its last chunk arrived', () => {
    expect(assembler().add({ data: body, headers: undefined })).toEqual(body);
    const receiving = assembler();
    const [first, second, third] = splitIntoChunks(body, 4096) as [MessageChunk, MessageChunk, MessageChunk];
    expect(receiving.add(first)).toBeUndefined();
    expect(receiving.add(second)).toBeUndefined();
    expect([receiving.partial, receiving.progress()]).toEqual([true, '2 of 3 chunks (7680 of 10000 bytes)']);
    expect(receiving.add(third)).toEqual(body);
    expect(receiving.partial).toBe(false);
  });

  it('names a missing chunk, and stays failed', () => {
    const receiving = assembler();
    const [first, , third] = splitIntoChunks(body, 4096) as [MessageChunk, MessageChunk, MessageChunk];
    receiving.add(first);
    const gap = thrown(() => receiving.add(third));
    expect([gap.code, gap.message, gap.deviceId]).toEqual(['PROTOCOL_ERROR', 'the reply of gateway instance a: chunk 3/3 arrived after 1 of 3 chunks (3840 of 10000 bytes): chunk 2 is missing', 'p1']);
    expect(thrown(() => receiving.add(third))).toBe(gap);

    const late = thrown(() => assembler().add(third));
    expect(late.message).toBe('the reply of gateway instance a: chunk 3/3 arrived first: chunks 1 to 2 are missing');
  });

  it('refuses a body announced larger than its bound before holding any of it', () => {
    const tooLarge = thrown(() => assembler(9_999).add(splitIntoChunks(body, 4096)[0] as MessageChunk));
    expect([tooLarge.code, tooLarge.message]).toEqual(['PAYLOAD_TOO_LARGE', 'the reply of gateway instance a: 10000 bytes announced, more than the 9999 accepted']);
  });

  it('refuses altered chunks: a wrong checksum, a wrong length, a count that changes, malformed or missing headers', () => {
    const chunks = splitIntoChunks(body, 4096) as [MessageChunk, MessageChunk, MessageChunk];
    const altered = Buffer.from(chunks[2].data);
    altered[0] = (altered[0] ?? 0) ^ 1;
    const corrupt = assembler();
    corrupt.add(chunks[0]);
    corrupt.add(chunks[1]);
    expect(thrown(() => corrupt.add({ data: altered, headers: chunks[2].headers })).message).toBe('the reply of gateway instance a: the 3 chunks do not match the declared SHA-256');

    const short = assembler();
    short.add(chunks[0]);
    short.add(chunks[1]);
    expect(thrown(() => short.add({ data: altered.subarray(1), headers: chunks[2].headers })).message).toBe('the reply of gateway instance a: the 3 chunks hold 9999 bytes, not the declared 10000');

    const recount = assembler();
    recount.add(chunks[0]);
    const fourth = natsHeaders();
    fourth.set(CHUNK_HEADER, '2/4');
    expect(thrown(() => recount.add({ data: chunks[1].data, headers: fourth })).message).toBe("the reply of gateway instance a: chunk 2/4 disagrees with the first chunk's count of 3");

    const malformed = natsHeaders();
    malformed.set(CHUNK_HEADER, '0/3');
    expect(thrown(() => assembler().add({ data: body, headers: malformed })).message).toBe('the reply of gateway instance a: malformed Mobileclaw-Chunk header "0/3" (expected <index>/<count>)');

    const bare = natsHeaders();
    bare.set(CHUNK_HEADER, '1/3');
    expect(thrown(() => assembler().add({ data: chunks[0].data, headers: bare })).message).toBe('the reply of gateway instance a: the first chunk lacks a valid Mobileclaw-Chunked-Bytes or Mobileclaw-Chunked-Sha256 header');

    const unmarked = assembler();
    unmarked.add(chunks[0]);
    expect(thrown(() => unmarked.add({ data: chunks[1].data, headers: undefined })).message).toBe('the reply of gateway instance a: a message without a chunk header arrived after 1 of 3 chunks (3840 of 10000 bytes)');
  });
});
