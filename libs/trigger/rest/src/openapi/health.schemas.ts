import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';

/** OpenAPI options of a map of indicator results, `{<key>: {status: 'up'|'down', …data}}`. */
const indicators = (description: string, example: Record<string, unknown>): ApiPropertyOptions => ({
  type: 'object',
  description,
  additionalProperties: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['up', 'down'] } }, additionalProperties: true },
  example,
});

const UP = { devices: { status: 'up', online: 1 }, 'tasks-store': { status: 'up' } };

/**
 * OpenAPI schema of `GET /api/health`: the @nestjs/terminus health check result (`status`, `info`,
 * `error`, `details`), plus `devicesOnline` kept from the earlier `{status, devicesOnline}` body.
 */
@ApiSchema({ name: 'HealthCheckResult', description: 'The terminus health check result; `status` is `ok` (200) or `error`/`shutting_down` (503).' })
export class HealthCheckResultSchema {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' })
  status!: 'ok' | 'error' | 'shutting_down';

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Connected phones (`online` or `busy`); the same as `details.devices.online`.', example: 1 })
  devicesOnline!: number;

  @ApiPropertyOptional(indicators('The indicators that are up.', UP))
  info?: Record<string, { status: string }>;

  @ApiPropertyOptional(indicators('The indicators that are down, each with its `message`.', { 'tasks-store': { status: 'down', message: 'The database connection is not open' } }))
  error?: Record<string, { status: string }>;

  @ApiProperty(indicators('Every indicator: `devices` (`online`: connected phones) and `tasks-store`.', UP))
  details!: Record<string, { status: string }>;
}
