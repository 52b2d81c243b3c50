import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TASK_STATUSES, type TaskStatus } from '@mobileclaw/domain';
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
