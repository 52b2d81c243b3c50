import { MobileClawError } from '../errors';
import { MEMORY_SCOPE_MAX_CHARS, parseMemoryScope, type MemoryScope } from './memory';

/**
 * Which memory scopes a scoped API token reaches: each entry is a scope (`device:sim-1`,
 * `context:order-42`) reached exactly, or a prefix ending in `*` (`context:crm-*`, `device:*`) that
 * reaches every scope starting with it. A prefix must name its kind (`context:` or `device:`): `*`
 * alone would be a full API token by another name.
 */
export type MemoryScopeGrant = readonly string[];

/**
 * Checks one entry of a {@link MemoryScopeGrant}.
 * @returns the entry, unchanged.
 * @throws MobileClawError `VALIDATION_FAILED` when it is neither a valid scope without `*` (`parseMemoryScope`)
 *   nor `context:`/`device:` followed by at most 256 characters without control characters or `*`, and one final `*`.
 */
export function parseMemoryScopePattern(value: string): string {
  const prefix = value.endsWith('*') ? value.slice(0, -1) : undefined;
  // A `*` inside an entry would read as a wildcard it is not: refused, as a scope id with one cannot be granted alone.
  if (prefix === undefined && !value.includes('*')) return parseMemoryScope(value).scope;
  if (prefix === undefined || !/^(context|device):[^\u0000-\u001f\u007f*]*$/u.test(prefix) || value.length > MEMORY_SCOPE_MAX_CHARS + 1) {
    throw new MobileClawError(
      'VALIDATION_FAILED',
      `scope pattern must be context:<id> or device:<id>, or either with a prefix of the id and a final * (context:crm-*, device:*), got ${JSON.stringify(value.slice(0, 80))}`,
    );
  }
  return value;
}

/** True when `grant` reaches `scope`: an entry equals it, or an entry `<prefix>*` has `scope` start with `<prefix>`. */
export function memoryScopeGranted(grant: MemoryScopeGrant, scope: MemoryScope): boolean {
  return grant.some((entry) => (entry.endsWith('*') ? scope.startsWith(entry.slice(0, -1)) : entry === scope));
}
