import { Module, type DynamicModule } from '@nestjs/common';
import { ControlLeases } from '@mobileclaw/domain';
import { ControlLeaseRegistry } from './control-lease-registry';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';
import { DeviceControlService } from './device-control.service';
import { LIVE_SCREEN_OPTIONS, LiveScreenService, type LiveScreenOptions } from './live-screen';

export interface DeviceControlModuleOptions {
  options?: Partial<DeviceControlOptions>;
  /** Settings of the live screen ({@link LiveScreenService}). */
  liveScreen?: Partial<LiveScreenOptions>;
  imports?: DynamicModule['imports'];
  /** Register `DeviceControlService`, `ControlLeases` and `LiveScreenService` globally, so that every trigger module (and the task workflow) sees them. */
  isGlobal?: boolean;
}

/**
 * Direct phone control and the live screen as a Nest module. The host provides the ports `MobileClawService` and
 * `ScreenImageEncoder` (from `@mobileclaw/domain`), globally or through `imports`, and may provide `Clock`.
 * It provides `ControlLeases` (the phones' takeover leases, a {@link ControlLeaseRegistry}), which
 * `DeviceControlService` checks before each action.
 */
@Module({})
export class DeviceControlModule {
  static forRoot({ options = {}, liveScreen = {}, imports = [], isGlobal = false }: DeviceControlModuleOptions = {}): DynamicModule {
    return {
      module: DeviceControlModule,
      global: isGlobal,
      imports,
      providers: [
        { provide: DEVICE_CONTROL_OPTIONS, useValue: { ...DEFAULT_DEVICE_CONTROL_OPTIONS, ...options } },
        ControlLeaseRegistry,
        { provide: ControlLeases, useExisting: ControlLeaseRegistry },
        { provide: LIVE_SCREEN_OPTIONS, useValue: liveScreen },
        DeviceControlService,
        LiveScreenService,
      ],
      exports: [DeviceControlService, ControlLeases, LiveScreenService],
    };
  }
}
