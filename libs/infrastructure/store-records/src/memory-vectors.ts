import { endianness } from 'node:os';

const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** A vector as both stores keep it (SQLite BLOB, PostgreSQL bytea): little-endian float32, 4 bytes per value. */
export function encodeVector(vector: Float32Array): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  if (LITTLE_ENDIAN_HOST) {
    bytes.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
  } else {
    for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  }
  return bytes;
}

/** The vector of a stored BLOB (a copy: a driver's buffer need not be 4-byte aligned). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const vector = new Float32Array(Math.floor(bytes.byteLength / 4));
  if (LITTLE_ENDIAN_HOST) {
    new Uint8Array(vector.buffer).set(bytes.subarray(0, vector.length * 4));
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  }
  return vector;
}
