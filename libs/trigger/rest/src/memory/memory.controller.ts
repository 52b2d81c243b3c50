import { Body, Controller, Delete, Get, HttpCode, Optional, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MobileClawError, memoryScopeGranted, parseMemoryScope, type MemoryRecord, type MemoryScope, type MemorySearchResult, type SessionTurn } from '@mobileclaw/domain';
import { MemoryService, type MemoryStatus } from '@mobileclaw/case-memory';
import { apiCallerOf, type ApiCaller } from '../http/api-token';
import { ScopedApiTokenGuard } from '../http/api-token.guard';
import { clientGone } from '../http/client-gone';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { validateDto, validateQuery } from '../http/validation';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { ListMemoryQueryDto, MEMORY_PAGE_DEFAULT, MemoryScopeDto, MemoryScopeQueryDto, RememberMemoryDto, SearchMemoryQueryDto } from './memory.dto';
import {
  ForgottenMemorySchema,
  MemoryFlushResultSchema,
  MemoryOrganizeResultSchema,
  MemoryRecordPageSchema,
  MemoryRecordSchema,
  MemorySearchResultSchema,
  MemorySessionSchema,
  MemoryStatusSchema,
  RememberedMemorySchema,
} from './memory.schemas';

/** The memory service, or 404 `NOT_FOUND` on a host without it. */
function required(memory: MemoryService | undefined): MemoryService {
  if (!memory) throw new MobileClawError('NOT_FOUND', 'memory is not enabled on this gateway');
  return memory;
}

/** A caller's scope, checked. @throws MobileClawError `VALIDATION_FAILED` naming the field. */
function scopeOf(value: string): MemoryScope {
  try {
    return parseMemoryScope(value).scope;
  } catch (err) {
    if (err instanceof MobileClawError) throw new MobileClawError('VALIDATION_FAILED', `invalid request: scope: ${err.message}`, { fieldErrors: [{ field: 'scope', message: err.message }] });
    throw err;
  }
}

/**
 * `scope` when the caller reaches it: the API token reaches every scope, a scoped token those it names.
 * @throws MobileClawError `TOKEN_SCOPE_FORBIDDEN` for a scope outside a scoped token's.
 */
function reached(caller: ApiCaller, scope: MemoryScope): MemoryScope {
  if (caller.kind === 'scoped' && !memoryScopeGranted(caller.scopes, scope)) {
    throw new MobileClawError('TOKEN_SCOPE_FORBIDDEN', `the API token ${JSON.stringify(caller.name)} does not reach the memory scope ${JSON.stringify(scope.slice(0, 80))}`);
  }
  return scope;
}

/** Refuses a scoped token: what the whole memory holds is for the API token. @throws MobileClawError `TOKEN_SCOPE_FORBIDDEN`. */
function requireFull(caller: ApiCaller): void {
  if (caller.kind === 'scoped') throw new MobileClawError('TOKEN_SCOPE_FORBIDDEN', `the API token ${JSON.stringify(caller.name)} is scoped: the memory of all scopes needs MOBILECLAW_API_TOKEN`);
}

const MEMORY_ID = ApiParam({ name: 'id', description: 'A stored memory\'s id.', example: 'mem_3f1c0a9e5b7d2c4e6f8a0b1c' });

/**
 * The agent's memory over REST (the case layer's {@link MemoryService}; without that provider every
 * route answers 404 `NOT_FOUND`): search with score parts, the stored records of a layer, remember,
 * forget, flush a session, organize long-term memory. Every route names its scope (`context:<id>` or
 * `device:<id>`); a bad one is 400 `VALIDATION_FAILED`. Errors are problem details with a stable `code`.
 * The only routes a scoped API token reaches ({@link ScopedApiTokenGuard}): such a caller gets 403
 * `TOKEN_SCOPE_FORBIDDEN` for a scope it does not name and for the status of the whole memory, and
 * 404 `MEMORY_NOT_FOUND` for a memory id of such a scope, as for an id that does not exist.
 */
