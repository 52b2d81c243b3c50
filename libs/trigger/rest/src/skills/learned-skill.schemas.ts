import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'LearnedSkillParameter', description: 'A text the task typed, which a replay may change.' })
export class LearnedSkillParameterSchema {
  @ApiProperty({ example: 'url_bar' })
  name!: string;

  @ApiProperty({ example: 'Text typed into EditText "Search or type web address" (step 3).' })
  description!: string;

  @ApiPropertyOptional({ description: 'The text typed when it was learned; absent for a secret.', example: 'hello' })
  example?: string;

  @ApiPropertyOptional({ description: 'True for a text typed into a password field: never stored, required by every replay.' })
  secret?: boolean;
}

@ApiSchema({ name: 'SavedSkill' })
export class SavedSkillSchema {
  @ApiProperty({ example: 'browser-address' })
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ description: 'Where its SKILL.md was written.', example: '/var/lib/mobileclaw/skills/browser-address/SKILL.md' })
  location!: string;

  @ApiProperty({ type: () => [LearnedSkillParameterSchema] })
  parameters!: LearnedSkillParameterSchema[];

  @ApiProperty({ type: 'integer', description: 'How many actions it replays.', example: 3 })
  steps!: number;
}

@ApiSchema({ name: 'SavedSkillAnswer' })
export class SavedSkillAnswerSchema {
  @ApiProperty({ type: () => SavedSkillSchema })
  skill!: SavedSkillSchema;
}
