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
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MOBILECLAW_MODULE_OPTIONS, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<MobileClawModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .build();
