import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { MobileClawService } from '@mobileclaw/domain';

/**
 * Health indicator `devices`: how many phones are connected (`online` or `busy`). Up whenever the
 * device directory answers — a gateway with no phone is still serving; the count is information,
 * e.g. `{devices: {status: 'up', online: 1}}`. Down as `{status: 'down', message}` only when the
 * directory cannot be read (never with the in-process hub). Never throws.
 */
@Injectable()
export class DevicesHealthIndicator {
  constructor(
    private readonly mobileClaw: MobileClawService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /**
   * Number of connected phones.
   * @throws what `MobileClawService.listDevices` throws.
   */
  async onlineCount(): Promise<number> {
    return (await this.mobileClaw.listDevices()).filter((device) => device.status !== 'offline').length;
  }

  async check<const Key extends string>(key: Key): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    try {
      return session.up({ online: await this.onlineCount() });
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
