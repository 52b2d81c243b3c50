/**
 * An id (device id, task id, instance id) as one NATS subject token and one JetStream KV key: the
 * base64url of its UTF-8 bytes, no padding. Ids may hold `.`, `*`, `>`, spaces or any other character a
 * subject or key forbids; base64url uses only `A-Z a-z 0-9 - _`, which both accept, and is reversible.
 */
export function subjectToken(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id a {@link subjectToken} encodes. */
export function fromSubjectToken(token: string): string {
  return Buffer.from(token, 'base64url').toString('utf8');
}
