/**
 * A name usable as one path segment on every common file system: 1–128 characters from
 * `[A-Za-z0-9._-]`, starting with a letter or digit (so never `.`, `..`, hidden or a path). UUIDs
 * qualify.
 */
export function isSafeFileName(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name);
}
