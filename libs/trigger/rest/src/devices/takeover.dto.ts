import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { AgentAction } from '@mobileclaw/domain';

/** Largest coordinate accepted before the screen check, in px (no phone screen is larger). */
const MAX_COORDINATE = 100_000;
/** Longest gesture, in ms. */
const MAX_GESTURE_MS = 60_000;
/** Longest text typed in one action, in characters. */
const MAX_TEXT = 10_000;

/**
 * Skips a property's rules only when it is absent. class-validator's `@IsOptional` also skips `null`,
 * which would let `{"x": null}` through to the phone; here `null` is checked (and refused) like any
 * other value.
 */
function OptionalNotNull(): PropertyDecorator {
  return (target, key) => ValidateIf((object: Record<string | symbol, unknown>) => object[key] !== undefined)(target, key as string);
}

/** The holder's id: proves holding in later calls. */
const holderIdProperty = { minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$', description: 'An id the client chose and keeps (e.g. a random one in the page\'s localStorage); it proves holding in later calls and is shown to nobody.', example: 'page-7f3a9c' } as const;

/** `POST /api/devices/:deviceId/takeover` body. */
@ApiSchema({ name: 'TakeoverRequest', description: 'Who takes the phone over. Taking it again with the same `holderId` renews the lease.' })
export class TakeoverRequestDto {
  @ApiProperty(holderIdProperty)
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,128}$/, { message: 'holderId must be 1–128 characters of [A-Za-z0-9._-]' })
  holderId!: string;

  @ApiProperty({ minLength: 1, maxLength: 64, description: 'The name others see while this holder holds the phone.', example: 'Ada' })
  @IsString()
  @Length(1, 64)
  holder!: string;
}

/** `DELETE /api/devices/:deviceId/takeover?holderId=` query. */
export class HandBackQueryDto {
  @ApiProperty(holderIdProperty)
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,128}$/, { message: 'holderId must be 1–128 characters of [A-Za-z0-9._-]' })
  holderId!: string;
}

/** A point on the screen, in device px. */
@ApiSchema({ name: 'ScreenPoint', description: 'A point in device px of the current rotation.' })
export class ScreenPointDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Horizontal position, px; less than the screen width.' })
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  x!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Vertical position, px; less than the screen height.' })
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  y!: number;
}

/** The kinds of action a holder takes. */
export const TAKEOVER_ACTION_TYPES = ['tap', 'swipe', 'type', 'back', 'home'] as const;
export type TakeoverActionType = (typeof TAKEOVER_ACTION_TYPES)[number];

/**
 * `POST /api/devices/:deviceId/takeover/actions` body: one action of the holder. `tap` needs `x`,`y`;
 * `swipe` needs `from`, `to` (and optional `durationMs`); `type` needs `text`; `back` and `home` nothing.
 * Fields of another type are refused.
 */
@ApiSchema({ name: 'TakeoverAction', description: 'One action of the phone\'s holder. Points in device px, within the screen.' })
export class TakeoverActionDto {
  @ApiProperty(holderIdProperty)
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,128}$/, { message: 'holderId must be 1–128 characters of [A-Za-z0-9._-]' })
  holderId!: string;

  @ApiProperty({ enum: TAKEOVER_ACTION_TYPES, description: '`tap` (`x`, `y`), `swipe` (`from`, `to`, `durationMs?`), `type` (`text`), `back`, `home`.' })
  @IsIn(TAKEOVER_ACTION_TYPES, { message: `type must be one of: ${TAKEOVER_ACTION_TYPES.join(', ')}` })
  type!: TakeoverActionType;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: '`tap`: horizontal position, px.' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  x?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: '`tap`: vertical position, px.' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_COORDINATE)
  y?: number;

  @ApiPropertyOptional({ type: () => ScreenPointDto, description: '`swipe`: where the finger lands.' })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ScreenPointDto)
  from?: ScreenPointDto;

  @ApiPropertyOptional({ type: () => ScreenPointDto, description: '`swipe`: where it lifts.' })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => ScreenPointDto)
  to?: ScreenPointDto;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_GESTURE_MS, description: '`swipe`: gesture duration, ms (the phone\'s default when absent).' })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(MAX_GESTURE_MS)
  durationMs?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: MAX_TEXT, description: '`type`: text typed into the focused field.' })
  @OptionalNotNull()
  @IsString()
  @Length(1, MAX_TEXT)
  text?: string;
}

/** Which fields each action type needs; the others must be absent. */
const FIELDS_BY_TYPE: Record<TakeoverActionType, readonly (keyof TakeoverActionDto)[]> = {
  tap: ['x', 'y'],
  swipe: ['from', 'to', 'durationMs'],
  type: ['text'],
  back: [],
  home: [],
};
const OPTIONAL_FIELDS = new Set<keyof TakeoverActionDto>(['durationMs']);
const ACTION_FIELDS: readonly (keyof TakeoverActionDto)[] = ['x', 'y', 'from', 'to', 'durationMs', 'text'];

/**
 * The phone command of a validated action, or the field errors of its type's missing and foreign fields.
 */
export function takeoverCommand(dto: TakeoverActionDto): { action: AgentAction } | { fieldErrors: { field: string; message: string }[] } {
  const allowed = FIELDS_BY_TYPE[dto.type];
  const fieldErrors = [];
  for (const field of ACTION_FIELDS) {
    const present = dto[field] !== undefined;
    if (allowed.includes(field) && !present && !OPTIONAL_FIELDS.has(field)) fieldErrors.push({ field, message: `${field} is required for ${dto.type}` });
    if (!allowed.includes(field) && present) fieldErrors.push({ field, message: `${field} is not allowed for ${dto.type}` });
  }
  if (fieldErrors.length > 0) return { fieldErrors };
  switch (dto.type) {
    case 'tap':
      return { action: { command: 'click', x: dto.x!, y: dto.y! } };
    case 'swipe':
      return { action: { command: 'swipe', x1: dto.from!.x, y1: dto.from!.y, x2: dto.to!.x, y2: dto.to!.y, ...(dto.durationMs === undefined ? {} : { durationMs: dto.durationMs }) } };
    case 'type':
      return { action: { command: 'input', text: dto.text! } };
    case 'back':
      return { action: { command: 'back' } };
    case 'home':
      return { action: { command: 'home' } };
  }
}
