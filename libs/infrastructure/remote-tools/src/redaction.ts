/**
 * A URL as people may see it (in `location`, messages, logs): scheme, host, port and path only — user
 * info and the query are dropped, since they can carry credentials (`?api_key=…`).
 * @throws TypeError when `url` is not an absolute URL
 */
export function publicUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * `text` with every occurrence of `secret` replaced by `[redacted]`: for messages that quote what a
 * remote server said, which may echo the credentials it was sent.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * The message of a thrown value, with its `cause` (undici's `fetch failed` says why only there, e.g.
 * `connect ECONNREFUSED 127.0.0.1:4000`). Errors are read by shape, not `instanceof`: fetch's come from
 * another realm under some test runners.
 */
export function errorMessage(err: unknown): string {
  if (!hasMessage(err)) return String(err);
  const cause = err.cause;
  const why = hasMessage(cause) && cause.message !== '' ? cause.message : hasCode(cause) ? cause.code : undefined;
  return why !== undefined && !err.message.includes(why) ? `${err.message}: ${why}` : err.message;
}

function hasMessage(value: unknown): value is { message: string; cause?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

function hasCode(value: unknown): value is { code: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string';
}
