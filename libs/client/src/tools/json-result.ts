/** The gateway's bound on one tool result, serialised as JSON (bytes of UTF-8). */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;

/**
 * Why `value` cannot travel to the gateway as a tool result, or undefined when it can: it must be
 * JSON as it is (null, booleans, finite numbers, strings, arrays, plain objects — nothing that
 * `JSON.stringify` would drop, change or choke on) and at most {@link MAX_TOOL_RESULT_BYTES} serialised.
 */
export function jsonResultRefusal(value: unknown): string | undefined {
  const problem = notJsonAt(value, '', new Set());
  if (problem) return `the result is not JSON: ${problem}`;
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_TOOL_RESULT_BYTES) return `the result is ${bytes} bytes as JSON, more than the ${MAX_TOOL_RESULT_BYTES} allowed`;
  return undefined;
}

/** The first place (a JSON pointer, '' = the value itself) where `value` is not JSON, described. */
function notJsonAt(value: unknown, pointer: string, ancestors: Set<object>): string | undefined {
  const at = pointer === '' ? 'the value' : pointer;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} is ${value}`;
  if (typeof value !== 'object') return `${at} is ${value === undefined ? 'undefined' : `a ${typeof value}`}`;
  if (ancestors.has(value)) return `${at} refers back to itself`;
  const isArray = Array.isArray(value);
  if (!isArray) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return `${at} is a ${prototype?.constructor?.name ?? 'non-plain'} object`;
  }
  ancestors.add(value);
  try {
    const entries: [string, unknown][] = isArray ? Array.from(value, (item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
    for (const [key, item] of entries) {
      const problem = notJsonAt(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, ancestors);
      if (problem) return problem;
    }
  } finally {
    ancestors.delete(value);
  }
  return undefined;
}
