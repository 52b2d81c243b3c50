import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ToolRegistrationError } from './tool-errors';
import type { ToolSpec } from './tool-types';

/** Tool names the gateway accepts: 1–64 of `A-Z a-z 0-9 _ -`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest description the gateway accepts, in characters. */
export const MAX_TOOL_DESCRIPTION_LENGTH = 1024;
/** Largest input schema the gateway accepts, serialised as JSON (bytes of UTF-8). */
export const MAX_TOOL_SCHEMA_BYTES = 16 * 1024;

/**
 * Compiles tools' input schemas (JSON Schema draft-07, ajv 8) and checks arguments against them.
 * Strict about the schema itself (an unknown keyword or an unresolvable `$ref` is a registration
 * error, not a surprise at the first call); `format` is an annotation only (no format validators are
 * bundled); arguments are never modified (no defaults, no coercion). Every error is reported, so the
 * agent can fix all of them in one retry.
 */
export class ToolSchemas {
  private readonly ajv = new Ajv({
    allErrors: true,
    strictSchema: true,
    strictTypes: false,
    strictTuples: false,
    validateFormats: false,
    // Each tool's schema stands alone: a `$id` in one does not clash with the same `$id` in another.
    addUsedSchema: false,
    logger: false,
  });

  /**
   * Checks a tool's spec against the gateway's rules and compiles its input schema. Answers the
   * validator and the schema as JSON (a copy: what is sent is what validates, whatever the app does
   * with its own object later).
   * @throws ToolRegistrationError `TOOL_SPEC_INVALID` naming the broken rule (ajv's message for a bad schema).
   */
  compile(spec: ToolSpec): { validate: ValidateFunction; inputSchema: ToolSpec['inputSchema'] } {
    const name: unknown = spec.name;
    if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
      throw invalid(`tool name ${JSON.stringify(name)} must be 1-64 characters of A-Z a-z 0-9 _ -`);
    }
    const description: unknown = spec.description;
    if (typeof description !== 'string' || description.length < 1 || description.length > MAX_TOOL_DESCRIPTION_LENGTH) {
      throw invalid(`tool ${name}: the description must be 1-${MAX_TOOL_DESCRIPTION_LENGTH} characters`);
    }
    if (spec.kind !== 'OBSERVATION' && spec.kind !== 'ACTION') {
      throw invalid(`tool ${name}: kind must be OBSERVATION or ACTION, not ${JSON.stringify(spec.kind)}`);
    }
    const schema: unknown = spec.inputSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
      throw invalid(`tool ${name}: inputSchema must be a JSON Schema object with "type": "object"`);
    }
    let serialised: string;
    try {
      serialised = JSON.stringify(schema);
    } catch (err) {
      throw invalid(`tool ${name}: inputSchema is not JSON: ${messageOf(err)}`);
    }
    const bytes = Buffer.byteLength(serialised, 'utf8');
    if (bytes > MAX_TOOL_SCHEMA_BYTES) {
      throw invalid(`tool ${name}: inputSchema is ${bytes} bytes as JSON, more than the ${MAX_TOOL_SCHEMA_BYTES} allowed`);
    }
    const inputSchema = JSON.parse(serialised) as ToolSpec['inputSchema'];
    try {
      return { validate: this.ajv.compile(inputSchema), inputSchema };
    } catch (err) {
      throw invalid(`tool ${name}: inputSchema is not a valid JSON Schema: ${messageOf(err)}`);
    }
  }
}

/**
 * Ajv's errors as one sentence for the agent, each with where it is in the arguments (a JSON
 * pointer under `arguments`), e.g. `arguments/orderId must be string; arguments must have required property 'customerId'`.
 */
export function describeArgumentErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'the arguments do not match the input schema';
  return errors
    .map((error) => {
      const extra = error.keyword === 'additionalProperties' ? ` (${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)})` : '';
      return `arguments${error.instancePath} ${error.message ?? `fail ${error.keyword}`}${extra}`;
    })
    .join('; ');
}

function invalid(message: string): ToolRegistrationError {
  return new ToolRegistrationError('TOOL_SPEC_INVALID', message);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
