import { Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { DeviceListeners } from '@mobileclaw/domain';

/**
 * Health indicator `device-listener`: phones can connect. Up when every configured transport listens,
 * e.g. `{status: 'up', tcp: 'listening'}`; down when one does not, with why:
 * `{status: 'down', tcp: 'listen EADDRINUSE: address already in use :::7397'}`. Up with nothing else
 * when the host has no {@link DeviceListeners} or configured no transport. Never throws.
 */
@Injectable()
export class DeviceListenersHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Optional() private readonly listeners?: DeviceListeners,
  ) {}

  check<const Key extends string>(key: Key): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const states = this.listeners?.states() ?? [];
    const details = Object.fromEntries(states.map((s) => [s.transport, s.listening ? 'listening' : (s.error ?? 'not listening')]));
    return states.every((s) => s.listening) ? session.up(details) : session.down(details);
  }
}
