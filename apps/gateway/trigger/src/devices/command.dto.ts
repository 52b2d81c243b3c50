import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { COMMAND_NAMES, type CommandName } from '@mobileclaw/domain';

/** Largest coordinate accepted, in px (no phone screen is larger). */
const MAX_COORDINATE = 100_000;
/** Longest gesture, in ms. */
const MAX_GESTURE_MS = 60_000;

/** Fields every command body may carry beside its arguments (`POST /api/devices/:deviceId/commands`). */
export class CommandBaseDto {
  @IsIn(COMMAND_NAMES as string[], { message: `command must be one of: ${COMMAND_NAMES.join(', ')}` })
  command!: CommandName;

  /** Deadline in ms, queue time included (default 30 000). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(600_000)
  timeoutMs?: number;

  /** The frame the command was planned on; the phone answers STALE_FRAME if the screen changed. */
  @IsOptional()
  @IsString()
  @Length(1, 256)
  frameId?: string;
}

export class OpenCommandDto extends CommandBaseDto {
  /** Android package name, e.g. com.android.settings. */
  @IsString()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, { message: 'app must be an Android package name such as com.android.settings' })
  @MaxLength(255)
  app!: string;
}

export class PointCommandDto extends CommandBaseDto {
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  x!: number;

  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  y!: number;
}

export class LongPressCommandDto extends PointCommandDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_GESTURE_MS)
  durationMs?: number;
}

export class SwipeCommandDto extends CommandBaseDto {
  @IsInt() @Min(0) @Max(MAX_COORDINATE) x1!: number;
  @IsInt() @Min(0) @Max(MAX_COORDINATE) y1!: number;
  @IsInt() @Min(0) @Max(MAX_COORDINATE) x2!: number;
  @IsInt() @Min(0) @Max(MAX_COORDINATE) y2!: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_GESTURE_MS)
  durationMs?: number;
}

export class InputCommandDto extends CommandBaseDto {
  /** Any Unicode text, at most 100 000 UTF-16 code units. */
  @IsString()
  @MaxLength(100_000)
  text!: string;

  @IsOptional()
  @IsBoolean()
  clear?: boolean;
}

/** Screenshot options, shared by the command body and `GET …/screenshot` query. */
export class ScreenshotOptionsDto {
  @IsOptional()
  @IsIn(['png', 'jpeg'])
  format?: 'png' | 'jpeg';

  /** JPEG quality 1–100. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  quality?: number;

  /** Downscale to at most this width, in px. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(16)
  @Max(MAX_COORDINATE)
  maxWidth?: number;
}

export class ScreenshotCommandDto extends CommandBaseDto {
  @IsOptional() @IsIn(['png', 'jpeg']) format?: 'png' | 'jpeg';
  @IsOptional() @IsInt() @Min(1) @Max(100) quality?: number;
  @IsOptional() @IsInt() @Min(16) @Max(MAX_COORDINATE) maxWidth?: number;
}

/** The body class that validates each command. */
export const COMMAND_DTOS: Record<CommandName, new () => CommandBaseDto> = {
  open: OpenCommandDto,
  click: PointCommandDto,
  long_press: LongPressCommandDto,
  swipe: SwipeCommandDto,
  input: InputCommandDto,
  back: CommandBaseDto,
  home: CommandBaseDto,
  screenshot: ScreenshotCommandDto,
  ui_tree: CommandBaseDto,
};
