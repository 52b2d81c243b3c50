import { Controller, Get, Res, ServiceUnavailableException, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import type { Response } from 'express';
import { ClusterHealthIndicator } from '../health/cluster.health';
import { DeviceListenersHealthIndicator } from '../health/device-listeners.health';
import { PlannerHealthIndicator } from '../health/planner.health';
import { TasksStoreHealthIndicator } from '../health/tasks-store.health';
import { ProblemDetailsFilter } from './problem-details.filter';

/** Where the probes answer. */
export const LIVENESS_PATH = '/health/live';
export const READINESS_PATH = '/health/ready';

/**
 * The probes of an orchestrator (Kubernetes, a load balancer), beside `GET /api/health`. No token:
 * probes seldom can send one, and the answers say only up or down (and why), never a task or a phone.
 * Not in the OpenAPI document: they belong to the operator, not to the API.
 *
 * - `GET /health/live`: 200 `{status: 'ok'}` whenever the process answers HTTP.
 * - `GET /health/ready`: a @nestjs/terminus check of `device-listener` (every phone transport
 *   listens), `tasks-store` (the store can take writes), `planner` (a planner is configured) and,
 *   in cluster mode, `cluster` (the cluster link is up and this instance's heartbeat renews). 200
 *   with `{status: 'ok', info, error, details}` when all are up; 503 with the same shape (`status:
 *   'error'`, the failed checks under `error`) when one is down, and `shutting_down` once the gateway
 *   stops, so that traffic moves away before the listeners close.
 */
@ApiExcludeController()
@UseFilters(ProblemDetailsFilter)
@Controller('health')
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly listeners: DeviceListenersHealthIndicator,
    private readonly tasksStore: TasksStoreHealthIndicator,
    private readonly planner: PlannerHealthIndicator,
    private readonly cluster: ClusterHealthIndicator,
  ) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  async ready(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.listeners.check('device-listener'),
        () => this.tasksStore.checkWritable('tasks-store'),
        () => this.planner.check('planner'),
        ...(this.cluster.enabled ? [() => this.cluster.check('cluster')] : []),
      ]);
    } catch (error) {
      // Terminus reports a failed check as a 503 carrying its result: answered as is, the same shape as a 200.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
