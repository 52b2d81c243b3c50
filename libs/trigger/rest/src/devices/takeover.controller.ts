import { Body, Controller, Delete, HttpCode, Param, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MobileClawError, type ControlLease, type DeviceController } from '@mobileclaw/domain';
import { TakeoverService, TaskService } from '@mobileclaw/case-tasks';
import { ApiTokenGuard } from '../http/api-token.guard';
import { clientGone } from '../http/client-gone';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { validateDto } from '../http/validation';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { DeviceControllerSchema, TakeoverActionResultSchema, TakeoverSchema } from '../openapi/device.schemas';
import { HandBackQueryDto, TakeoverActionDto, TakeoverRequestDto, takeoverCommand } from './takeover.dto';

/** The caller's hold on a phone, as the takeover routes answer it (never the holder's id). */
export interface TakeoverView extends DeviceController {
  deviceId: string;
  leaseMs: number;
  /** The task paused by the takeover, when one runs on the phone. */
  taskId?: string;
}

/** `deviceId` path parameter. */
const DeviceIdParam = ApiParam({ name: 'deviceId', description: 'The phone\'s id, as it announced itself in `hello`.', example: 'sim-1' });

/** Errors of a call that reaches a phone. */
const COMMAND_ERRORS = ['DEVICE_NOT_FOUND', 'DEVICE_BUSY', 'PAYLOAD_TOO_LARGE', 'DEVICE_ERROR', 'PROTOCOL_ERROR', 'DEVICE_DISCONNECTED', 'DEVICE_REPLACED', 'SHUTTING_DOWN', 'TIMEOUT'] as const;

/**
 * Human takeover of a phone over REST: take it (a lease the client renews by taking it again), act on
 * it as its holder, hand it back. Errors are problem details; a phone someone else holds answers 409
 * `DEVICE_CONTROLLED` with `controller` (who, since when).
 */
@ApiTags('devices')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/devices')
export class TakeoverController {
  constructor(
    private readonly takeover: TakeoverService,
    private readonly tasks: TaskService,
  ) {}

  /**
   * `POST /api/devices/:deviceId/takeover` `{holderId, holder}` → 200 the lease. Takes the phone (a
   * task running on it pauses, `input_required` with `takeover`), or renews the caller's lease.
   * @throws VALIDATION_FAILED (400), DEVICE_NOT_FOUND (404), DEVICE_CONTROLLED (409), DEVICE_DISCONNECTED (503).
   */
  @Post(':deviceId/takeover')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take the phone over (or renew the hold)',
    description: 'While held, every other controller (commands, MCP actions, the agent loop) is refused with 409 `DEVICE_CONTROLLED`, and a task running on the phone waits (`input_required`, `takeover`). The hold ends on hand back, after `leaseMs` without renewal, or when the phone disconnects.',
  })
  @DeviceIdParam
  @ApiBody({ type: TakeoverRequestDto })
  @ApiOkResponse({ type: TakeoverSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'UNSUPPORTED_MEDIA_TYPE', 'DEVICE_NOT_FOUND', 'DEVICE_CONTROLLED', 'DEVICE_DISCONNECTED')
  async take(@Param('deviceId') deviceId: string, @Body() body: unknown): Promise<TakeoverView> {
    const { holderId, holder } = validateDto(TakeoverRequestDto, body);
    return this.view(await this.takeover.take(deviceId, { holderId, holder }));
  }

  /**
   * `DELETE /api/devices/:deviceId/takeover?holderId=` → 200 `{holder, since, expiresAt}` of the hold that ended; the paused task resumes.
   * @throws VALIDATION_FAILED (400), CONTROL_NOT_HELD (409), DEVICE_CONTROLLED (409).
   */
  @Delete(':deviceId/takeover')
  @ApiOperation({ summary: 'Hand the phone back', description: 'The task paused by the takeover observes the screen afresh and goes on.' })
  @DeviceIdParam
  @ApiQuery({ type: HandBackQueryDto })
  @ApiOkResponse({ type: DeviceControllerSchema, description: 'The hold that ended.' })
  @ApiProblemResponses('VALIDATION_FAILED', 'CONTROL_NOT_HELD', 'DEVICE_CONTROLLED')
  handBack(@Param('deviceId') deviceId: string, @Query() query: unknown): DeviceController {
    const { holderId } = validateDto(HandBackQueryDto, query);
    const lease = this.takeover.handBack(deviceId, holderId);
    return { holder: lease.holder, since: lease.since, expiresAt: lease.expiresAt };
  }

  /**
   * `POST /api/devices/:deviceId/takeover/actions` `{holderId, type, …}` → 200 `{result, taskId?, stepIndex?}`.
   * Renews the lease. When a task is paused by this takeover, the action is a `human` step of its timeline.
   * @throws VALIDATION_FAILED (400; a point off the screen too), CONTROL_NOT_HELD (409), DEVICE_CONTROLLED (409),
   *   TASK_STATE_CONFLICT (409: the paused task already records `maxStepsLimit` human steps; nothing sent), and the command errors.
   */
  @Post(':deviceId/takeover/actions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Act on a phone you hold',
    description: '`tap` `{x, y}`, `swipe` `{from: {x, y}, to: {x, y}, durationMs?}`, `type` `{text}`, `back`, `home`; points in device px within the screen. Recorded as a `human` step ("by <holder>") of the task the takeover paused.',
  })
  @DeviceIdParam
  @ApiBody({ type: TakeoverActionDto })
  @ApiOkResponse({ type: TakeoverActionResultSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'UNSUPPORTED_MEDIA_TYPE', 'CONTROL_NOT_HELD', 'DEVICE_CONTROLLED', 'TASK_STATE_CONFLICT', ...COMMAND_ERRORS)
  async act(@Param('deviceId') deviceId: string, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<TakeoverActionResultSchema> {
    const dto = validateDto(TakeoverActionDto, body);
    const command = takeoverCommand(dto);
    if ('fieldErrors' in command) {
      throw new MobileClawError('VALIDATION_FAILED', `invalid request: ${command.fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { fieldErrors: command.fieldErrors });
    }
    const outcome = await this.takeover.act(deviceId, dto.holderId, command.action, { signal: clientGone(response) });
    return { result: outcome.result, ...(outcome.taskId === undefined ? {} : { taskId: outcome.taskId, stepIndex: outcome.stepIndex }) };
  }

  private view(lease: ControlLease): TakeoverView {
    const taskId = this.tasks.pausedTaskOn(lease.deviceId);
    return { deviceId: lease.deviceId, holder: lease.holder, since: lease.since, expiresAt: lease.expiresAt, leaseMs: this.takeover.leaseMs, ...(taskId === undefined ? {} : { taskId }) };
  }
}
