import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { MEMORY_CATEGORY_PATTERN, MEMORY_PRIORITY_MAX, MEMORY_PRIORITY_MIN, MEMORY_SCOPE_MAX_CHARS, MEMORY_TEXT_MAX_CHARS } from '@mobileclaw/domain';

/** The longest query of a memory search, in characters. */
export const MEMORY_QUERY_MAX_CHARS = 1000;
/** `k` of `GET /api/memory`: at most this many daily + curated hits. */
export const MEMORY_SEARCH_K_MAX = 50;
/** Page size of `GET /api/memory/records`: 1–200, default 50. */
export const MEMORY_PAGE_MAX = 200;
export const MEMORY_PAGE_DEFAULT = 50;

/** `scope` as every memory route takes it; its form (`context:<id>` | `device:<id>`) is checked by `parseMemoryScope`. */
const SCOPE = {
  minLength: 8,
  maxLength: MEMORY_SCOPE_MAX_CHARS,
  description: 'Whose memory: `context:<contextId>` (a conversation of the API or A2A) or `device:<deviceId>` (a phone\'s tasks without a conversation).',
  example: 'device:sim-1',
} as const;

/** A scope field: a non-empty string of at most {@link MEMORY_SCOPE_MAX_CHARS} characters. */
function scopeRules(): PropertyDecorator {
  return (target, key) => {
    MaxLength(MEMORY_SCOPE_MAX_CHARS)(target, key);
    IsNotEmpty()(target, key);
    IsString()(target, key);
  };
}

/** `GET /api/memory` query. */
export class SearchMemoryQueryDto {
  @ApiProperty(SCOPE)
  @scopeRules()
  scope!: string;

  @ApiProperty({ minLength: 1, maxLength: MEMORY_QUERY_MAX_CHARS, description: 'What to look for, in any language (Chinese is segmented into words).', example: 'mom' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MEMORY_QUERY_MAX_CHARS)
  q!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MEMORY_SEARCH_K_MAX, description: 'At most this many daily + curated hits; default 3 of each.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MEMORY_SEARCH_K_MAX)
  k?: number;
}

/** `GET /api/memory/records` query. */
export class ListMemoryQueryDto {
  @ApiProperty(SCOPE)
  @scopeRules()
  scope!: string;

  @ApiProperty({ enum: ['daily', 'curated'], description: 'The stored layer: the daily files or `MEMORY.md`.' })
  @IsIn(['daily', 'curated'])
  layer!: 'daily' | 'curated';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MEMORY_PAGE_MAX, default: MEMORY_PAGE_DEFAULT, description: 'Page size.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MEMORY_PAGE_MAX)
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Records to skip (newest first).' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  offset?: number;
}

/** `GET /api/memory/session` query. */
export class MemoryScopeQueryDto {
  @ApiProperty(SCOPE)
  @scopeRules()
  scope!: string;
}

/** `POST /api/memory` body. */
@ApiSchema({ name: 'RememberMemory' })
export class RememberMemoryDto {
  @ApiProperty(SCOPE)
  @scopeRules()
  scope!: string;

  @ApiProperty({ minLength: 1, maxLength: MEMORY_TEXT_MAX_CHARS, description: 'The memory, one fact or preference in a sentence.', example: 'Mom is Alice' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MEMORY_TEXT_MAX_CHARS)
  text!: string;

  @ApiPropertyOptional({ pattern: MEMORY_CATEGORY_PATTERN.source, description: 'e.g. `fact`, `contact`, `preference` (`preference`, `curated`, `permanent`, `user_preference`, `long_term` also go to `MEMORY.md`); default `fact`.', example: 'contact' })
  @IsOptional()
  @IsString()
  @Matches(MEMORY_CATEGORY_PATTERN, { message: 'category must be 1–40 lower-case letters, digits or _' })
  category?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: MEMORY_PRIORITY_MIN, maximum: MEMORY_PRIORITY_MAX, description: '1 (trivia) to 10 (never forget); 8 or more also goes to `MEMORY.md`. Default 5.', example: 8 })
  @IsOptional()
  @IsInt()
  @Min(MEMORY_PRIORITY_MIN)
  @Max(MEMORY_PRIORITY_MAX)
  priority?: number;
}

/** `POST /api/memory/flush` and `POST /api/memory/organize` body. */
@ApiSchema({ name: 'MemoryScopeBody' })
export class MemoryScopeDto {
  @ApiProperty(SCOPE)
  @scopeRules()
  scope!: string;
}
