import { Module, type DynamicModule } from '@nestjs/common';
import { DEFAULT_DEVICE_CONTROL_OPTIONS, DEVICE_CONTROL_OPTIONS, type DeviceControlOptions } from './device-control.options';
import { DeviceControlService } from './device-control.service';
import { LIVE_SCREEN_OPTIONS, LiveScreenService, type LiveScreenOptions } from './live-screen';

export interface DeviceControlModuleOptions {
  options?: Partial<DeviceControlOptions>;
  /** Settings of the live screen ({@link LiveScreenService}). */
  liveScreen?: Partial<LiveScreenOptions>;
  imports?: DynamicModule['imports'];
  /** Register `DeviceControlService` and `LiveScreenService` globally, so that every trigger module sees it. */
  isGlobal?: boolean;
}

/**
 * Direct phone control and the live screen as a Nest module. The host provides the ports `MobileClawService` and
 * `ScreenImageEncoder` (from `@mobileclaw/domain`), globally or through `imports`, and may provide `Clock`.
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
        { provide: LIVE_SCREEN_OPTIONS, useValue: liveScreen },
        DeviceControlService,
        LiveScreenService,
      ],
      exports: [DeviceControlService, LiveScreenService],
    };
  }
}
