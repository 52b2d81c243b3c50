/**
 * This gateway instance's standing in its cluster: `link` is the connection to the cluster's message
 * server, `heartbeat` how renewing this instance's key fares (`renewing`; `failing`: the last renewal
 * failed; `replaced`: another process took this instance id; `closed`: the instance left).
 */
export interface ClusterMemberState {
  instanceId: string;
  link: 'up' | 'down';
  heartbeat: 'renewing' | 'failing' | 'replaced' | 'closed';
}

/**
 * This instance as a member of a cluster of gateways: readiness probes ask whether it takes part.
 * Provided only in cluster mode (by the cluster infrastructure).
 */
export abstract class ClusterMember {
  /** The state now. Never throws. */
  abstract state(): ClusterMemberState;
}
