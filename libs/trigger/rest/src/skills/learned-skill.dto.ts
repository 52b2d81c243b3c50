import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** `POST /api/tasks/:taskId/skill` body. */
@ApiSchema({ name: 'SaveSkill' })
export class SaveSkillDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
    description: 'The skill\'s name (Agent Skills rules: lowercase letters, digits, single hyphens); default: the goal\'s words.',
    example: 'browser-address',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 1024, description: 'What the skill does; default: the goal, typed texts as `{{parameter}}`.' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  description?: string;
}

/** `POST /api/skills/:name/replay` body. */
@ApiSchema({ name: 'ReplaySkill' })
export class ReplaySkillDto {
  @ApiProperty({ minLength: 1, maxLength: 128, description: 'The phone to replay it on.', example: 'sim-1' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  deviceId!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Parameter values by name; a parameter left out takes its example; a secret (typed into a password field) must be given.',
    example: { url_bar: 'example.org' },
  })
  @IsOptional()
  @IsObject()
  arguments?: Record<string, unknown>;
}
