import { Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { MobileClawService } from '@mobileclaw/domain';
import { DeviceHub } from './device-hub';
import type { DeviceTransport } from './frame-transport';
import { ConfigurableModuleClass, MOBILECLAW_MODULE_OPTIONS, type MobileClawModuleOptions } from './mobileclaw.module-definition';

/** DI token of the module's started transports (`DeviceTransport[]`, in the order given). */
export const DEVICE_TRANSPORTS = Symbol('mobileclaw.deviceTransports');

/**
 * Starts every transport when the app starts (in order; if one fails, those already started are
 * stopped and the error propagates); on shutdown stops them all and fails pending calls with
 * `SHUTTING_DOWN`.
 */
@Injectable()
export class DeviceGatewayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MobileClaw');
  private readonly started: DeviceTransport[] = [];

  constructor(
    private readonly hub: DeviceHub,
    @Inject(DEVICE_TRANSPORTS) private readonly transports: DeviceTransport[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const transport of this.transports) {
      try {
        await transport.start(this.hub);
        this.started.push(transport);
      } catch (err) {
        await this.stopStarted();
        throw err;
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    const closing = this.stopStarted();
    this.hub.shutdown();
    await closing;
  }

  private async stopStarted(): Promise<void> {
    const started = this.started.splice(0);
    const results = await Promise.allSettled(started.map((t) => t.stop()));
    results.forEach((r, i) => {
      if (r.status === 'rejected') this.logger.error(`stopping the ${started[i].name} transport failed: ${String(r.reason)}`);
    });
  }
}

/**
 * The MobileClaw device gateway as a Nest dynamic module: import it with
 * `MobileClawModule.forRoot({deviceToken, transports: [...]})` or `forRootAsync({useFactory, inject})`
 * and inject {@link MobileClawService}. Built with `ConfigurableModuleBuilder`; pass
 * `isGlobal: true` to share it app-wide. The transports are started on application bootstrap.
 */
@Module({
  providers: [
    {
      provide: DeviceHub,
      inject: [MOBILECLAW_MODULE_OPTIONS],
      useFactory: (options: MobileClawModuleOptions) => {
        const { transports: _transports, ...gateway } = options;
        return new DeviceHub(gateway);
      },
    },
    { provide: DEVICE_TRANSPORTS, inject: [MOBILECLAW_MODULE_OPTIONS], useFactory: (options: MobileClawModuleOptions) => [...(options.transports ?? [])] },
    { provide: MobileClawService, useExisting: DeviceHub },
    DeviceGatewayLifecycle,
  ],
  exports: [MobileClawService, DeviceHub, DEVICE_TRANSPORTS],
})
export class MobileClawModule extends ConfigurableModuleClass {}
