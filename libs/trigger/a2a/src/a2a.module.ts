import { Module, type DynamicModule } from '@nestjs/common';
import { A2aHttpEndpoint } from './a2a-http.endpoint';
import { A2A_OPTIONS, type A2aOptions } from './a2a.options';

/**
 * The A2A face as a Nest module. The host provides `TaskService` and `IdempotentCreation` (the task
 * module) and `MobileClawService` globally, and mounts {@link A2aHttpEndpoint.middleware} on its HTTP
 * server before any body parser.
 */
@Module({})
export class A2aModule {
  static forRoot(options: A2aOptions): DynamicModule {
    return { module: A2aModule, providers: [{ provide: A2A_OPTIONS, useValue: options }, A2aHttpEndpoint], exports: [A2aHttpEndpoint] };
  }
}
