import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { DeviceGatewayOptions } from '../device/options';

/** Options of {@link MobileClawModule}: the device gateway tunables (see {@link DeviceGatewayOptions}). */
export type MobileClawModuleOptions = DeviceGatewayOptions;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MOBILECLAW_MODULE_OPTIONS, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<MobileClawModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
    .build();
