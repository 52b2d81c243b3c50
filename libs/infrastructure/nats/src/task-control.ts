import { Logger } from '@nestjs/common';
import { RequestError, TimeoutError, type Msg, type NatsConnection } from '@nats-io/transport-node';
import {
  MobileClawError,
  TASK_CONTROL_OPS,
  TaskControlRelay,
  isErrorCode,
  type FieldError,
  type Task,
  type TaskControlHandler,
  type TaskControlListener,
  type TaskControlRequest,
} from '@mobileclaw/domain';
import { subjectToken } from './subject-token';

/** Options of {@link NatsTaskControlRelay}. */
export interface NatsTaskControlRelayOptions {
  /** This gateway instance's id: it answers on `<prefix>.task-control.<token of instanceId>`. */
  instanceId: string;
  /** First token of every subject. Default `mobileclaw`. */
  subjectPrefix?: string;
  /**
   * Longest wait for the owner's answer, in ms. A cancel waits for the task's end to be recorded, an
   * approval or tool result for the answer's record. Default 30 000.
   */
  timeoutMs?: number;
}

/** What the owner replies: the task, or the error it threw (a `MobileClawError`'s fields). */
type TaskControlReply = { task: Task } | { error: { code: string; message: string; fieldErrors?: FieldError[] } };

/**
 * The {@link TaskControlRelay} over NATS request/reply: a request is JSON on
 * `<prefix>.task-control.<token>` (token: the owner's instance id as its {@link subjectToken}),
 * the reply JSON `{task}` or `{error: {code, message, fieldErrors?}}`, so that the owner's
 * `MobileClawError` reaches the caller with its code, message and field errors.
 *
 * Failures of the hop: no instance subscribed there (it stopped) or the connection closed →
 * `DEVICE_DISCONNECTED` (retryable) at once, naming the cluster link; no answer within `timeoutMs`
 * (also while the link is down and the client buffers the request) → `TIMEOUT` (retryable). The
 * connection belongs to the caller.
 */
export class NatsTaskControlRelay extends TaskControlRelay {
  private readonly logger = new Logger(NatsTaskControlRelay.name);
  private readonly prefix: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly connection: NatsConnection,
    private readonly options: NatsTaskControlRelayOptions,
  ) {
    super();
    this.prefix = options.subjectPrefix ?? 'mobileclaw';
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  override async send(instanceId: string, request: TaskControlRequest): Promise<Task> {
    let msg: Msg;
    try {
      msg = await this.connection.request(taskControlSubject(this.prefix, instanceId), JSON.stringify(request), { timeout: this.timeoutMs });
    } catch (err) {
      throw hopError(err, instanceId, request, this.timeoutMs);
    }
    const reply = msg.json<TaskControlReply>();
    if ('task' in reply) return reply.task;
    const { code, message, fieldErrors } = reply.error;
    if (!isErrorCode(code)) throw new MobileClawError('INTERNAL_ERROR', `gateway instance ${instanceId} answered ${request.op} of task ${request.taskId} with an unknown error code ${code}: ${message}`);
    throw new MobileClawError(code, message, fieldErrors ? { fieldErrors } : {});
  }

  /**
   * Answers the requests sent to this instance with `handler`, one at a time per message as they
   * come; a request that is not a {@link TaskControlRequest} is answered `VALIDATION_FAILED`, an error
   * that is not a `MobileClawError` `INTERNAL_ERROR` (logged). Resolves once the server has the
   * subscription.
   */
  override async listen(handler: TaskControlHandler): Promise<TaskControlListener> {
    const subscription = this.connection.subscribe(taskControlSubject(this.prefix, this.options.instanceId), {
      callback: (err, msg) => (err ? this.logger.warn(`task control subscription: ${err.message}`) : void this.answer(msg, handler)),
    });
    await this.connection.flush();
    return {
      close: async () => {
        if (!subscription.isClosed()) subscription.unsubscribe();
      },
    };
  }

  private async answer(msg: Msg, handler: TaskControlHandler): Promise<void> {
    let reply: TaskControlReply;
    try {
      const request = parseRequest(msg);
      reply = { task: await handler(request) };
    } catch (err) {
      if (!(err instanceof MobileClawError)) this.logger.error(`answering task control failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const error = err instanceof MobileClawError ? err : new MobileClawError('INTERNAL_ERROR', 'the instance running the task failed to answer');
      reply = { error: { code: error.code, message: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) } };
    }
    if (!msg.respond(JSON.stringify(reply))) this.logger.warn(`a task control request on ${msg.subject} had no reply subject`);
  }
}

/** `<prefix>.task-control.<token>`: where instance `instanceId` answers task control. */
export function taskControlSubject(prefix: string, instanceId: string): string {
  return `${prefix}.task-control.${subjectToken(instanceId)}`;
}

/** @throws MobileClawError `VALIDATION_FAILED` when the message is not a {@link TaskControlRequest}. */
function parseRequest(msg: Msg): TaskControlRequest {
  let value: unknown;
  try {
    value = msg.json();
  } catch {
    value = undefined;
  }
  const request = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const op = request['op'];
  const valid =
    typeof request['taskId'] === 'string' &&
    (TASK_CONTROL_OPS as readonly unknown[]).includes(op) &&
    (op !== 'cancel' || typeof request['reason'] === 'string') &&
    (op !== 'approve' || typeof request['approve'] === 'boolean') &&
    (op !== 'tool_result' || (typeof request['answer'] === 'object' && request['answer'] !== null));
  if (!valid) throw new MobileClawError('VALIDATION_FAILED', `not a task control request (${msg.data.length} bytes): expected {op: ${TASK_CONTROL_OPS.join('|')}, taskId, …}`);
  return request as unknown as TaskControlRequest;
}

/** The catalog error of a failed request to `instanceId`. */
function hopError(err: unknown, instanceId: string, request: TaskControlRequest, timeoutMs: number): MobileClawError {
  if (err instanceof TimeoutError || (err instanceof RequestError && err.cause instanceof TimeoutError)) {
    return new MobileClawError('TIMEOUT', `gateway instance ${instanceId}, which runs task ${request.taskId}, did not answer ${request.op} within ${timeoutMs} ms over the cluster link (NATS); read the task to see whether it took effect`, { cause: err });
  }
  const reason = err instanceof RequestError && err.isNoResponders() ? 'no instance listens there: it stopped or is restarting' : err instanceof Error ? err.message : String(err);
  return new MobileClawError('DEVICE_DISCONNECTED', `gateway instance ${instanceId}, which runs task ${request.taskId}, cannot be reached over the cluster link (NATS) for ${request.op}: ${reason}`, { cause: err });
}
