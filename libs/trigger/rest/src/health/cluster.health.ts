import { Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ClusterMember } from '@mobileclaw/domain';

/**
 * Health indicator `cluster` (cluster mode only, see {@link enabled}): this instance takes part in its
 * cluster. Up when the link to the cluster's server is up and this instance's heartbeat renews, e.g.
 * `{status: 'up', instanceId: 'gw-1', link: 'up', heartbeat: 'renewing'}`; down with the same details
 * otherwise (`link: 'down'`, `heartbeat: 'failing' | 'replaced' | 'closed'`). Never throws.
 */
@Injectable()
export class ClusterHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Optional() private readonly member?: ClusterMember,
  ) {}

  /** Whether the host runs in cluster mode (provides a {@link ClusterMember}). */
  get enabled(): boolean {
    return this.member !== undefined;
  }

  check<const Key extends string>(key: Key): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    if (this.member === undefined) return session.up();
    const state = this.member.state();
    const details = { instanceId: state.instanceId, link: state.link, heartbeat: state.heartbeat };
    return state.link === 'up' && state.heartbeat === 'renewing' ? session.up(details) : session.down(details);
  }
}
