import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { MobileClawService } from '@mobileclaw/domain';

/**
 * Health indicator `devices`: how many phones are connected (`online` or `busy`). Always up — a
 * gateway with no phone is still serving; the count is information, e.g. `{devices: {status: 'up', online: 1}}`.
 */
@Injectable()
export class DevicesHealthIndicator {
  constructor(
    private readonly mobileClaw: MobileClawService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** Number of connected phones. */
  onlineCount(): number {
    return this.mobileClaw.listDevices().filter((device) => device.status !== 'offline').length;
  }

  check<const Key extends string>(key: Key): HealthIndicatorResult<Key, 'up', { online: number }> {
    return this.indicators.check(key).up({ online: this.onlineCount() });
  }
}
