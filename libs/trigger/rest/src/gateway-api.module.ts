import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DevicesController } from './devices/devices.controller';
import { TakeoverController } from './devices/takeover.controller';
import { ClusterHealthIndicator } from './health/cluster.health';
import { DeviceListenersHealthIndicator } from './health/device-listeners.health';
import { DevicesHealthIndicator } from './health/devices.health';
import { PlannerHealthIndicator } from './health/planner.health';
import { TasksStoreHealthIndicator } from './health/tasks-store.health';
import { ApiTokenGuard, GATEWAY_API_OPTIONS, type GatewayApiOptions } from './http/api-token.guard';
import { HealthController } from './http/health.controller';
import { MetricsController } from './http/metrics.controller';
import { ProbesController } from './http/probes.controller';
import { REST_ROUTE_METHODS, RouteMethods } from './http/route-methods';
import { PairingController } from './pairing/pairing.controller';
import { PairingService } from './pairing/pairing.service';
import { PAIRING_OPTIONS } from './pairing/pairing.options';
import { TasksController } from './tasks/tasks.controller';
import { OpenClawToolsController } from './tools/openclaw-tools.controller';
import { ToolsController } from './tools/tools.controller';
import { SkillsController, TaskSkillController } from './skills/learned-skills.controller';
import { MemoryController } from './memory/memory.controller';

/**
 * The REST trigger layer: controllers, bearer guard, problem-details errors, health checks, the
 * probes (`/health/live`, `/health/ready`, see {@link ProbesController}) and `/metrics` (the host's
 * `MetricsExposition`, see {@link MetricsController}), `/api/pairing` (a new phone's pairing link and
 * QR code, see {@link PairingController}, given `options.pairing`), `/api/tools` and the
 * OpenClaw-compatible `/tools/invoke` (the case layer's `ToolRegistry` when one is provided, else an
 * empty one; see {@link ToolsController}, {@link OpenClawToolsController}), `/api/memory` (the case
 * layer's `MemoryService` when one is provided, else 404; see {@link MemoryController}). Needs a
 * `MobileClawService` provider in scope (import `MobileClawModule` with `isGlobal: true`) and, for
 * `/api/tasks`, `/api/health` and the takeover routes, the case layer's `TaskService` and
 * `TakeoverService` and the `TaskRepository` port (import `TaskCaseModule` and the store's module
 * globally); with a `ControlLeases` provider (`DeviceControlModule`), devices show their `controller`
 * and refuse commands while a person holds them. The OpenAPI document is served by
 * {@link setupOpenApi}, called on the app.
 *
 * The bearer guard and the problem-details filter are scoped to this module's controllers, so other
 * faces of the same app (MCP, A2A, WebSocket) keep their own authentication and error formats. Errors
 * raised before any controller is chosen (unknown route, unparsable body) reach only global filters:
 * the host registers {@link ProblemDetailsFilter} as `APP_FILTER` to answer those as problem details
 * (it gets this module's exported {@link REST_ROUTE_METHODS} to answer 405 for a known path under
 * another method). The host installs {@link apiTokenMiddleware} before its body parser, so that the
 * token is checked before a body is read; the guard applies the same check to the controllers.
 */
const CONTROLLERS = [DevicesController, TakeoverController, TasksController, ToolsController, OpenClawToolsController, HealthController, ProbesController, MetricsController, PairingController, TaskSkillController, SkillsController, MemoryController];

@Module({})
export class GatewayApiModule {
  static forRoot(options: GatewayApiOptions = {}): DynamicModule {
    return {
      module: GatewayApiModule,
      imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
      controllers: CONTROLLERS,
      providers: [
        { provide: GATEWAY_API_OPTIONS, useValue: options },
        ...(options.pairing ? [{ provide: PAIRING_OPTIONS, useValue: options.pairing }] : []),
        PairingService,
        { provide: REST_ROUTE_METHODS, useValue: RouteMethods.fromControllers(CONTROLLERS) },
        ApiTokenGuard,
        DevicesHealthIndicator,
        TasksStoreHealthIndicator,
        DeviceListenersHealthIndicator,
        PlannerHealthIndicator,
        ClusterHealthIndicator,
      ],
      // For the host's global ProblemDetailsFilter: 405 with `Allow` for a known path under another method.
      exports: [REST_ROUTE_METHODS],
    };
  }
}
