import { Injectable, Module, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { MobileClawService } from '@mobileclaw/domain';
import { DeviceHub } from '../device/device-hub';
import { TcpDeviceListener } from '../tcp/tcp-device-listener';
import { ConfigurableModuleClass, MOBILECLAW_MODULE_OPTIONS, type MobileClawModuleOptions } from './mobileclaw.module-definition';

/** Opens the device port when the app starts; on shutdown stops accepting and fails pending calls with `SHUTTING_DOWN`. */
@Injectable()
export class DeviceGatewayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly hub: DeviceHub,
    private readonly listener: TcpDeviceListener,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.hub.options.listen) await this.listener.listen(this.hub.options.devicePort, this.hub.options.deviceHost);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const closing = this.listener.close();
    this.hub.shutdown();
    await closing;
  }
}

/**
 * The MobileClaw device gateway as a Nest dynamic module: import it with
 * `MobileClawModule.forRoot({deviceToken, …})` or `forRootAsync({useFactory, inject})` and inject
 * {@link MobileClawService}. It opens the TCP device port (default 7397) on application bootstrap.
 * Built with `ConfigurableModuleBuilder` (Nest docs, "Configurable module builder"); pass
 * `isGlobal: true` to share it app-wide.
 */
@Module({
  providers: [
    {
      provide: DeviceHub,
      inject: [MOBILECLAW_MODULE_OPTIONS],
      useFactory: (options: MobileClawModuleOptions) => new DeviceHub(options),
    },
    { provide: TcpDeviceListener, inject: [DeviceHub], useFactory: (hub: DeviceHub) => new TcpDeviceListener(hub) },
    { provide: MobileClawService, useExisting: DeviceHub },
    DeviceGatewayLifecycle,
  ],
  exports: [MobileClawService, DeviceHub, TcpDeviceListener],
})
export class MobileClawModule extends ConfigurableModuleClass {}

