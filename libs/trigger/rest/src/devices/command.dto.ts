import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ANDROID_PACKAGE_PATTERN, COMMAND_NAMES, MAX_COMMAND_COORDINATE_PX, MAX_GESTURE_DURATION_MS, MAX_INPUT_TEXT_LENGTH, type CommandName } from '@mobileclaw/domain';

/** Largest coordinate accepted, in px: the bound of the commands' schemas (`COMMAND_SCHEMAS`). */
const MAX_COORDINATE = MAX_COMMAND_COORDINATE_PX;
/** Longest gesture, in ms: the bound of the commands' schemas. */
const MAX_GESTURE_MS = MAX_GESTURE_DURATION_MS;

/** OpenAPI options of a coordinate property, in device px of the current rotation. */
const coordinate = (description: string) => ({ type: 'integer', minimum: 0, maximum: MAX_COORDINATE, description: `${description}, in device px of the current rotation.` }) as const;
/** OpenAPI options of an optional gesture duration, in ms. */
const gestureDuration = (description: string) => ({ type: 'integer', minimum: 1, maximum: MAX_GESTURE_MS, description: `${description}, in ms.` }) as const;

/**
 * Class decorator of one command body: names its OpenAPI schema and narrows the documented `command`
 * to `commands`, so that the body's `oneOf` has one schema per command value (the discriminator).
 * Documentation only: `command` is validated by {@link CommandBaseDto}'s rule.
 */
function CommandSchema(name: string, description: string, ...commands: CommandName[]): ClassDecorator {
  return (target) => {
    ApiSchema({ name, description })(target);
    ApiProperty({ enum: commands, description: commands.length === 1 ? `Always \`${commands[0]}\`.` : 'The command.' })(target.prototype, 'command');
  };
}

/** Fields every command body may carry beside its arguments (`POST /api/devices/:deviceId/commands`). */
@ApiSchema({ name: 'CommandBase' })
export class CommandBaseDto {
  @ApiProperty({ enum: COMMAND_NAMES as CommandName[], description: 'The command; selects which arguments are allowed.' })
  @IsIn(COMMAND_NAMES as string[], { message: `command must be one of: ${COMMAND_NAMES.join(', ')}` })
  command!: CommandName;

  /** Deadline in ms, queue time included (default 30 000). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 600_000, description: 'Deadline in ms, queue time included (default `MOBILECLAW_COMMAND_TIMEOUT_MS`, 30 000).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(600_000)
  timeoutMs?: number;

  /** The frame the command was planned on; the phone answers STALE_FRAME if the screen changed. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: 'The frame the command was planned on (from `screenshot`/`ui_tree`); 409 STALE_FRAME if the screen size or rotation changed since.' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  frameId?: string;
}

/** `back`, `home` and `ui_tree`: no arguments. */
@CommandSchema('NoArgumentCommand', '`back`, `home` or `ui_tree`: no arguments.', 'back', 'home', 'ui_tree')
export class NoArgumentCommandDto extends CommandBaseDto {}

@CommandSchema('OpenCommand', 'Opens an app by its package name.', 'open')
export class OpenCommandDto extends CommandBaseDto {
  /** Android package name, e.g. com.android.settings. */
  // Two or more dot-separated segments, as Android requires (and as the MCP `open_app` tool checks): a phone would refuse anything else.
  @ApiProperty({ maxLength: 255, pattern: ANDROID_PACKAGE_PATTERN, description: 'Android package name.', example: 'com.android.settings' })
  @IsString()
  @Matches(new RegExp(ANDROID_PACKAGE_PATTERN), { message: 'app must be an Android package name such as com.android.settings' })
  @MaxLength(255)
  app!: string;
}

@CommandSchema('ClickCommand', 'Taps a point.', 'click')
export class PointCommandDto extends CommandBaseDto {
  @ApiProperty(coordinate('Horizontal position'))
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  x!: number;

