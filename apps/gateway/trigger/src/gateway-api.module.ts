import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { DevicesController } from './devices/devices.controller';
import { ApiTokenGuard, GATEWAY_API_OPTIONS, type GatewayApiOptions } from './http/api-token.guard';
import { ProblemDetailsFilter } from './http/problem-details.filter';
import { HealthController } from './http/health.controller';
import { TasksController } from './tasks/tasks.controller';

/**
 * The REST trigger layer: controllers, bearer guard, problem-details errors. Needs a
 * `MobileClawService` provider in scope (import `MobileClawModule` with `isGlobal: true`) and, for
 * `/api/tasks`, the case layer's `TaskService` (import `TaskCaseModule` globally).
 */
@Module({})
export class GatewayApiModule {
  static forRoot(options: GatewayApiOptions = {}): DynamicModule {
    return {
      module: GatewayApiModule,
      controllers: [DevicesController, TasksController, HealthController],
      providers: [
        { provide: GATEWAY_API_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: ApiTokenGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
    };
  }
}
