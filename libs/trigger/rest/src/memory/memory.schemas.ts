import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** OpenAPI schema of a `MemorySource`. */
@ApiSchema({ name: 'MemorySource', description: 'Where a stored memory is written: its file under `<data dir>/memory` and the line of its `##` heading.' })
export class MemorySourceSchema {
  @ApiProperty({ description: 'Relative to `<data dir>/memory`, `/`-separated.', example: 'device/sim-1/2026-12-02.md' })
  file!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1-based line of the section\'s `##` heading.', example: 3 })
  line!: number;
}

/** OpenAPI schema of a `MemoryRecord` (documentation only). */
@ApiSchema({ name: 'MemoryRecord', description: 'One stored memory: a section of a daily file or of `MEMORY.md`, as the index keeps it.' })
export class MemoryRecordSchema {
  @ApiProperty({ pattern: '^mem_[0-9a-f]{24}$', description: 'Stable: the same text in the same scope and layer is always this id.', example: 'mem_3f1c0a9e5b7d2c4e6f8a0b1c' })
  id!: string;

  @ApiProperty({ example: 'device:sim-1' })
  scope!: string;

  @ApiProperty({ enum: ['daily', 'curated'] })
  layer!: string;

  @ApiProperty({ example: 'Mom is Alice' })
  text!: string;

  @ApiProperty({ example: 'fact' })
  category!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 10, example: 6 })
  priority!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: () => MemorySourceSchema })
  source!: MemorySourceSchema;

  @ApiProperty({ description: 'SHA-256 (hex) of the normalised text.' })
  contentHash!: string;

  @ApiProperty({ enum: ['present', 'missing', 'none'], description: '`missing`: the embeddings endpoint failed, the memory is found lexically until a retry succeeds; `none`: no endpoint configured.' })
  embedding!: string;
}

/** OpenAPI schema of `MemoryScoreParts`. */
@ApiSchema({ name: 'MemoryScoreParts', description: 'How a hit\'s score was made: `score` = `relevance` × `decay`, then MMR re-ranks.' })
export class MemoryScorePartsSchema {
  @ApiProperty({ type: 'number', nullable: true, description: 'BM25 normalised to 0–1 among the query\'s candidates; null when the text did not match the query\'s words.' })
  lexical!: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'Cosine similarity; null when not compared (no embedding, or below the minimum).' })
  semantic!: number | null;

  @ApiProperty({ description: 'The hybrid of the two.' })
  relevance!: number;

  @ApiProperty({ description: 'Temporal decay factor (1 for session and curated memories).' })
  decay!: number;
}

/** OpenAPI schema of a `MemoryHit`. */
@ApiSchema({ name: 'MemoryHit', description: 'One search result.' })
export class MemoryHitSchema {
  @ApiProperty({ enum: ['session', 'daily', 'curated'] })
  layer!: string;

  @ApiPropertyOptional({ description: 'The stored memory\'s id (absent for session turns).' })
  id?: string;

  @ApiProperty({ example: 'Mom is Alice' })
  text!: string;

  @ApiPropertyOptional()
  category?: string;

  @ApiPropertyOptional({ type: 'integer' })
  priority?: number;

  @ApiPropertyOptional({ type: () => MemorySourceSchema, description: 'Absent for session turns.' })
  source?: MemorySourceSchema;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ description: 'Age at the search, in days (fractional).' })
  ageDays!: number;

  @ApiProperty({ description: 'Final score (session turns: 1).' })
  score!: number;

  @ApiProperty({ type: () => MemoryScorePartsSchema })
  parts!: MemoryScorePartsSchema;
}

/** OpenAPI schema of `GET /api/memory`. */
@ApiSchema({ name: 'MemorySearchResult' })
export class MemorySearchResultSchema {
  @ApiProperty({ example: 'device:sim-1' })
  scope!: string;

  @ApiProperty({ example: 'mom' })
  query!: string;

  @ApiProperty({ type: () => [MemoryHitSchema], description: 'Session turns first, then daily and curated hits by score.' })
  hits!: MemoryHitSchema[];