  @ApiProperty(coordinate('Vertical position'))
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  y!: number;
}

@CommandSchema('LongPressCommand', 'Presses a point and holds.', 'long_press')
export class LongPressCommandDto extends PointCommandDto {
  @ApiPropertyOptional(gestureDuration('How long to hold'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_GESTURE_MS)
  durationMs?: number;
}

@CommandSchema('SwipeCommand', 'Swipes from (x1, y1) to (x2, y2).', 'swipe')
export class SwipeCommandDto extends CommandBaseDto {
  @ApiProperty(coordinate('Start, horizontal')) @IsInt() @Min(0) @Max(MAX_COORDINATE) x1!: number;
  @ApiProperty(coordinate('Start, vertical')) @IsInt() @Min(0) @Max(MAX_COORDINATE) y1!: number;
  @ApiProperty(coordinate('End, horizontal')) @IsInt() @Min(0) @Max(MAX_COORDINATE) x2!: number;
  @ApiProperty(coordinate('End, vertical')) @IsInt() @Min(0) @Max(MAX_COORDINATE) y2!: number;

  @ApiPropertyOptional(gestureDuration('Duration of the swipe'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_GESTURE_MS)
  durationMs?: number;
}

@CommandSchema('InputCommand', 'Types text into the focused field.', 'input')
export class InputCommandDto extends CommandBaseDto {
  /** Any Unicode text, at most 100 000 UTF-16 code units (`MAX_INPUT_TEXT_LENGTH`). */
  @ApiProperty({ maxLength: MAX_INPUT_TEXT_LENGTH, description: 'Any Unicode text, at most 100 000 UTF-16 code units.', example: 'Hello 世界 👋' })
  @IsString()
  @MaxLength(MAX_INPUT_TEXT_LENGTH)
  text!: string;

  @ApiPropertyOptional({ description: 'Clear the field first.' })
  @IsOptional()
  @IsBoolean()
  clear?: boolean;
}

/** Screenshot options, shared by the command body and `GET …/screenshot` query. */
export class ScreenshotOptionsDto {
  @ApiPropertyOptional({ enum: ['png', 'jpeg'], enumName: 'ImageFormat', description: 'Image format (default png).' })
  @IsOptional()
  @IsIn(['png', 'jpeg'])
  format?: 'png' | 'jpeg';

  /** JPEG quality 1–100. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'JPEG quality.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  quality?: number;

  /** Downscale to at most this width, in px. */
  @ApiPropertyOptional({ type: 'integer', minimum: 16, maximum: MAX_COORDINATE, description: 'Downscale to at most this width, in px.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(16)
  @Max(MAX_COORDINATE)
  maxWidth?: number;
}

@CommandSchema('ScreenshotCommand', 'Captures the screen; the answer\'s data is `{mime, width, height, base64, frameId, screen}`.', 'screenshot')
export class ScreenshotCommandDto extends CommandBaseDto {
  @ApiPropertyOptional({ enum: ['png', 'jpeg'], description: 'Image format (default png).' })
  @IsOptional() @IsIn(['png', 'jpeg']) format?: 'png' | 'jpeg';
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'JPEG quality.' })
  @IsOptional() @IsInt() @Min(1) @Max(100) quality?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 16, maximum: MAX_COORDINATE, description: 'Downscale to at most this width, in px.' })
  @IsOptional() @IsInt() @Min(16) @Max(MAX_COORDINATE) maxWidth?: number;
}

/** The body class that validates each command. */
export const COMMAND_DTOS: Record<CommandName, new () => CommandBaseDto> = {
  open: OpenCommandDto,
  click: PointCommandDto,
  long_press: LongPressCommandDto,
  swipe: SwipeCommandDto,
  input: InputCommandDto,
  back: NoArgumentCommandDto,
  home: NoArgumentCommandDto,
  screenshot: ScreenshotCommandDto,
  ui_tree: NoArgumentCommandDto,
};
