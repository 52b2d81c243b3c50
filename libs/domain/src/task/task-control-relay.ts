import type { ToolCallAnswer } from './caller-tool';
import type { Task } from './task';

/**
 * A control request for a task, as one instance relays it to the instance that runs the task: the
 * arguments of `TaskService.cancel`, `approve` and `submitToolResult`. Plain JSON.
 */
export type TaskControlRequest =
  | { op: 'cancel'; taskId: string; reason: string }
  | { op: 'approve'; taskId: string; approve: boolean }
  | { op: 'tool_result'; taskId: string; answer: ToolCallAnswer };

/** Every {@link TaskControlRequest} `op`. */
export const TASK_CONTROL_OPS = ['cancel', 'approve', 'tool_result'] as const;

/**
 * How an instance answers control requests relayed to it: as if its own caller had asked, resolving
 * with the task or rejecting with the `MobileClawError` it would have thrown.
 */
export type TaskControlHandler = (request: TaskControlRequest) => Promise<Task>;

/** The answering side of a relay, from {@link TaskControlRelay.listen}. */
export interface TaskControlListener {
  /** Stops answering; requests sent afterwards find no instance. Calling it again does nothing. */
  close(): Promise<void>;
}

/**
 * Carries task control (cancel, approval answers, tool results) to the gateway instance that runs
 * the task, when several instances share one task store: a task's loop lives in the memory of the
 * instance that owns it (`Task.owner.instanceId`), so only that one can stop it or hand it an answer.
 * Abstract class so that it doubles as the Nest DI token. Without one (a single instance, the
 * default) nothing is relayed: a task this instance does not run is refused as before.
 */
export abstract class TaskControlRelay {
  /**
   * Sends `request` to instance `instanceId` and resolves with the task as that instance answered it.
   * @throws MobileClawError the owner's own error, code and message as it threw them (e.g.
   *   `TASK_STATE_CONFLICT`, `TOOL_CALL_NOT_PENDING`); `DEVICE_DISCONNECTED` (retryable) when no
   *   instance `instanceId` is reachable now (it stopped, or the cluster link is down; the message
   *   names the link); `TIMEOUT` (retryable) when it does not answer within the adapter's deadline
   *   (the request may have taken effect: read the task).
   */
  abstract send(instanceId: string, request: TaskControlRequest): Promise<Task>;

  /**
   * Starts answering the requests sent to this instance with `handler`; resolves once requests sent
   * from now on reach it. One listener per instance.
   */
  abstract listen(handler: TaskControlHandler): Promise<TaskControlListener>;
}
