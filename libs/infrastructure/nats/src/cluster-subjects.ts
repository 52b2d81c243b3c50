import { subjectToken } from './subject-token';

/** The subject prefix when none is configured. */
export const DEFAULT_SUBJECT_PREFIX = 'mobileclaw';

/**
 * The NATS subjects of a cluster whose subjects start with `prefix` (default `mobileclaw`); ids become
 * tokens through {@link subjectToken}.
 */
export class ClusterSubjects {
  constructor(readonly prefix: string = DEFAULT_SUBJECT_PREFIX) {
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) throw new Error(`subject prefix ${JSON.stringify(prefix)} must be dot-separated tokens of A-Z a-z 0-9 _ -`);
  }

  /** Commands for the phones held by `instanceId`. */
  command(instanceId: string): string {
    return `${this.prefix}.cmd.${subjectToken(instanceId)}`;
  }

  /** Cancellations of routed commands that `instanceId` runs. */
  cancel(instanceId: string): string {
    return `${this.prefix}.cancel.${subjectToken(instanceId)}`;
  }

  /** The device events of `instanceId`'s hub. */
  deviceEvents(instanceId: string): string {
    return `${this.prefix}.device-events.${subjectToken(instanceId)}`;
  }

  /** Every instance's device events (a wildcard subscription). */
  allDeviceEvents(): string {
    return `${this.prefix}.device-events.*`;
  }

  /** The events of task `taskId`. */
  taskEvents(taskId: string): string {
    return `${this.prefix}.task-events.${subjectToken(taskId)}`;
  }

  /** Control messages (cancel, answers) for the tasks that `instanceId` runs. */
  taskControl(instanceId: string): string {
    return `${this.prefix}.task-control.${subjectToken(instanceId)}`;
  }
}
