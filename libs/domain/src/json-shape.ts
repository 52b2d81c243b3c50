import type { FieldError } from './errors';

/** Deepest nesting a JSON value from a caller may have (objects and arrays), in levels. */
export const MAX_JSON_DEPTH = 32;

/** Keys that address an object's prototype machinery rather than data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Longest field path quoted in an error, in characters: a path is built from the caller's keys. */
const MAX_FIELD_PATH_CHARS = 200;

/**
 * Checks a parsed JSON value from a caller before anything recursive reads it (serialising,
 * validating, copying, a planner prompt): at most {@link MAX_JSON_DEPTH} levels, and no `__proto__`,
 * `constructor` or `prototype` keys. Iterative, so no input can overflow the stack here.
 * @param field the value's own field path (e.g. `result`), prefixed to the paths of what is inside.
 * @returns the first problem (its field path cut to 200 characters with `…`), or undefined.
 */
export function jsonShapeError(value: unknown, field = ''): FieldError | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: field, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; path: string; depth: number };
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= MAX_JSON_DEPTH) return { field: cutPath(next.path), message: `nesting deeper than ${MAX_JSON_DEPTH} levels` };
    for (const key of Object.keys(next.value)) {
      const path = next.path ? `${next.path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return { field: cutPath(path), message: `property ${key} is not allowed` };
      stack.push({ value: (next.value as Record<string, unknown>)[key], path: cutPath(path), depth: next.depth + 1 });
    }
  }
  return undefined;
}

function cutPath(path: string): string {
  return path.length <= MAX_FIELD_PATH_CHARS ? path : `${path.slice(0, MAX_FIELD_PATH_CHARS - 1)}…`;
}
