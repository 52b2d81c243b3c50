import { Body, Controller, HttpCode, Inject, Optional, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { isToolName, type ErrorCode, type ToolContent } from '@mobileclaw/domain';
import { ToolRegistry } from '@mobileclaw/case-tools';
import { ApiTokenGuard, GATEWAY_API_OPTIONS, type GatewayApiOptions } from '../http/api-token.guard';
import { clientGone } from '../http/client-gone';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { checkJsonShape } from '../http/validation';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { DEFAULT_TOOL_DEADLINE_MS } from './tools.controller';
import { OpenClawToolAnswerSchema, OpenClawToolInvocationSchema } from './tool.schemas';

/** The caller id of `/tools/invoke` calls (their policy). */
export const OPENCLAW_TOOL_CALLER = 'openclaw';

/**
 * `error.type` of an OpenClaw answer: `not_found` (404: no such tool, or not allowed), `invalid_request`
 * (400: a malformed body or arguments the schema refuses), `tool_error` (400: the tool refused or failed).
 */
export type OpenClawErrorType = 'not_found' | 'invalid_request' | 'tool_error';

/** What `POST /tools/invoke` answers: OpenClaw gateways' shape, with the catalog code beside `type`. */
export type OpenClawToolAnswer = { ok: true; result: ToolContent } | { ok: false; error: { code: ErrorCode; type: OpenClawErrorType; message: string } };

/**
 * `POST /tools/invoke {tool, args}` as OpenClaw gateways serve it, so that their clients (and other
 * MobileClaw gateways' HTTP catalogs) call this gateway's tools unchanged: 200 `{ok: true, result}`;
 * 404 `{ok: false, error}` for an unknown tool; 400 `{ok: false, error}` for everything else the call
 * or the tool refused. The token rule is the REST API's (`/tools` is guarded like `/api`); a call
 * carries no approval, so `ACTION` tools run only when the `openclaw` caller's policy exempts them.
 */
@ApiTags('tools')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('tools')
export class OpenClawToolsController {
  private readonly registry: ToolRegistry;
  private readonly deadlineMs: number;

  constructor(@Optional() @Inject(ToolRegistry) registry: ToolRegistry | undefined, @Inject(GATEWAY_API_OPTIONS) options: GatewayApiOptions) {
    this.registry = registry ?? new ToolRegistry([]);
    this.deadlineMs = options.toolDeadlineMs ?? DEFAULT_TOOL_DEADLINE_MS;
  }

  @Post('invoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Call a tool (OpenClaw-compatible)', description: 'OpenClaw gateways\' `/tools/invoke`: `{tool, args}` → `{ok: true, result}` or `{ok: false, error: {code, type, message}}`.' })
  @ApiBody({ type: OpenClawToolInvocationSchema })
  @ApiOkResponse({ type: OpenClawToolAnswerSchema })
  @ApiResponse({ status: 400, description: 'The body, the arguments or the tool refused: `{ok: false, error}`.', content: { 'application/json': { schema: { $ref: getSchemaPath(OpenClawToolAnswerSchema) } } } })
  @ApiResponse({ status: 404, description: 'No such tool (or not allowed): `{ok: false, error}` with `TOOL_NOT_FOUND`.', content: { 'application/json': { schema: { $ref: getSchemaPath(OpenClawToolAnswerSchema) } } } })
  async invoke(@Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<OpenClawToolAnswer> {
    const request = readRequest(body);
    if (typeof request === 'string') {
      response.status(400);
      return { ok: false, error: { code: 'VALIDATION_FAILED', type: 'invalid_request', message: request } };
    }
    const outcome = await this.registry.invoke(request.tool, request.args, { caller: OPENCLAW_TOOL_CALLER, signal: clientGone(response), deadlineMs: this.deadlineMs });
    if (outcome.ok) return { ok: true, result: outcome.content };
    const { code, message } = outcome.error;
    const type: OpenClawErrorType = code === 'TOOL_NOT_FOUND' && !outcome.called ? 'not_found' : code === 'VALIDATION_FAILED' && !outcome.called ? 'invalid_request' : 'tool_error';
    response.status(type === 'not_found' ? 404 : 400);
    return { ok: false, error: { code, type, message } };
  }
}

/** `{tool, args?}` from the body, or why it is not one. */
function readRequest(body: unknown): { tool: string; args: Record<string, unknown> } | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object {tool, args}';
  const shape = checkJsonShape(body);
  if (shape) return `invalid request: ${shape.field}: ${shape.message}`;
  const { tool, args } = body as { tool?: unknown; args?: unknown };
  if (!isToolName(tool)) return 'tool must be a tool name (1-64 of A-Z a-z 0-9 _ -)';
  if (args === undefined || args === null) return { tool, args: {} };
  if (typeof args !== 'object' || Array.isArray(args)) return 'args must be a JSON object';
  return { tool, args: args as Record<string, unknown> };
}
