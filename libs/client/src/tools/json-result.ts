/** The gateway's bound on one tool result, serialised as JSON (bytes of UTF-8). */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;

/**
 * Most levels of objects and arrays a tool result may nest (the result itself is level 1). The
 * gateway refuses a request body nesting deeper than 32 levels, and the result sits one level down
 * in `{toolCallId, outcome, result}`.
 */
export const MAX_TOOL_RESULT_DEPTH = 31;

/** Keys the gateway refuses anywhere in a request body: they address an object's prototype machinery. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Why `value` cannot travel to the gateway as a tool result, or undefined when it can: it must be
 * JSON as it is (null, booleans, finite numbers, strings, arrays, plain objects — nothing that
 * `JSON.stringify` would drop, change or choke on), at most {@link MAX_TOOL_RESULT_BYTES} serialised,
 * nested at most {@link MAX_TOOL_RESULT_DEPTH} levels and without `__proto__`, `constructor` or
 * `prototype` keys (the gateway's request rules, checked here so that the call is rejected with a
 * precise reason rather than its answer refused).
 */
export function jsonResultRefusal(value: unknown): string | undefined {
  const problem = notJsonAt(value, '', new Set(), 1);
  if (problem) return `the result is not JSON: ${problem}`;
  const breach = gatewayRuleBreach(value);
  if (breach) return breach;
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_TOOL_RESULT_BYTES) return `the result is ${bytes} bytes as JSON, more than the ${MAX_TOOL_RESULT_BYTES} allowed`;
  return undefined;
}

/** The first place (a JSON pointer, '' = the value itself) where `value` is not JSON, described. */
function notJsonAt(value: unknown, pointer: string, ancestors: Set<object>, level: number): string | undefined {
  const at = pointer === '' ? 'the value' : pointer;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at} is ${value}`;
  if (typeof value !== 'object') return `${at} is ${value === undefined ? 'undefined' : `a ${typeof value}`}`;
  if (ancestors.has(value)) return `${at} refers back to itself`;
  // Deeper than the gateway takes: refused by the nesting rule, and the walk stays shallow.
  if (level > MAX_TOOL_RESULT_DEPTH) return undefined;
  const isArray = Array.isArray(value);
  if (!isArray) {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return `${at} is a ${prototype?.constructor?.name ?? 'non-plain'} object`;
  }
  ancestors.add(value);
  try {
    const entries: [string, unknown][] = isArray ? Array.from(value, (item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
    for (const [key, item] of entries) {
      const problem = notJsonAt(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, ancestors, level + 1);
      if (problem) return problem;
    }
  } finally {
    ancestors.delete(value);
  }
  return undefined;
}

/**
 * The first place where `value` breaks the gateway's shape rules (nesting, prototype keys), described;
 * iterative like the gateway's own check (a cycle was already refused by {@link notJsonAt}).
 */
function gatewayRuleBreach(value: unknown): string | undefined {
  const stack: { value: unknown; pointer: string; level: number }[] = [{ value, pointer: '', level: 1 }];
  while (stack.length > 0) {
    const { value: item, pointer, level } = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (level > MAX_TOOL_RESULT_DEPTH) return `the result nests deeper than the ${MAX_TOOL_RESULT_DEPTH} levels the gateway takes (at ${pointer})`;
    for (const key of Object.keys(item)) {
      const place = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (FORBIDDEN_KEYS.has(key)) return `the result has a ${key} key, which the gateway refuses (at ${place})`;
      stack.push({ value: (item as Record<string, unknown>)[key], pointer: place, level: level + 1 });
    }
  }
  return undefined;
}
