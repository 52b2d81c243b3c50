import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { ToolInputSchema } from '@mobileclaw/domain';

/** The answer of {@link ToolArgumentsValidator.check}: `undefined` when the arguments are valid, else why not. */
export type ToolArgumentsProblem = string | undefined;

/**
 * Checks a call's arguments against its tool's input schema (JSON Schema 2020-12 through ajv 8; a
 * schema's `$schema` is ignored, so draft-07 schemas from MCP servers validate alike). Lenient about
 * foreign schemas (unknown keywords and formats are annotations), strict about arguments; arguments
 * are never changed (no defaults, no coercion). Every error is reported, so a model can fix them all
 * in one retry. Compiled validators are kept per schema text.
 */
export class ToolArgumentsValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, addUsedSchema: false, logger: false });
  private readonly compiled = new Map<string, ValidateFunction | string>();

  /** Why `args` do not match `schema` (ajv's messages, e.g. `arguments must have required property 'city'`), or undefined. */
  check(schema: ToolInputSchema, args: unknown): ToolArgumentsProblem {
    const validate = this.validator(schema);
    if (typeof validate === 'string') return validate;
    if (validate(args)) return undefined;
    return describeArgumentErrors(validate.errors);
  }

  private validator(schema: ToolInputSchema): ValidateFunction | string {
    const { $schema: _ignored, ...rest } = schema;
    const text = JSON.stringify(rest);
    let validate = this.compiled.get(text);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(JSON.parse(text) as object);
      } catch (err) {
        validate = `the tool's input schema cannot be used: ${err instanceof Error ? err.message : String(err)}`;
      }
      // Bounded: schemas change rarely, but a flapping remote server must not grow this without end.
      if (this.compiled.size >= 1000) this.compiled.clear();
      this.compiled.set(text, validate);
    }
    return validate;
  }
}

/** Ajv's errors as one sentence, each placed under `arguments`, e.g. `arguments/city must be string`. */
function describeArgumentErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'the arguments do not match the input schema';
  return errors
    .map((error) => {
      const extra = error.keyword === 'additionalProperties' ? ` (${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)})` : '';
      return `arguments${error.instancePath} ${error.message ?? 'is invalid'}${extra}`;
    })
    .join('; ');
}
