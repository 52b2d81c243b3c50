import { Type } from 'class-transformer';
import { Allow, IsArray, IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { MAX_CALLER_TOOLS, MAX_TOOL_REJECTION_LENGTH, MAX_TOOL_RESULT_BYTES, TASK_STATUSES, type CallerToolSpec, type TaskStatus } from '@mobileclaw/domain';
import { CallerToolSpecSchema } from '../openapi/task.schemas';
import { DEFAULT_TASK_CASE_OPTIONS } from '@mobileclaw/case-tasks';

/** `POST /api/tasks` body. */
@ApiSchema({ name: 'CreateTask' })
export class CreateTaskDto {
  @ApiProperty({ minLength: 1, maxLength: 128, description: 'The phone to run it on.', example: 'sim-1' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  deviceId!: string;

  /**
   * The goal in natural language, e.g. "Turn on Wi-Fi" or "打开设置". Its content rules (length in
   * characters, well-formed text) are the case layer's alone, so that one limit is ever reported;
   * the document shows the default `maxGoalLength`.
   */
  @ApiProperty({ minLength: 1, maxLength: DEFAULT_TASK_CASE_OPTIONS.maxGoalLength, description: 'The goal in natural language, in characters (Unicode code points).', example: 'Turn on Wi-Fi' })
  @IsString()
  @IsNotEmpty()
  goal!: string;

  /** Step budget, 1–200 (default 25). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, description: 'Step budget (default `MOBILECLAW_TASK_MAX_STEPS`, 25).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  maxSteps?: number;

  /** `queue` (default): wait behind the phone's running task. `reject`: answer 409 DEVICE_BUSY instead. */
  @ApiPropertyOptional({ enum: ['queue', 'reject'], default: 'queue', description: '`queue`: wait behind the phone\'s running task. `reject`: answer 409 DEVICE_BUSY instead.' })
  @IsOptional()
  @IsIn(['queue', 'reject'])
  onBusy?: 'queue' | 'reject';

  /** The caller's conversation id (A2A `contextId`); the case layer checks its content (1–256 printable characters). */
  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: 'Your conversation id (A2A `contextId`): 1–256 printable characters; list its tasks with `GET /api/tasks?contextId=`.', example: 'order-4711' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  contextId?: string;

  /**
   * The caller's tools the planner may call; present (even `[]`) when the caller answers tool calls.
   * Each spec's rules are the domain's (`callerToolsErrors`), checked by the case layer with a field
   * error per bad member (e.g. `tools.0.name`).
   */
  @ApiPropertyOptional({
    type: () => [CallerToolSpecSchema],
    maxItems: MAX_CALLER_TOOLS,
    description:
      'Your tools the planner may call (send `[]` when you answer tool calls but expose none). A call pauses the task: `input_required` with `pendingToolCall` ' +
      '(event `task.input_required` `{toolCall}`); answer it with `POST /api/tasks/{taskId}/tool-results`. Names are unique, `[A-Za-z0-9_-]{1,64}`, none of the planner\'s own ' +
      '(tap, click, long_press, swipe, type_text, input, open_app, open, back, home, done, fail).',
  })
  @IsOptional()
  @IsArray()
  tools?: CallerToolSpec[];
}

/** `POST /api/tasks/:id/tool-results` body. */
@ApiSchema({ name: 'ToolResult', description: 'The answer to the tool call a task waits on (`pendingToolCall`).' })
export class ToolResultDto {
  @ApiProperty({ minLength: 1, maxLength: 256, description: 'The call\'s id, from `pendingToolCall.toolCallId` (`<taskId>:<stepIndex>`).', example: '3fe78d53-…:0' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  toolCallId!: string;

  @ApiProperty({ enum: ['ok', 'rejected'], description: '`ok`: the tool ran, here is its `result`. `rejected`: it did not run, here is the `reason`.' })
  @IsIn(['ok', 'rejected'])
  outcome!: 'ok' | 'rejected';

  @ApiPropertyOptional({ description: `The tool's result, any JSON value of at most ${MAX_TOOL_RESULT_BYTES} bytes as JSON (absent reads as null); with \`ok\`.`, example: { status: 'shipped' } })
  @Allow()
  result?: unknown;

  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_TOOL_REJECTION_LENGTH, description: 'Why the tool did not run; required with `rejected`.', example: 'the user declined' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TOOL_REJECTION_LENGTH)
  reason?: string;
}

/** `POST /api/tasks/:id/approval` body. */
@ApiSchema({ name: 'Approval' })
export class ApprovalDto {
  @ApiProperty({ description: 'true runs the pending action; false cancels the task with APPROVAL_DENIED.' })
  @IsBoolean()
  approve!: boolean;
}

/** `GET /api/tasks` query. */
export class ListTasksQueryDto {
  @ApiPropertyOptional({ maxLength: 128, description: 'Only this phone\'s tasks.' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  deviceId?: string;

  @ApiPropertyOptional({ enum: [...TASK_STATUSES], enumName: 'TaskStatus', description: 'Only tasks in this status.' })
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  /** Page size 1–200, default 20. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 20, description: 'Page size.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ maxLength: 512, description: 'The previous page\'s `nextCursor`.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({ maxLength: 256, description: 'Only the tasks of this conversation (`contextId`).' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  contextId?: string;
}
