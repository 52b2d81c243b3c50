import { Body, Controller, Get, HttpCode, Optional, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { merge } from 'rxjs';
import { AGENT_ACTION_NAMES, COMMAND_NAMES, ControlLeases, controllerOf, EventStreamMetrics, MobileClawError, MobileClawService, NoEventStreamMetrics, type Command, type CommandErrorCode, type CommandName, type CommandResult, type DeviceEvent, type DeviceInfo, type ScreenshotData } from '@mobileclaw/domain';
import { clientGone } from '../http/client-gone';
import { SseStream } from '../http/sse-stream';
import { validateDto, validateQuery } from '../http/validation';
import { ApiTokenGuard } from '../http/api-token.guard';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { CommandResultSchema, DeviceInfoSchema, DeviceListSchema } from '../openapi/device.schemas';
import { COMMAND_DTOS, CommandBaseDto, ScreenshotOptionsDto } from './command.dto';

/** The command body classes, one per schema (`back`, `home` and `ui_tree` share one). */
const COMMAND_BODY_DTOS = [...new Set(Object.values(COMMAND_DTOS))];

/** `deviceId` path parameter. */
const DeviceIdParam = ApiParam({ name: 'deviceId', description: 'The phone\'s id, as it announced itself in `hello`.', example: 'sim-1' });

/**
 * Errors of any call that reaches a phone (MobileClawService.execute): its command codes but
 * `VALIDATION_FAILED` and `STALE_FRAME`, which routes list where they apply, and `ABORTED`, which
 * only a client that has gone away gets.
 */
const COMMAND_ERRORS = ['DEVICE_NOT_FOUND', 'DEVICE_BUSY', 'PAYLOAD_TOO_LARGE', 'DEVICE_ERROR', 'PROTOCOL_ERROR', 'DEVICE_DISCONNECTED', 'DEVICE_REPLACED', 'SHUTTING_DOWN', 'TIMEOUT'] as const satisfies readonly CommandErrorCode[];

/**
 * Devices and their commands over REST. Errors are problem details with a stable
 * `code` (see ProblemDetailsFilter).
 */
@ApiTags('devices')
@ApiProblemResponses('UNAUTHORIZED')
@ApiExtraModels(...COMMAND_BODY_DTOS)
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/devices')
export class DevicesController {
  constructor(
    private readonly mobileClaw: MobileClawService,
    @Optional() private readonly streams: EventStreamMetrics = new NoEventStreamMetrics(),
    /** The phones' takeover leases: shown as `controller`, reported as `device.controller` events, and refusing actions while held. */
    @Optional() private readonly leases?: ControlLeases,
  ) {}

  /** `GET /api/devices` → `{devices: DeviceInfo[]}`, online phones first. */
  @Get()
  @ApiOperation({ summary: 'List the phones', description: 'Every phone the gateway has seen, online ones first.' })
  @ApiOkResponse({ type: DeviceListSchema })
  async list(): Promise<{ devices: DeviceInfo[] }> {
    return { devices: (await this.mobileClaw.listDevices()).map((device) => this.withController(device)) };
  }

  /**
   * `GET /api/devices/events` — Server-Sent Events for dashboards: first `devices` (data `{devices}`,
   * the current list), then every device event live under its type (`device.connected`,
   * `device.disconnected`, `device.status`, `device.heartbeat` with `rttMs`, `device.controller` when a
   * person takes a phone over or it comes back, …). Ids count per stream.
   * The list is asked for before the live subscription starts, and events that arrive while it is
   * awaited are sent after it, so nothing after the list is missed. If the list cannot be read, the
   * stream sends one `error` event `{code, message}` and ends.
   */
  @Get('events')
  @ApiOperation({
    summary: 'Follow the phones live (Server-Sent Events)',
    description: 'First `devices` (data `{devices}`), then `device.connected`, `device.disconnected`, `device.status`, `device.heartbeat` (`rttMs`), `device.controller` (`controller`: who took the phone over, or null once it is back; `reason`), … with ids counting per stream.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An endless `text/event-stream`.', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  async deviceEvents(@Req() request: Request, @Res() response: Response): Promise<void> {
    const listing = this.mobileClaw.listDevices();
    const stream = new SseStream(request, response);
    this.streams.clientConnected('devices');
    stream.onClose(() => this.streams.clientDisconnected('devices'));
    let id = 0;
    let held: DeviceEvent[] | undefined = [];
    let ended = false;
    const events$ = this.leases ? merge(this.mobileClaw.events$, this.leases.changes$) : this.mobileClaw.events$;
    const subscription = events$.subscribe({
      next: (event) => (held ? held.push(event) : stream.send(event.type, event, ++id)),
      complete: () => {
        ended = true;
        if (!held) stream.close();
      },
    });
    stream.onClose(() => subscription.unsubscribe());
    let devices: DeviceInfo[];
    try {
      devices = await listing;
    } catch (err) {
      stream.send('error', { code: err instanceof MobileClawError ? err.code : 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) });
      stream.close();
      return;
    }
    stream.send('devices', { devices: devices.map((device) => this.withController(device)) }, ++id);
    for (const event of held.splice(0)) stream.send(event.type, event, ++id);
    held = undefined;
    if (ended) stream.close();
  }

  /** `GET /api/devices/:deviceId` → DeviceInfo. @throws DEVICE_NOT_FOUND (404). */
  @Get(':deviceId')
  @ApiOperation({ summary: 'Get one phone' })
  @DeviceIdParam
  @ApiOkResponse({ type: DeviceInfoSchema })
  @ApiProblemResponses('DEVICE_NOT_FOUND')
  async get(@Param('deviceId') deviceId: string): Promise<DeviceInfo> {
    return this.withController(await this.mobileClaw.getDevice(deviceId));
  }

  /**
   * `POST /api/devices/:deviceId/commands` with `{command, …args, timeoutMs?, frameId?}` →
   * 200 `{requestId, deviceId, command, status, data, durationMs, queuedMs}`.
   * While a person holds the phone (a takeover), actions fail 409 `DEVICE_CONTROLLED` (`controller`
   * says who, since when) and are not sent; `screenshot` and `ui_tree` still run.
   * @throws VALIDATION_FAILED (400), DEVICE_CONTROLLED (409) and every error of MobileClawService.execute.
   */
  @Post(':deviceId/commands')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Execute one command on the phone',
    description: 'The body is one command, chosen by `command`; coordinates in device px of the current rotation, durations in ms. If the client disconnects, the command is withdrawn (queued) or cancelled (in flight). While a person holds the phone (takeover), actions answer 409 `DEVICE_CONTROLLED`; `screenshot` and `ui_tree` still run.',
  })
  @DeviceIdParam
  @ApiBody({
    required: true,
    schema: {
      oneOf: COMMAND_BODY_DTOS.map((dto) => ({ $ref: getSchemaPath(dto) })),
      discriminator: { propertyName: 'command', mapping: Object.fromEntries(Object.entries(COMMAND_DTOS).map(([name, dto]) => [name, getSchemaPath(dto)])) },
    },
  })
  @ApiOkResponse({ type: CommandResultSchema, description: 'The phone executed the command.' })
  @ApiProblemResponses('VALIDATION_FAILED', 'STALE_FRAME', 'DEVICE_CONTROLLED', 'UNSUPPORTED_MEDIA_TYPE', ...COMMAND_ERRORS)
  async execute(@Param('deviceId') deviceId: string, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<CommandResult> {
    const name = (body as { command?: unknown } | null)?.command;
    const dto = typeof name === 'string' && (COMMAND_NAMES as string[]).includes(name) ? COMMAND_DTOS[name as CommandName] : CommandBaseDto;
    const { timeoutMs, frameId, ...command } = validateDto(dto, body);
    if ((AGENT_ACTION_NAMES as string[]).includes(command.command)) this.leases?.assertFree(deviceId);
    return this.mobileClaw.execute(deviceId, command as Command, { timeoutMs, frameId, signal: clientGone(response) });
  }

  /** The phone's record with `controller` while a person holds it. */
  private withController(device: DeviceInfo): DeviceInfo {
    const lease = this.leases?.current(device.deviceId);
    return lease ? { ...device, controller: controllerOf(lease) } : device;
  }

  /**
   * `GET /api/devices/:deviceId/screenshot?format=png|jpeg&quality=&maxWidth=` → the image bytes
   * with their `Content-Type`; headers `X-Frame-Id`, `X-Request-Id`, `X-Screen-Width/Height` (px).
   */
  @Get(':deviceId/screenshot')
  @ApiOperation({ summary: 'Capture the screen', description: 'The image bytes; headers `X-Request-Id`, `X-Frame-Id` (when the phone gives one), `X-Image-Width`, `X-Image-Height` (px).' })
  @DeviceIdParam
  @ApiQuery({ type: ScreenshotOptionsDto })
  @ApiProduces('image/png', 'image/jpeg')
  @ApiOkResponse({
    description: 'The screenshot.',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
    headers: {
      'X-Request-Id': { description: 'The command request id.', schema: { type: 'string' } },
      'X-Frame-Id': { description: 'The frame the image shows; pass it as `frameId` to commands planned on it.', schema: { type: 'string' } },
      'X-Image-Width': { description: 'Image width in px.', schema: { type: 'integer' } },
      'X-Image-Height': { description: 'Image height in px.', schema: { type: 'integer' } },
    },
  })
  @ApiProblemResponses('VALIDATION_FAILED', ...COMMAND_ERRORS)
  async screenshot(@Param('deviceId') deviceId: string, @Query() query: unknown, @Res() response: Response): Promise<void> {
    const options = validateQuery(ScreenshotOptionsDto, query);
    const result = await this.mobileClaw.execute<ScreenshotData>(deviceId, { command: 'screenshot', ...options }, { signal: clientGone(response) });
    const { mime, base64, frameId, width, height } = result.data;
    const image = Buffer.from(base64, 'base64');
    response.setHeader('Content-Type', mime);
    response.setHeader('Content-Length', image.length);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Request-Id', result.requestId);
    if (frameId) response.setHeader('X-Frame-Id', frameId);
    response.setHeader('X-Image-Width', String(width));
    response.setHeader('X-Image-Height', String(height));
    response.end(image);
  }
}