  @ApiProperty({ enum: ['on', 'off', 'degraded'], description: '`off`: no embeddings endpoint configured (lexical only); `degraded`: the endpoint failed for this query.' })
  semantic!: string;

  @ApiPropertyOptional({ description: 'Why semantic search was `off` or `degraded`.' })
  notice?: string;
}

/** OpenAPI schema of `GET /api/memory/records`. */
@ApiSchema({ name: 'MemoryRecordPage' })
export class MemoryRecordPageSchema {
  @ApiProperty({ type: () => [MemoryRecordSchema], description: 'Newest first.' })
  records!: MemoryRecordSchema[];

  @ApiProperty({ type: 'integer', description: 'How many records the scope has in that layer.' })
  total!: number;
}

/** OpenAPI schema of `POST /api/memory`. */
@ApiSchema({ name: 'RememberedMemory' })
export class RememberedMemorySchema {
  @ApiProperty({ type: () => [MemoryRecordSchema], description: 'The stored records: the daily one, and the curated one when the memory is curated.' })
  records!: MemoryRecordSchema[];
}

/** OpenAPI schema of `DELETE /api/memory/{id}`. */
@ApiSchema({ name: 'ForgottenMemory' })
export class ForgottenMemorySchema {
  @ApiProperty({ type: () => [MemoryRecordSchema], description: 'Every record removed: the same text in each layer of the scope, its file sections, index rows and vectors.' })
  deleted!: MemoryRecordSchema[];
}

/** OpenAPI schema of `POST /api/memory/flush`. */
@ApiSchema({ name: 'MemoryFlushResult' })
export class MemoryFlushResultSchema {
  @ApiProperty({ type: 'integer', description: 'Session turns summarised.' })
  turns!: number;

  @ApiProperty({ type: () => [MemoryRecordSchema], description: 'What was kept (priorities 1–7, daily).' })
  stored!: MemoryRecordSchema[];
}

/** OpenAPI schema of `POST /api/memory/organize`. */
@ApiSchema({ name: 'MemoryOrganizeResult' })
export class MemoryOrganizeResultSchema {
  @ApiProperty({ type: 'integer', description: 'Daily files read (the last 30 days).' })
  days!: number;

  @ApiProperty({ type: () => [MemoryRecordSchema], description: 'The lasting memories kept (priority ≥ 9, daily and curated).' })
  stored!: MemoryRecordSchema[];
}

/** OpenAPI schema of a `SessionTurn`. */
@ApiSchema({ name: 'SessionTurn' })
export class SessionTurnSchema {
  @ApiProperty({ enum: ['user', 'assistant', 'tool'] })
  role!: string;

  @ApiProperty({ example: 'send \'hi\' to mom' })
  text!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiPropertyOptional()
  taskId?: string;
}

/** OpenAPI schema of `GET /api/memory/session`. */
@ApiSchema({ name: 'MemorySession' })
export class MemorySessionSchema {
  @ApiProperty({ type: () => [SessionTurnSchema], description: 'Oldest first; a password typed into a field is `[secret]`.' })
  turns!: SessionTurnSchema[];
}

/** OpenAPI schema of `GET /api/memory/status` (`MemoryStatus`). */
@ApiSchema({ name: 'MemoryStatus' })
export class MemoryStatusSchema {
  @ApiProperty({ enum: ['on', 'off'], description: '`off`: no embeddings endpoint configured (`MOBILECLAW_EMBEDDINGS_BASE_URL`): lexical search only.' })
  semantic!: string;

  @ApiPropertyOptional({ example: 'text-embedding-3-small' })
  embeddingModel?: string;

  @ApiProperty({ description: 'Who summarises flushes and organizes: `rule-based` or `llm:<model>`.', example: 'rule-based' })
  summarizer!: string;

  @ApiProperty({ type: 'integer', description: 'Stored memories, every scope.' })
  records!: number;

  @ApiProperty({ type: 'integer', description: 'Of which without their embedding yet (retried).' })
  missingEmbeddings!: number;
}
