import { Module, type DynamicModule } from '@nestjs/common';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';
import { DeviceControlService } from './device-control.service';

export interface DeviceControlModuleOptions {
  options?: Partial<DeviceControlOptions>;
  imports?: DynamicModule['imports'];
  /** Register `DeviceControlService` globally, so that every trigger module sees it. */
  isGlobal?: boolean;
}

/**
 * Direct phone control as a Nest module. The host provides the ports `MobileClawService` and
 * `ScreenImageEncoder` (from `@mobileclaw/domain`), globally or through `imports`, and may provide `Clock`.
 */
@Module({})
export class DeviceControlModule {
  static forRoot({ options = {}, imports = [], isGlobal = false }: DeviceControlModuleOptions = {}): DynamicModule {
    return {
      module: DeviceControlModule,
      global: isGlobal,
      imports,
      providers: [{ provide: DEVICE_CONTROL_OPTIONS, useValue: { ...DEFAULT_DEVICE_CONTROL_OPTIONS, ...options } }, DeviceControlService],
      exports: [DeviceControlService],
    };
  }
}
