import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { MobileClawClientOptions } from '../client';

/**
 * Options of {@link MobileClawClientModule}: what `new MobileClawClient(options)` takes (`baseUrl`,
 * `apiToken`, `storeDir`, `toolCallStore`, `onToolApproval`, … — see the root entry), given to the client
 * unchanged. `isGlobal` (module option, not passed on) makes the client injectable everywhere.
 */
export type MobileClawClientModuleOptions = MobileClawClientOptions;

export const {
  ConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: MOBILECLAW_CLIENT_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<MobileClawClientModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();
