import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ClusterDeviceService, connectCluster, DeviceDirectory, InstanceIdInUseError, NatsDeviceTaskLocks, NatsTaskControlRelay, NatsTaskEventBus, serversWithoutCredentials, type ClusterConnection } from '@mobileclaw/cluster-nats';
import { ClusterMember, DeviceTaskLocks, TaskControlRelay, TaskEventBus, TaskRepository } from '@mobileclaw/domain';
import { DeviceHub, MOBILECLAW_SERVICE_OVERRIDE } from '@mobileclaw/device';
import { GatewayStartError } from './gateway-start-error';

/** How this gateway instance joins a cluster of several (all of them share one NATS server or cluster). */
export interface GatewayClusterOptions {
  /** The NATS server URL(s), e.g. `nats://127.0.0.1:4222` (`MOBILECLAW_NATS_URL`); several separated by commas. */
  natsUrl: string;
  /** This instance's id, unique in the cluster (`MOBILECLAW_INSTANCE_ID`): the directory names phones' owners by it. */
  instanceId: string;
  /** First token(s) of every NATS subject. Default `mobileclaw`. */
  subjectPrefix?: string;
  /** An instance silent this long counts as gone, its phones offline, in ms. Default 15 000; one value for the whole cluster. */
  instanceTtlMs?: number;
  /**
   * The task lease (`MOBILECLAW_TASK_LEASE_MS`), in ms: a phone's task lock that its instance stopped
   * renewing expires after it. Default 30 000; one value for the whole cluster.
   */
  taskLeaseMs?: number;
  /**
   * The cluster as {@link joinCluster} joined it before the app was built (the app closes it on
   * shutdown). Default: the module joins while the app is built.
   */
  joined?: GatewayClusterMembership;
}

/** This instance's link to the cluster and its open device directory. */
export interface GatewayClusterMembership {
  connection: ClusterConnection;
  directory: DeviceDirectory;
}

/**
 * Connects to the cluster's NATS server and opens the device directory (this instance's key put,
 * the entries loaded) — before anything of the app starts, so that a failure leaves the other
 * instances' phones and tasks untouched. The errors are one line each, naming the variable to fix
 * and the servers without their credentials.
 * @throws Error `cannot reach the cluster's NATS server at MOBILECLAW_NATS_URL (…)` (refused, TLS
 *   required but not offered, authentication), `MOBILECLAW_INSTANCE_ID=… is in use by another live
 *   gateway process …`, or `cannot open the device directory …` (JetStream unavailable).
 */
export async function joinCluster(options: GatewayClusterOptions): Promise<GatewayClusterMembership> {
  const servers = serversWithoutCredentials(options.natsUrl);
  let connection: ClusterConnection;
  try {
    connection = await connectCluster({ url: options.natsUrl, instanceId: options.instanceId });
  } catch (err) {
    throw new GatewayStartError(`cannot reach the cluster's NATS server at MOBILECLAW_NATS_URL (${servers}): ${describe(err)}`, { cause: err });
  }
  try {
    const directory = await DeviceDirectory.open(connection.nc, { instanceId: options.instanceId, instanceTtlMs: options.instanceTtlMs, link$: connection.link$ });
    return { connection, directory };
  } catch (err) {
    await connection.close();
    if (err instanceof InstanceIdInUseError) {
      throw new GatewayStartError(
        `MOBILECLAW_INSTANCE_ID=${err.instanceId} is in use by another live gateway process (it renewed its key ${err.renewedAgoMs} ms ago): ` +
          'give every instance its own MOBILECLAW_INSTANCE_ID',
        { cause: err },
      );
    }
    throw new GatewayStartError(`cannot open the device directory on the cluster's NATS server at MOBILECLAW_NATS_URL (${servers}; JetStream must be enabled): ${describe(err)}`, { cause: err });
  }
}

/** DI token of this instance's {@link GatewayClusterMembership}. */
const CLUSTER_MEMBERSHIP = Symbol('gateway.clusterMembership');

/** DI token of this instance's {@link ClusterConnection}. */
export const CLUSTER_CONNECTION = Symbol('gateway.clusterConnection');

/** Closes the cluster service, the task event bus' subscription, the phones' task locks (renewals, watch), the directory (this instance's key deleted: the others see it gone at once) and the connection, in that order. */
@Injectable()
export class GatewayClusterLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('GatewayCluster');

  constructor(
    private readonly service: ClusterDeviceService,
    private readonly directory: DeviceDirectory,
    @Inject(TaskEventBus) private readonly taskEvents: NatsTaskEventBus,
    @Inject(DeviceTaskLocks) private readonly taskLocks: NatsDeviceTaskLocks,
    @Inject(CLUSTER_CONNECTION) private readonly connection: ClusterConnection,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.service.close();
    this.taskEvents.close();
    // The task service released its tasks' locks before (beforeApplicationShutdown): only the renewals and the watch stop here.
    this.taskLocks.close();
    await this.directory.close();
    await this.connection.close();
    this.logger.log(`instance ${this.connection.instanceId} left the cluster`);
  }
}

