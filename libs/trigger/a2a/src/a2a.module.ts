import { Module, type DynamicModule } from '@nestjs/common';
import { A2aHttpEndpoint } from './a2a-http.endpoint';
import { PushNotificationDispatcher } from './push-notification-dispatcher';
import { A2A_OPTIONS, type A2aOptions } from './a2a.options';

/**
 * The A2A face as a Nest module: the endpoint and the push notification dispatcher. The host
 * provides `TaskService` and `IdempotentCreation` (the task module), `MobileClawService`, a
 * `PushNotificationConfigStore` and a `PushDeliveryOutbox` (e.g. `InMemoryPushNotificationConfigStore`
 * and `InMemoryPushDeliveryOutbox`; durable ones keep webhooks and pending notifications across
 * restarts) globally, and mounts {@link A2aHttpEndpoint.middleware} on its HTTP server before any
 * body parser.
 */
@Module({})
export class A2aModule {
  static forRoot(options: A2aOptions): DynamicModule {
    return {
      module: A2aModule,
      providers: [
        { provide: A2A_OPTIONS, useValue: options },
        A2aHttpEndpoint,
        PushNotificationDispatcher,
      ],
      exports: [A2aHttpEndpoint],
    };
  }
}
