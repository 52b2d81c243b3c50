import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { COMMAND_NAMES, type CommandName, type DeviceStatus } from '@mobileclaw/domain';

/**
 * OpenAPI schemas of the device answers. They mirror the domain interfaces (`ScreenInfo`,
 * `DeviceInfo`, `CommandResult` in @mobileclaw/domain) for documentation only; nothing is validated
 * or built with them.
 */

const DEVICE_STATUSES: DeviceStatus[] = ['online', 'busy', 'offline'];

@ApiSchema({ name: 'ScreenInfo', description: 'Screen geometry in px.' })
export class ScreenInfoSchema {
  @ApiProperty({ type: 'integer', description: 'Width in px, in the current rotation.', example: 1080 })
  width!: number;

  @ApiProperty({ type: 'integer', description: 'Height in px, in the current rotation.', example: 2400 })
  height!: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Screen density in dots per inch.', example: 420 })
  densityDpi?: number;

  @ApiPropertyOptional({ type: 'integer', enum: [0, 1, 2, 3], description: 'Quarter turns (Android `Surface.ROTATION_*`).', example: 0 })
  rotation?: number;
}

@ApiSchema({ name: 'DeviceClient' })
export class DeviceClientSchema {
  @ApiPropertyOptional({ description: 'Name of the app that connects the phone.' })
  name?: string;

  @ApiPropertyOptional({ description: 'Its version.' })
  version?: string;
}

@ApiSchema({ name: 'DeviceController', description: 'Who holds a phone a person has taken over. Times are ISO-8601.' })
export class DeviceControllerSchema {
  @ApiProperty({ description: 'The holder\'s display name.', example: 'Ada' })
  holder!: string;

  @ApiProperty({ format: 'date-time', description: 'When they took the phone.' })
  since!: string;

  @ApiProperty({ format: 'date-time', description: 'When the lease runs out unless renewed.' })
  expiresAt!: string;
}

@ApiSchema({ name: 'DeviceInfo', description: 'A phone known to the gateway. Times are ISO-8601.' })
export class DeviceInfoSchema {
  @ApiProperty({ example: 'sim-1' })
  deviceId!: string;

  @ApiProperty({ enum: DEVICE_STATUSES, description: '`busy` while a command runs.' })
  status!: DeviceStatus;

  @ApiPropertyOptional({ example: 'MobileClaw Sim' })
  model?: string;

  @ApiPropertyOptional({ example: 'MobileClaw' })
  manufacturer?: string;

  @ApiPropertyOptional({ description: 'Android version string.', example: '14' })
  android?: string;

  @ApiPropertyOptional({ type: () => ScreenInfoSchema })
  screen?: ScreenInfoSchema;

  @ApiProperty({ type: [String], description: 'Commands and features the phone announced.' })
  capabilities!: string[];

  @ApiPropertyOptional({ type: () => DeviceClientSchema })
  client?: DeviceClientSchema;

  @ApiProperty({ description: "Current (or last) session id; changes on every reconnect. Empty for a phone that never connected (see `statusReason`)." })
  sessionId!: string;

  @ApiPropertyOptional({ description: 'Address the phone connects from.', example: '::ffff:127.0.0.1:42456' })
  remoteAddress?: string;

  @ApiProperty({ format: 'date-time', description: 'When the phone connected or, for one that never could, when its host first reported it.' })
  connectedAt!: string;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt!: string;

  @ApiPropertyOptional({ format: 'date-time' })
  disconnectedAt?: string;

  @ApiPropertyOptional({ description: 'Last measured heartbeat round-trip, in ms.', minimum: 0 })
  rttMs?: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Commands waiting behind the one in flight.' })
  queueLength!: number;

  @ApiPropertyOptional({
    description: 'Why an offline phone cannot connect, when its host knows (e.g. a phone plugged in over USB that adb lists as `unauthorized` or `offline`). Absent for online phones and phones that simply went away.',
    example: 'adb: unauthorized — accept the "Allow USB debugging?" prompt on the phone',
  })
  statusReason?: string;

  @ApiPropertyOptional({ type: () => DeviceControllerSchema, description: 'Who holds the phone while a person has taken it over; absent when nobody does.' })
  controller?: DeviceControllerSchema;
}

@ApiSchema({ name: 'DeviceList' })
export class DeviceListSchema {
  @ApiProperty({ type: () => [DeviceInfoSchema], description: 'Online phones first.' })
  devices!: DeviceInfoSchema[];
}

@ApiSchema({ name: 'CommandResult', description: 'A command the phone executed.' })
export class CommandResultSchema {
  @ApiProperty({ example: '096a95ae-3' })
  requestId!: string;

  @ApiProperty({ example: 'sim-1' })
  deviceId!: string;

  @ApiProperty({ enum: COMMAND_NAMES as CommandName[], example: 'click' })
  command!: CommandName;

  @ApiProperty({ enum: ['success'] })
  status!: 'success';

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The phone\'s reply: `{hit}` for taps, `{mime, width, height, base64, frameId, screen}` for `screenshot`, `{frameId, screen, nodes}` for `ui_tree`.',
  })
  data!: Record<string, unknown>;

  @ApiProperty({ description: 'From the call to the reply, in ms (queue time included).', minimum: 0 })
  durationMs!: number;

  @ApiProperty({ description: 'Time spent waiting behind other commands to the same phone, in ms.', minimum: 0 })
  queuedMs!: number;
}

@ApiSchema({ name: 'Takeover', description: 'The caller\'s hold on a phone. Renew it (take it again with the same `holderId`) well within `leaseMs`.' })
export class TakeoverSchema extends DeviceControllerSchema {
  @ApiProperty({ example: 'sim-1' })
  deviceId!: string;

  @ApiProperty({ type: 'integer', description: 'How long the lease lasts from each renewal, in ms.', example: 30000 })
  leaseMs!: number;

  @ApiPropertyOptional({ description: 'The task paused by this takeover, when one runs on the phone.' })
  taskId?: string;
}

@ApiSchema({ name: 'TakeoverActionResult', description: 'What the phone did for the holder\'s action.' })
export class TakeoverActionResultSchema {
  @ApiProperty({ type: () => CommandResultSchema })
  result!: CommandResultSchema;

  @ApiPropertyOptional({ description: 'The task paused by this takeover, whose timeline holds the action as a `human` step.' })
  taskId?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'That step\'s index.' })
  stepIndex?: number;
}