/**
 * Cluster mode: this instance's `MobileClawService` becomes a {@link ClusterDeviceService} over the
 * hub of `MobileClawModule` (provided as `MOBILECLAW_SERVICE_OVERRIDE`, which that module takes in
 * place of the hub), so every instance lists every phone of the cluster and reaches any of them. A
 * global module, imported beside a global `MobileClawModule`; the app's start fails when the cluster
 * cannot be joined (see {@link joinCluster}; the gateway joins before building the app, so that the
 * task service's start-up never runs for an instance id already in use). It also provides the
 * {@link ClusterMember} of the `cluster` readiness indicator, the
 * `TaskEventBus` (NATS: every instance streams every task) and the `TaskControlRelay` (cancels,
 * approvals and tool results reach the instance running a task) and the `DeviceTaskLocks` (one task per
 * phone in the whole cluster: `NatsDeviceTaskLocks`, holds expiring after the task lease) over the same connection. On shutdown the
 * connection is closed (see {@link GatewayClusterLifecycle}).
 */
@Module({})
export class GatewayClusterModule {
  static forRoot(options: GatewayClusterOptions): DynamicModule {
    return {
      module: GatewayClusterModule,
      global: true,
      providers: [
        { provide: CLUSTER_MEMBERSHIP, useFactory: () => options.joined ?? joinCluster(options) },
        { provide: CLUSTER_CONNECTION, inject: [CLUSTER_MEMBERSHIP], useFactory: (joined: GatewayClusterMembership) => joined.connection },
        { provide: DeviceDirectory, inject: [CLUSTER_MEMBERSHIP], useFactory: (joined: GatewayClusterMembership) => joined.directory },
        // Readiness: the `cluster` indicator of /health/ready.
        {
          provide: ClusterMember,
          inject: [CLUSTER_CONNECTION, DeviceDirectory],
          useFactory: (connection: ClusterConnection, directory: DeviceDirectory): ClusterMember => ({
            state: () => ({ instanceId: directory.instanceId, link: connection.linkUp ? 'up' : 'down', heartbeat: directory.heartbeatState }),
          }),
        },
        {
          provide: ClusterDeviceService,
          inject: [DeviceHub, CLUSTER_CONNECTION, DeviceDirectory],
          useFactory: (hub: DeviceHub, connection: ClusterConnection, directory: DeviceDirectory) =>
            ClusterDeviceService.start(hub, connection, directory, { subjectPrefix: options.subjectPrefix }),
        },
        { provide: MOBILECLAW_SERVICE_OVERRIDE, useExisting: ClusterDeviceService },
        // Task events of every instance reach every instance's streams; the task store stays the record.
        // A message on NATS only announces an event: each instance delivers it as read from the task store (without one, none).
        {
          provide: TaskEventBus,
          inject: [CLUSTER_CONNECTION, { token: TaskRepository, optional: true }],
          useFactory: (connection: ClusterConnection, store?: TaskRepository) => NatsTaskEventBus.start(connection.nc, store ?? { listEvents: () => Promise.resolve([]) }, { subjectPrefix: options.subjectPrefix }),
        },
        // Cancels, approval answers and tool results for a task another instance runs go to that instance.
        {
          provide: TaskControlRelay,
          inject: [CLUSTER_CONNECTION],
          useFactory: (connection: ClusterConnection) => new NatsTaskControlRelay(connection.nc, { instanceId: options.instanceId, subjectPrefix: options.subjectPrefix }),
        },
        // One task at a time per phone across every instance: a task takes the phone's lock before it starts.
        {
          provide: DeviceTaskLocks,
          inject: [CLUSTER_CONNECTION],
          useFactory: (connection: ClusterConnection) => NatsDeviceTaskLocks.open(connection.nc, { instanceId: options.instanceId, ttlMs: options.taskLeaseMs, link$: connection.link$ }),
        },
        GatewayClusterLifecycle,
      ],
      exports: [MOBILECLAW_SERVICE_OVERRIDE, ClusterDeviceService, DeviceDirectory, CLUSTER_CONNECTION, ClusterMember, TaskEventBus, TaskControlRelay, DeviceTaskLocks],
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
