import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, TOOL_EXECUTION_MODES, TOOL_KINDS, TOOL_SOURCE_KINDS } from '@mobileclaw/domain';

/** OpenAPI schema of a tool source (`ToolSourceRef`). */
@ApiSchema({ name: 'ToolSourceRef', description: 'Which source a tool comes from: its kind and id, written `kind:id`.' })
export class ToolSourceRefSchema {
  @ApiProperty({ enum: [...TOOL_SOURCE_KINDS], example: 'skills' })
  kind!: string;

  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{1,32}$', example: 'workspace' })
  id!: string;
}

/** OpenAPI schema of a `ToolRef`: one source's tool. */
@ApiSchema({ name: 'ToolRef', description: 'One source\'s tool, by its name in that source.' })
export class ToolRefSchema {
  @ApiProperty({ type: () => ToolSourceRefSchema })
  source!: ToolSourceRefSchema;

  @ApiProperty({ example: 'weather' })
  name!: string;
}

/** OpenAPI schema of a tool's eligibility. */
@ApiSchema({ name: 'ToolEligibility' })
export class ToolEligibilitySchema {
  @ApiProperty({ description: 'True exactly when `missing` is empty.' })
  eligible!: boolean;

  @ApiProperty({ type: [String], description: 'What the host lacks, as `what:detail` (`env:WEATHER_API_KEY`, `bin:ffmpeg`, `os:darwin`).', example: ['env:WEATHER_API_KEY'] })
  missing!: string[];
}

/** OpenAPI schema of one entry of `GET /api/tools` (mirrors `ToolEntry`; documentation only). */
@ApiSchema({ name: 'ToolEntry', description: 'One tool of the registry: its source\'s descriptor and what the merge decided.' })
export class ToolEntrySchema {
  @ApiProperty({ description: 'What callers call it: `name`, or `<sourceId>_<name>` when another tool with a different original name took `name`.', example: 'weather' })
  exposedName!: string;

  @ApiProperty({ description: 'Its name in its source (valid tool name, sanitised from the original).', example: 'weather' })
  name!: string;

  @ApiPropertyOptional({ description: 'The source\'s own name, when sanitising changed it.', example: 'weather.get' })
  originalName?: string;

  @ApiProperty({ example: 'Current weather for a city.' })
  description!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of its arguments (`type: object`).' })
  inputSchema!: Record<string, unknown>;

  @ApiProperty({ enum: [...TOOL_KINDS], description: '`ACTION` tools need `approved: true` (or a policy exempting them).' })
  kind!: string;

  @ApiProperty({ enum: [...TOOL_EXECUTION_MODES] })
  mode!: string;

  @ApiProperty({ type: () => ToolSourceRefSchema })
  source!: ToolSourceRefSchema;

  @ApiPropertyOptional({ description: 'Where in its source it is defined, e.g. `workspace:travel/booking/SKILL.md`.' })
  location?: string;

  @ApiProperty({ type: () => ToolEligibilitySchema })
  eligibility!: ToolEligibilitySchema;

  @ApiProperty({ description: 'False while its source cannot be reached: calls answer 503 `TOOL_UNAVAILABLE`.' })
  available!: boolean;

  @ApiProperty({ description: 'False when shadowed: another tool of the same name wins (`shadowedBy`); calling the name reaches that one.' })
  visible!: boolean;

  @ApiPropertyOptional({ type: () => ToolRefSchema, description: 'The tool that wins this one\'s name.' })
  shadowedBy?: ToolRefSchema;

  @ApiProperty({ type: () => [ToolRefSchema], description: 'The tools this one shadows.' })
  shadows!: ToolRefSchema[];

  @ApiPropertyOptional({ type: () => ToolRefSchema, description: 'The tool holding the plain `name`, when this one got a source prefix.' })
  nameTakenBy?: ToolRefSchema;
}

/** OpenAPI schema of a source's issue. */
@ApiSchema({ name: 'ToolSourceIssue', description: 'What a source could not turn into a tool (e.g. an invalid SKILL.md), reported instead of hidden.' })
export class ToolSourceIssueSchema {
  @ApiProperty({ type: () => ToolSourceRefSchema })
  source!: ToolSourceRefSchema;

  @ApiProperty({ description: 'The source\'s kind of issue; for skills folders `root_missing`, `unreadable`, `symlink_escapes_root`, `too_large`, `invalid`, `shadowed`, `scan_truncated`.', example: 'invalid' })
  kind!: string;

  @ApiProperty({ example: 'workspace:broken/SKILL.md' })
  location!: string;

  @ApiProperty({ example: 'front matter: "description" is required' })
  message!: string;
}

/** OpenAPI schema of `GET /api/tools`. */
@ApiSchema({ name: 'ToolList' })
export class ToolListSchema {
  @ApiProperty({ type: () => [ToolEntrySchema], description: 'Every tool of every source, shadowed ones included, sorted by `exposedName`.' })
  tools!: ToolEntrySchema[];

  @ApiProperty({ type: () => [ToolSourceIssueSchema] })
  issues!: ToolSourceIssueSchema[];
}

/** OpenAPI schema of a tool call's failure. */
@ApiSchema({ name: 'ToolError' })
export class ToolErrorSchema {
  @ApiProperty({ enum: [...ERROR_CODES], example: 'TIMEOUT' })
  code!: string;

  @ApiProperty({ example: 'the server did not answer within 30000 ms' })
  message!: string;

  @ApiProperty({ description: 'Whether the same call may succeed later.' })
  retryable!: boolean;
}

/** OpenAPI schema of `POST /api/tools/{name}/invoke`'s answer. */
@ApiSchema({ name: 'ToolCallAnswer', description: 'The tool ran: its result, or the failure it answered.' })
export class ToolCallAnswerSchema {
  @ApiProperty()
  ok!: boolean;

  @ApiPropertyOptional({ description: 'With `ok`: the result as JSON (the source\'s shape; a skill answers `{name, body, truncated, bodyBytes, missing}`).' })
  result?: unknown;

  @ApiPropertyOptional({ description: 'With `ok`: the result as text.' })
  text?: string;

  @ApiPropertyOptional({ type: () => ToolErrorSchema, description: 'Without `ok`.' })
  error?: ToolErrorSchema;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How long the call took, in ms.' })
  durationMs!: number;

  @ApiProperty({ description: 'True when this is the recorded answer of an earlier call with the same `toolCallId`.' })
  replayed!: boolean;
}

/** OpenAPI schema of `POST /tools/invoke`'s body (OpenClaw gateways' shape). */
@ApiSchema({ name: 'OpenClawToolInvocation' })
export class OpenClawToolInvocationSchema {
  @ApiProperty({ description: 'The tool\'s exposed name.', example: 'weather' })
  tool!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Its arguments; default `{}`.' })
  args?: Record<string, unknown>;
}

/** OpenAPI schema of `POST /tools/invoke`'s answers. */
@ApiSchema({ name: 'OpenClawToolAnswer', description: '`{ok: true, result}` or `{ok: false, error: {code, type, message}}`.' })
export class OpenClawToolAnswerSchema {
  @ApiProperty()
  ok!: boolean;

  @ApiPropertyOptional({ description: 'With `ok`: the result as JSON.' })
  result?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    properties: { code: { type: 'string', enum: [...ERROR_CODES] }, type: { type: 'string', enum: ['not_found', 'invalid_request', 'tool_error'] }, message: { type: 'string' } },
    description: 'Without `ok`.',
  })
  error?: { code: string; type: string; message: string };
}
