import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { COMMAND_NAMES, MobileClawService, type Command, type CommandName, type CommandResult, type DeviceInfo, type ScreenshotData } from '@mobileclaw/domain';
import { SseStream } from '../http/sse-stream';
import { validateDto } from '../http/validation';
import { COMMAND_DTOS, CommandBaseDto, ScreenshotOptionsDto } from './command.dto';

/** An AbortSignal that fires when the HTTP client goes away before the answer (the command is then withdrawn). */
function clientGone(response: Response): AbortSignal {
  const controller = new AbortController();
  // The response closes when the connection does; unfinished means nobody will read the answer.
  // (The request's own 'close' fires as soon as its body is read, so it cannot tell.)
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Devices and their commands (issue "Gateway core", REST). Errors are problem details with a stable
 * `code` (see ProblemDetailsFilter).
 */
@Controller('api/devices')
export class DevicesController {
  constructor(private readonly mobileClaw: MobileClawService) {}

  /** `GET /api/devices` → `{devices: DeviceInfo[]}`, online phones first. */
  @Get()
  list(): { devices: DeviceInfo[] } {
    return { devices: this.mobileClaw.listDevices() };
  }

  /**
   * `GET /api/devices/events` — Server-Sent Events for dashboards: first `devices` (data `{devices}`,
   * the current list), then every device event live under its type (`device.connected`,
   * `device.disconnected`, `device.status`, `device.heartbeat` with `rttMs`, …). Ids count per stream.
   */
  @Get('events')
  deviceEvents(@Req() request: Request, @Res() response: Response): void {
    const stream = new SseStream(request, response);
    let id = 0;
    stream.send('devices', { devices: this.mobileClaw.listDevices() }, ++id);
    const subscription = this.mobileClaw.events$.subscribe({
      next: (event) => stream.send(event.type, event, ++id),
      complete: () => stream.close(),
    });
    stream.onClose(() => subscription.unsubscribe());
  }

  /** `GET /api/devices/:deviceId` → DeviceInfo. @throws DEVICE_NOT_FOUND (404). */
  @Get(':deviceId')
  get(@Param('deviceId') deviceId: string): DeviceInfo {
    return this.mobileClaw.getDevice(deviceId);
  }

  /**
   * `POST /api/devices/:deviceId/commands` with `{command, …args, timeoutMs?, frameId?}` →
   * 200 `{requestId, deviceId, command, status, data, durationMs, queuedMs}`.
   * @throws VALIDATION_FAILED (400) and every error of MobileClawService.execute.
   */
  @Post(':deviceId/commands')
  @HttpCode(200)
  async execute(@Param('deviceId') deviceId: string, @Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<CommandResult> {
    const name = (body as { command?: unknown } | null)?.command;
    const dto = typeof name === 'string' && (COMMAND_NAMES as string[]).includes(name) ? COMMAND_DTOS[name as CommandName] : CommandBaseDto;
    const { timeoutMs, frameId, ...command } = validateDto(dto, body);
    return this.mobileClaw.execute(deviceId, command as Command, { timeoutMs, frameId, signal: clientGone(response) });
  }

  /**
   * `GET /api/devices/:deviceId/screenshot?format=png|jpeg&quality=&maxWidth=` → the image bytes
   * with their `Content-Type`; headers `X-Frame-Id`, `X-Request-Id`, `X-Screen-Width/Height` (px).
   */
  @Get(':deviceId/screenshot')
  async screenshot(@Param('deviceId') deviceId: string, @Query() query: unknown, @Res() response: Response): Promise<void> {
    const options = validateDto(ScreenshotOptionsDto, query);
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
