import { Controller, Get, Res, ServiceUnavailableException, UseFilters, UseGuards } from '@nestjs/common';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import type { Response } from 'express';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DevicesHealthIndicator } from '../health/devices.health';
import { TasksStoreHealthIndicator } from '../health/tasks-store.health';
import { HealthCheckResultSchema } from '../openapi/health.schemas';
import { ApiTokenGuard } from './api-token.guard';
import { ProblemDetailsFilter } from './problem-details.filter';
import { ApiProblemResponses } from '../openapi/problem-details.schema';

/** `GET /api/health` body: the terminus result plus the number of connected phones. */
export type GatewayHealth = HealthCheckResult & { devicesOnline: number };

/**
 * `GET /api/health` — a @nestjs/terminus health check of `devices` (connected phones, always up)
 * and `tasks-store` (the task store answers a read). 200 `{status: 'ok', devicesOnline, info, error,
 * details}` when every check is up; 503 with the same body shape (`status: 'error'`, the failed
 * checks under `error`) when one is down, or `shutting_down` while the gateway stops.
 */
@ApiTags('health')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly devices: DevicesHealthIndicator,
    private readonly tasksStore: TasksStoreHealthIndicator,
  ) {}

  @Get()
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Health check', description: 'Checks `devices` (connected phones, always up) and `tasks-store` (the task database answers a read).' })
  @ApiResponse({ status: 200, description: 'Every check is up.', type: HealthCheckResultSchema })
  @ApiResponse({ status: 503, description: 'A check is down (`status: "error"`, details under `error`) or the gateway is shutting down.', type: HealthCheckResultSchema })
  @ApiProblemResponses('UNAUTHORIZED')
  async check(@Res({ passthrough: true }) response: Response): Promise<GatewayHealth> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.devices.check('devices'), () => this.tasksStore.check('tasks-store')]);
    } catch (error) {
      // Terminus reports a failed check as a 503 carrying its result; answer that body as is rather
      // than as problem details, so monitors read the same shape in both cases.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      result = error.getResponse() as HealthCheckResult;
    }
    // A down `devices` check carries no count: the directory could not be read, so none is known online.
    const online: unknown = result.details['devices']?.['online'];
    const { status, info, error, details } = result;
    return { status, devicesOnline: typeof online === 'number' ? online : await this.devices.onlineCount().catch(() => 0), info, error, details };
  }
}
