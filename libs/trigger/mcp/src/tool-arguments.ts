import * as z from 'zod/v4';
import {
  fromJsonSchema,
  type CallToolResult,
  type InputRequiredResult,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type McpServer,
  type ServerContext,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { MobileClawError, type FieldError } from '@mobileclaw/domain';
import { echoOf } from './mcp-request-guard';
import { toolError } from './tool-results';

/** Field errors a VALIDATION_FAILED result lists at most (the rest are counted in the message). */
const MAX_FIELD_ERRORS = 10;
/** Longest argument name quoted back (an unknown key can be megabytes long), in characters. */
const MAX_FIELD_CHARS = 64;

/** Passes every value: the arguments are checked by {@link registerCheckedTool}'s handler wrapper (or the tool registry) instead. */
export const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A tool's description and its arguments as a strict zod object (an unknown argument is an error). */
export interface CheckedToolConfig<S extends z.ZodObject> {
  title: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
}

/**
 * Registers a tool whose arguments `config.inputSchema` checks, so that a bad call is answered like
 * every other failure: a tool result `isError` with `structuredContent.error` `{code:
 * 'VALIDATION_FAILED', message, retryable: false, fieldErrors: [{field, message}]}`. The SDK's own
 * check answers text only, so the SDK gets the schema's exact JSON Schema (what `tools/list`
 * advertises, constraints included) with a validator that passes everything, and the wrapper runs
 * the zod schema before `handler`.
 */
export function registerCheckedTool<S extends z.ZodObject>(
  server: McpServer,
  name: string,
  config: CheckedToolConfig<S>,
  handler: (args: z.output<S>, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
): void {
  const advertised = z.toJSONSchema(config.inputSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  server.registerTool(name, { ...config, inputSchema: fromJsonSchema<unknown>(advertised, ACCEPT_ALL) }, async (args: unknown, ctx: ServerContext) => {
    const parsed = await config.inputSchema.safeParseAsync(args ?? {});
    if (!parsed.success) return toolError(argumentsError(name, parsed.error.issues, Object.keys(config.inputSchema.shape)));
    return handler(parsed.data, ctx);
  });
}

/**
 * The VALIDATION_FAILED error of a tool call's schema issues: one field error per issue (an unknown
 * argument names itself and what the tool takes), the message listing them. Echoed names are cut to
 * 64 characters; at most 10 field errors.
 * @param known the tool's argument names.
 */
export function argumentsError(tool: string, issues: readonly z.core.$ZodIssue[], known: string[]): MobileClawError {
  const fieldErrors: FieldError[] = issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const takes = known.length === 0 ? `${tool} takes no arguments` : `${tool} takes ${known.join(', ')}`;
      return issue.keys.map((key) => ({ field: echoOf(key, MAX_FIELD_CHARS), message: `unknown argument; ${takes}` }));
    }
    const field = issue.path.length === 0 ? '(arguments)' : echoOf(issue.path.map(String).join('.'), MAX_FIELD_CHARS);
    return [{ field, message: issue.message }];
  });
  const shown = fieldErrors.slice(0, MAX_FIELD_ERRORS);
  const more = fieldErrors.length > shown.length ? `; and ${fieldErrors.length - shown.length} more` : '';
  return new MobileClawError('VALIDATION_FAILED', `invalid arguments for ${tool}: ${shown.map((f) => `${f.field}: ${f.message}`).join('; ')}${more}`, {
    fieldErrors: shown,
  });
}
