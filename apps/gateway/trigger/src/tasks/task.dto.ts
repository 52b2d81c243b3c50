import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { TASK_STATUSES, type TaskStatus } from '@mobileclaw/domain';

/** `POST /api/tasks` body. */
export class CreateTaskDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  deviceId!: string;

  /** The goal in natural language, e.g. "Turn on Wi-Fi" or "打开设置"; its content rules (≤ 2000 characters, …) are the case layer's. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(16_384)
  goal!: string;

  /** Step budget, 1–200 (default 25). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  maxSteps?: number;

  /** `queue` (default): wait behind the phone's running task. `reject`: answer 409 DEVICE_BUSY instead. */
  @IsOptional()
  @IsIn(['queue', 'reject'])
  onBusy?: 'queue' | 'reject';
}

/** `POST /api/tasks/:id/approval` body. */
export class ApprovalDto {
  @IsBoolean()
  approve!: boolean;
}

/** `GET /api/tasks` query. */
export class ListTasksQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(128)
  deviceId?: string;

  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  /** Page size 1–200, default 20. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}
