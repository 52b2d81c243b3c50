import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { DevicesController } from './devices/devices.controller';
import { DevicesHealthIndicator } from './health/devices.health';
import { TasksStoreHealthIndicator } from './health/tasks-store.health';
import { ApiTokenGuard, GATEWAY_API_OPTIONS, type GatewayApiOptions } from './http/api-token.guard';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { HealthController } from './http/health.controller';
import { TasksController } from './tasks/tasks.controller';

/**
 * The REST trigger layer: controllers, bearer guard, problem-details errors, health checks. Needs a
 * `MobileClawService` provider in scope (import `MobileClawModule` with `isGlobal: true`) and, for
 * `/api/tasks` and `/api/health`, the case layer's `TaskService` and the `TaskRepository` port
 * (import `TaskCaseModule` and the store's module globally). The OpenAPI document is served by
 * {@link setupOpenApi}, called on the app.
 */
@Module({})
export class GatewayApiModule {
  static forRoot(options: GatewayApiOptions = {}): DynamicModule {
    return {
      module: GatewayApiModule,
      imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
      controllers: [DevicesController, TasksController, HealthController],
      providers: [
        { provide: GATEWAY_API_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: ApiTokenGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        DevicesHealthIndicator,
        TasksStoreHealthIndicator,
      ],
    };
  }
}
