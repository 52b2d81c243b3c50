/** A skill's body cut to a size bound, for a model's context. */
export interface BoundedSkillBody {
  /** The body, or its first `maxBytes` bytes of UTF-8 cut at a character boundary. */
  text: string;
  /** True when the body was longer than the bound. */
  truncated: boolean;
  /** The whole body's size, in bytes of UTF-8. */
  bytes: number;
}

/** `body` within `maxBytes` bytes of UTF-8, never splitting a character. */
export function boundSkillBody(body: string, maxBytes: number): BoundedSkillBody {
  const encoded = Buffer.from(body, 'utf8');
  if (encoded.length <= maxBytes) return { text: body, truncated: false, bytes: encoded.length };
  let end = maxBytes;
  // A UTF-8 continuation byte is 10xxxxxx: step back to the first byte of the character the bound falls in.
  while (end > 0 && (encoded[end] & 0xc0) === 0x80) end--;
  return { text: encoded.subarray(0, end).toString('utf8'), truncated: true, bytes: encoded.length };
}