@ApiTags('memory')
@ApiProblemResponses('UNAUTHORIZED', 'TOKEN_SCOPE_FORBIDDEN')
@UseGuards(ScopedApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/memory')
export class MemoryController {
  constructor(@Optional() private readonly memory?: MemoryService) {}

  /**
   * `GET /api/memory?scope=&q=&k=` → `MemorySearchResult` `{scope, query, hits, semantic, notice?}`.
   * @throws VALIDATION_FAILED (400: no `q`, a bad scope, k outside 1–50), STORAGE_ERROR (503).
   */
  @Get()
  @ApiOperation({
    summary: 'Search a scope\'s memory',
    description:
      'The newest session turns, then up to 3 daily memories of the last 7 days and 3 curated ones (or `k` in all), each ranked by BM25 and, when an embeddings endpoint is configured, cosine similarity, decayed by age (daily only) and re-ranked by MMR. Every hit says its layer, source file and line, score parts and age; `semantic` says whether embeddings took part.',
  })
  @ApiQuery({ type: SearchMemoryQueryDto })
  @ApiOkResponse({ type: MemorySearchResultSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'STORAGE_ERROR')
  async search(@Query() query: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<MemorySearchResult> {
    const dto = validateQuery(SearchMemoryQueryDto, query);
    return required(this.memory).search(reached(apiCallerOf(request), scopeOf(dto.scope)), dto.q, { ...(dto.k === undefined ? {} : { k: dto.k }), signal: clientGone(response) });
  }

  /** `GET /api/memory/records?scope=&layer=daily|curated&limit=&offset=` → `{records, total}`, newest first. @throws VALIDATION_FAILED (400), STORAGE_ERROR (503). */
  @Get('records')
  @ApiOperation({ summary: 'List a scope\'s stored memories', description: 'A page of one stored layer (the daily files, or `MEMORY.md`), newest first.' })
  @ApiQuery({ type: ListMemoryQueryDto })
  @ApiOkResponse({ type: MemoryRecordPageSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'STORAGE_ERROR')
  async list(@Query() query: unknown, @Req() request: Request): Promise<{ records: MemoryRecord[]; total: number }> {
    const dto = validateQuery(ListMemoryQueryDto, query);
    return required(this.memory).list(reached(apiCallerOf(request), scopeOf(dto.scope)), dto.layer, { limit: dto.limit ?? MEMORY_PAGE_DEFAULT, offset: dto.offset ?? 0 });
  }

  /** `GET /api/memory/status` → `MemoryStatus` `{semantic, embeddingModel?, summarizer, records, missingEmbeddings}`. @throws STORAGE_ERROR (503). */
  @Get('status')
  @ApiOperation({ summary: 'What the memory runs with', description: 'Whether semantic search is configured and with which model, who summarises, how many memories are stored and how many still lack their embedding.' })
  @ApiOkResponse({ type: MemoryStatusSchema })
  @ApiProblemResponses('STORAGE_ERROR')
  async status(@Req() request: Request): Promise<MemoryStatus> {
    requireFull(apiCallerOf(request));
    return required(this.memory).status();
  }

  /** `GET /api/memory/session?scope=` → `{turns}`, oldest first. @throws VALIDATION_FAILED (400). */
  @Get('session')
  @ApiOperation({ summary: 'A scope\'s session turns', description: 'The current session layer (in the gateway\'s memory only, not yet flushed): goals, decisions, results, oldest first.' })
  @ApiQuery({ type: MemoryScopeQueryDto })
  @ApiOkResponse({ type: MemorySessionSchema })
  @ApiProblemResponses('VALIDATION_FAILED')
  session(@Query() query: unknown, @Req() request: Request): { turns: SessionTurn[] } {
    const dto = validateQuery(MemoryScopeQueryDto, query);
    return { turns: required(this.memory).sessionTurns(reached(apiCallerOf(request), scopeOf(dto.scope))) };
  }

  /** `GET /api/memory/:id` → the record. @throws MEMORY_NOT_FOUND (404), STORAGE_ERROR (503). */
  @Get(':id')
  @ApiOperation({ summary: 'Get a stored memory' })
  @MEMORY_ID
  @ApiOkResponse({ type: MemoryRecordSchema })
  @ApiProblemResponses('MEMORY_NOT_FOUND', 'STORAGE_ERROR')
  async get(@Param('id') id: string, @Req() request: Request): Promise<MemoryRecord> {
    return this.reachedRecord(apiCallerOf(request), id);
  }

  /**
   * `POST /api/memory {scope, text, category?, priority?}` → 201 `{records}` (daily first; the curated one too when priority ≥ 8 or a curated category).
   * @throws VALIDATION_FAILED (400), STORAGE_ERROR (503).
   */
  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Remember something',
    description:
      'Appends a section to the scope\'s daily file of today (UTC) and, for priority ≥ 8 or a category such as `preference`, to its `MEMORY.md`; indexed and embedded at once. The same text again is the same record, not a second one.',
  })
  @ApiBody({ type: RememberMemoryDto })
  @ApiCreatedResponse({ type: RememberedMemorySchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async remember(@Body() body: unknown, @Req() request: Request): Promise<{ records: MemoryRecord[] }> {
    const dto = validateDto(RememberMemoryDto, body);
    const records = await required(this.memory).remember(
      reached(apiCallerOf(request), scopeOf(dto.scope)),
      { text: dto.text, ...(dto.category === undefined ? {} : { category: dto.category }), ...(dto.priority === undefined ? {} : { priority: dto.priority }) },
      'api',
    );
    return { records };
  }

  /** `DELETE /api/memory/:id` → 200 `{deleted}`: every section with its text in its scope's files, their index rows and vectors. @throws MEMORY_NOT_FOUND (404), STORAGE_ERROR (503). */
  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Forget a memory', description: 'For good: the file sections with its text (daily and curated), their index rows and vectors.' })
  @MEMORY_ID
  @ApiOkResponse({ type: ForgottenMemorySchema })
  @ApiProblemResponses('MEMORY_NOT_FOUND', 'STORAGE_ERROR')
  async forget(@Param('id') id: string, @Req() request: Request): Promise<{ deleted: MemoryRecord[] }> {
    const caller = apiCallerOf(request);
    if (caller.kind === 'scoped') await this.reachedRecord(caller, id);
    return { deleted: await required(this.memory).forget(id) };
  }

  /**
   * `POST /api/memory/flush {scope}` → 200 `{turns, stored}`: the session summarised into the daily layer, then started afresh.
   * @throws VALIDATION_FAILED (400), PLANNER_ERROR (502), TIMEOUT (504), STORAGE_ERROR (503): the session is kept then.
   */
  @Post('flush')
  @HttpCode(200)
  @ApiOperation({ summary: 'Flush a session into the daily memory', description: 'The summariser keeps what is worth keeping of the session\'s turns (priorities 1–7), each remembered; the session starts afresh. A session without turns stores nothing.' })
  @ApiBody({ type: MemoryScopeDto })
  @ApiOkResponse({ type: MemoryFlushResultSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'PLANNER_ERROR', 'TIMEOUT', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async flush(@Body() body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<{ turns: number; stored: MemoryRecord[] }> {
    const dto = validateDto(MemoryScopeDto, body);
    return required(this.memory).flush(reached(apiCallerOf(request), scopeOf(dto.scope)), clientGone(response));
  }

  /**
   * `POST /api/memory/organize {scope}` → 200 `{days, stored}`: what is lasting in the last 30 days' daily files, remembered as curated.
   * @throws VALIDATION_FAILED (400), PLANNER_ERROR (502), TIMEOUT (504), STORAGE_ERROR (503).
   */
  @Post('organize')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Organize long-term memory',
    description: 'Reads the scope\'s daily files of the last 30 days (each cut to 3,000 characters); the summariser keeps only stable preferences, personal facts and lasting decisions (priority ≥ 9), each remembered in `MEMORY.md` too.',
  })
  @ApiBody({ type: MemoryScopeDto })
  @ApiOkResponse({ type: MemoryOrganizeResultSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'PLANNER_ERROR', 'TIMEOUT', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async organize(@Body() body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<{ days: number; stored: MemoryRecord[] }> {
    const dto = validateDto(MemoryScopeDto, body);
    return required(this.memory).organize(reached(apiCallerOf(request), scopeOf(dto.scope)), clientGone(response));
  }

  /**
   * The record `id` when the caller reaches its scope.
   * @throws MobileClawError `MEMORY_NOT_FOUND` for an unknown id and, alike, for one of a scope a
   *   scoped token does not reach (so that such a token learns nothing of other scopes), `STORAGE_ERROR`.
   */
  private async reachedRecord(caller: ApiCaller, id: string): Promise<MemoryRecord> {
    const record = await required(this.memory).get(id);
    if (caller.kind === 'scoped' && !memoryScopeGranted(caller.scopes, record.scope)) {
      throw new MobileClawError('MEMORY_NOT_FOUND', `no memory ${JSON.stringify(id.slice(0, 80))}`);
    }
    return record;
  }
}
