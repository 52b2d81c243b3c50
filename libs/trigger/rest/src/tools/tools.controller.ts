import { Body, Controller, Get, HttpCode, Inject, Optional, Param, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { MobileClawError, type ToolContent, type ToolInvocationError } from '@mobileclaw/domain';
import { ToolRegistry, type ToolEntry, type ToolSourceIssue } from '@mobileclaw/case-tools';
import { ApiTokenGuard, GATEWAY_API_OPTIONS, type GatewayApiOptions } from '../http/api-token.guard';
import { clientGone } from '../http/client-gone';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { validateDto } from '../http/validation';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { ToolInvocationDto } from './tool.dto';
import { ToolCallAnswerSchema, ToolListSchema } from './tool.schemas';

/** How long a tool call over HTTP may take when the host sets no `toolDeadlineMs`, in ms: the issue's agent-session default. */
export const DEFAULT_TOOL_DEADLINE_MS = 120_000;

/** The caller id of `/api/tools` calls: their policy and the scope of their `toolCallId`s. */
export const REST_TOOL_CALLER = 'rest';

/** The answer of a tool that ran: `POST /api/tools/:name/invoke` → 200. */
export interface ToolCallAnswer {
  ok: boolean;
  result?: ToolContent;
  text?: string;
  error?: ToolInvocationError;
  durationMs: number;
  replayed: boolean;
}

/**
 * The tool registry over REST: every tool with the merge's decisions and the sources' issues, and a
 * call of one tool. A call the registry refuses before running anything is an HTTP error (problem
 * details: 404 `TOOL_NOT_FOUND`, 400 `VALIDATION_FAILED`, 403 `APPROVAL_REQUIRED`, 503
 * `TOOL_UNAVAILABLE`, 409/422 for a reused `toolCallId`); a call that ran answers 200 with the tool's
 * result or the failure the tool answered (`ok: false`). Without a `ToolRegistry` provider, the
 * registry is empty.
 */
@ApiTags('tools')
@ApiProblemResponses('UNAUTHORIZED')
@ApiExtraModels(ToolInvocationDto)
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/tools')
export class ToolsController {
  private readonly registry: ToolRegistry;
  private readonly deadlineMs: number;

  constructor(@Optional() @Inject(ToolRegistry) registry: ToolRegistry | undefined, @Inject(GATEWAY_API_OPTIONS) options: GatewayApiOptions) {
    this.registry = registry ?? new ToolRegistry([]);
    this.deadlineMs = options.toolDeadlineMs ?? DEFAULT_TOOL_DEADLINE_MS;
  }

  /** `GET /api/tools` → `{tools: ToolEntry[], issues: ToolSourceIssue[]}`. */
  @Get()
  @ApiOperation({
    summary: 'List the tools',
    description:
      'Every tool of every source, merged: native tools first and never shadowed, then workspace SKILL.md skills, agent sessions, remote catalogs. Shadowed, ineligible and unavailable tools are listed with why; `issues` says what the sources could not load.',
  })
  @ApiOkResponse({ type: ToolListSchema })
  async list(): Promise<{ tools: ToolEntry[]; issues: ToolSourceIssue[] }> {
    const [tools, issues] = await Promise.all([this.registry.list(), this.registry.issues()]);
    return { tools, issues };
  }

  /**
   * `POST /api/tools/:name/invoke {arguments?, toolCallId?, approved?}` → 200 `{ok, result, text | error, durationMs, replayed}`.
   * @throws TOOL_NOT_FOUND (404), VALIDATION_FAILED (400: the body, or arguments the schema refuses),
   *   APPROVAL_REQUIRED (403), TOOL_UNAVAILABLE (503), IDEMPOTENCY_KEY_IN_PROGRESS (409),
   *   IDEMPOTENCY_KEY_REUSED (422), STORAGE_ERROR (503) — before any call.
   */
  @Post(':name/invoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Call a tool',
    description:
      'Arguments are checked against the tool\'s `inputSchema` first. `ACTION` tools need `approved: true`. With a `toolCallId`, the call runs at most once: the same id again answers the recorded result (`replayed: true`). 200 means the tool ran; its own failure is `ok: false`.',
  })
  @ApiParam({ name: 'name', description: 'The tool\'s `exposedName`.', example: 'weather' })
  @ApiBody({ type: ToolInvocationDto })
  @ApiOkResponse({ type: ToolCallAnswerSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'APPROVAL_REQUIRED', 'TOOL_NOT_FOUND', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', 'TOOL_UNAVAILABLE', 'STORAGE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async invoke(@Param('name') name: string, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<ToolCallAnswer> {
    const dto = validateDto(ToolInvocationDto, body ?? {});
    const outcome = await this.registry.invoke(name, dto.arguments ?? {}, {
      caller: REST_TOOL_CALLER,
      toolCallId: dto.toolCallId,
      approved: dto.approved,
      signal: clientGone(response),
      deadlineMs: this.deadlineMs,
    });
    if (!outcome.called && !outcome.ok) throw new MobileClawError(outcome.error.code, outcome.error.message);
    if (outcome.ok) return { ok: true, result: outcome.content, text: outcome.text, durationMs: outcome.durationMs, replayed: outcome.replayed };
    return { ok: false, error: outcome.error, durationMs: outcome.durationMs, replayed: outcome.replayed };
  }
}
