/**
 * Validation of an action's arguments (docs/protocol.md §4: they sit at the top level of the frame,
 * unvalidated by decoding). Each reader returns the typed value or throws `PhoneError`
 * `INVALID_ARGUMENT` naming the argument and what it got.
 */
import { PhoneError } from './phone-error';

/** An action's arguments by name. */
export type ActionArgs = Readonly<Record<string, unknown>>;

/** A required finite number. */
export function numberArg(args: ActionArgs, key: string): number {
  const value = args[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new PhoneError('INVALID_ARGUMENT', `"${key}" must be a finite number, got ${describeValue(value)}`);
  return value;
}

/** An optional number within [min, max]; undefined when absent. */
export function optionalNumberArg(args: ActionArgs, key: string, min: number, max = Number.POSITIVE_INFINITY): number | undefined {
  if (args[key] === undefined) return undefined;
  const value = numberArg(args, key);
  if (value < min || value > max) throw new PhoneError('INVALID_ARGUMENT', `"${key}" must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A required string (non-empty unless `allowEmpty`). */
export function stringArg(args: ActionArgs, key: string, allowEmpty: boolean): string {
  const value = args[key];
  if (typeof value !== 'string' || (!allowEmpty && value === '')) throw new PhoneError('INVALID_ARGUMENT', `"${key}" must be a ${allowEmpty ? '' : 'non-empty '}string, got ${describeValue(value)}`);
  return value;
}

/** An optional boolean; `false` when absent. */
export function optionalBooleanArg(args: ActionArgs, key: string): boolean {
  const value = args[key];
  if (value !== undefined && typeof value !== 'boolean') throw new PhoneError('INVALID_ARGUMENT', `"${key}" must be a boolean, got ${describeValue(value)}`);
  return value === true;
}

/**
 * A value as error messages quote it: a string, number, boolean or null as JSON cut to 40
 * characters; `an array` / `an object` (never serialised: the value comes from the wire and may be
 * nested deeper than `JSON.stringify` can recurse); `nothing` when undefined.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return JSON.stringify(value)?.slice(0, 40) ?? typeof value;
}
