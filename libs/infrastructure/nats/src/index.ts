/**
 * @mobileclaw/cluster-nats: several gateway instances over NATS — the cluster connection, the JetStream
 * KV device directory (claims with fencing epochs, instance heartbeats), the `MobileClawService` that
 * routes commands to the instance holding a phone and lists every instance's phones and events, the
 * task event bus and the relay of task control to the instance running a task.
 */
export * from './subject-token';
export * from './cluster-subjects';
export * from './cluster-connection';
export * from './device-directory';
export * from './routed-command';
export * from './message-chunks';
export * from './cluster-device-service';
export * from './nats-task-event-bus';
export * from './task-control';
export * from './kv-support';
export * from './nats-device-task-locks';
