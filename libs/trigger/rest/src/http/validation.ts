import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { MobileClawError, jsonShapeError, type FieldError } from '@mobileclaw/domain';
import { ACCESS_TOKEN_PARAM } from './api-token';

/**
 * Flattens class-validator errors into one `{field, message}` per field (dotted paths). A field that is
 * absent is `<name> is required` (an optional field is not checked when absent, so any rule it fails
 * makes it required). Otherwise the message is the field's most basic failed rule: class-validator
 * runs decorators bottom-up, so the last failed constraint is the topmost decorator — the type check
 * ("must be an integer number") in our DTOs, rather than a range rule that a wrong type also fails.
 */
export function toFieldErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    // JSON and query strings cannot carry `undefined`: a field whose value is undefined was not sent.
    const message = error.value === undefined ? `${error.property} is required` : messages[messages.length - 1];
    const own = messages.length > 0 ? [{ field, message }] : [];
    return [...own, ...toFieldErrors(error.children ?? [], field)];
  });
}

/**
 * Validates a plain object (a JSON body or a query) against a class-validator DTO. Unknown
 * properties are errors, so that a misspelt argument never goes unnoticed.
 * @throws MobileClawError `VALIDATION_FAILED` with every field error listed.
 */
export function validateDto<T extends object>(dto: new () => T, input: unknown): T {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new MobileClawError('VALIDATION_FAILED', 'request body must be a JSON object', { fieldErrors: [{ field: '', message: 'must be a JSON object' }] });
  }
  const shapeError = checkJsonShape(input);
  if (shapeError) throw new MobileClawError('VALIDATION_FAILED', `invalid request: ${shapeError.field}: ${shapeError.message}`, { fieldErrors: [shapeError] });
  const instance = plainToInstance(dto, input);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    const fieldErrors = toFieldErrors(errors);
    throw new MobileClawError('VALIDATION_FAILED', `invalid request: ${fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors });
  }
  return instance;
}

/**
 * Validates a GET route's query against its DTO ({@link validateDto}), leaving out `access_token`:
 * that parameter is the API token's (read by the token check before any route runs, RFC 6750
 * §2.3), not the route's, so every route that may be called with it accepts and ignores it.
 * @throws MobileClawError `VALIDATION_FAILED` with every field error listed.
 */
export function validateQuery<T extends object>(dto: new () => T, query: unknown): T {
  if (query === null || typeof query !== 'object' || !(ACCESS_TOKEN_PARAM in query)) return validateDto(dto, query);
  const routeQuery: Record<string, unknown> = { ...query };
  delete routeQuery[ACCESS_TOKEN_PARAM];
  return validateDto(dto, routeQuery);
}

/**
 * Checks a parsed request body before class-transformer (which recurses and would overflow the stack
 * on deep input): the domain's rule for any JSON from a caller ({@link jsonShapeError}: at most
 * 32 levels, no `__proto__`, `constructor` or `prototype` keys). Returns the first
 * problem, or undefined.
 */
export function checkJsonShape(input: unknown): FieldError | undefined {
  return jsonShapeError(input);
}
