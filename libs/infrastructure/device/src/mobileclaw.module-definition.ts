import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { DeviceTransport } from './frame-transport';
import type { DeviceGatewayOptions } from './options';

/**
 * Options of {@link MobileClawModule}: the device gateway tunables (see {@link DeviceGatewayOptions})
 * and the transports phones connect through.
 */
export interface MobileClawModuleOptions extends DeviceGatewayOptions {
  /**
   * Where phones connect, e.g. `[new TcpDeviceTransport({ port: 7397 })]` from
   * `@mobileclaw/transport-tcp`. Each is started on application bootstrap and stopped on shutdown.
   * Empty or absent: no listener (phones cannot connect; useful for hosts that only inspect).
   */
  transports?: DeviceTransport[];
  /**
   * When a transport cannot start (e.g. its port is taken): undefined (default) fails the app's start;
   * a number of ms lets the app start anyway and starts that transport again every so often until
   * it listens (`DeviceListeners` reports it not listening meanwhile).
   */
  listenRetryMs?: number;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MOBILECLAW_MODULE_OPTIONS, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<MobileClawModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .build();
