import { MobileClawClientError } from './errors';
import { isTerminalStatus, type InvocationEvent, type InvocationStatus, type PendingGatewayToolCall, type PendingPhoneAction } from './events';
import type { GatewayApi, PendingToolCallResource, TaskEventRecord } from './gateway-api';
import { readTaskEvent, type InvocationIds } from './task-event-mapping';

/** One app event and the task state it leaves (what the invocation record keeps once the app got it). */
export interface FollowedEvent {
  event: InvocationEvent;
  status?: InvocationStatus;
  pendingAction?: PendingPhoneAction;
  pendingToolApproval?: PendingGatewayToolCall;
}

/** Where following starts: the task, the last event id already delivered, the last state seen. */
export interface FollowStart extends InvocationIds {
  taskRef: string;
  idempotencyKey: string;
  lastEventId: number;
  /** The terminal event was already delivered. */
  ended?: boolean;
  status?: InvocationStatus;
  pendingAction?: PendingPhoneAction;
  pendingToolApproval?: PendingGatewayToolCall;
}

/**
 * How answering one tool call went: `answered` (the gateway has an answer, or had one already),
 * `ended` (the invocation was canceled meanwhile: nothing waits for an answer), `unanswered` (no
 * attempt was acknowledged).
 */
export type ToolCallDelivery = 'answered' | 'ended' | 'unanswered';

export interface TaskFollowerDeps {
  api: GatewayApi;
  /** Answers a tool call the task waits for. @throws MobileClawClientError when the gateway refuses the answer for good. */
  answerToolCall(call: PendingToolCallResource, signal: AbortSignal): Promise<ToolCallDelivery>;
  /** Pauses before each recovery attempt, in ms; their number bounds the attempts in a row without a new event. */
  recoveryDelaysMs: readonly number[];
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Recover a stream lost while the task waits for an approval instead of ending: for a follower no
   * app waits on (ASYNC's background answering of tool calls), since the approval may come from
   * anywhere (the app, the web page, the command line) and tool calls after it still need answers.
   */
  throughApprovals?: boolean;
}

/**
 * Follows one task's event stream and survives its loss. Events go to `emit` in id order, each once
 * (ids at or below the cursor are skipped). When the stream drops, the last state seen decides:
 * terminal → done; waiting for the app's approval → done on purpose (the app answers with `approve`
 * and follows again), unless `throughApprovals`; otherwise it asks the gateway for the task and resumes after the last event id,
 * with the recovery delays between attempts. When that cannot establish the state, it emits
 * `progress_uncertain` with `QUERY_LATER_DO_NOT_REINVOKE`. Tool calls are answered in order, before
 * later events are read. A gateway refusal that no retry can change (401, 404 …) rejects the promise.
 */
export class TaskFollower {
  private status?: InvocationStatus;
  private awaitingApproval: boolean;
  /** A terminal event was delivered: the stream has nothing more. */
  private ended = false;
  private cursor: number;

  constructor(
    private readonly start: FollowStart,
    private readonly deps: TaskFollowerDeps,
    private readonly emit: (item: FollowedEvent) => void,
  ) {
    this.cursor = start.lastEventId;
    this.status = start.status;
    this.awaitingApproval = start.status === 'input_required' && (start.pendingAction !== undefined || start.pendingToolApproval !== undefined);
    this.ended = start.ended === true;
  }

  /** The app answered the approval (the gateway's new status): a later loss is recovered again. */
  noteApproval(status: InvocationStatus): void {
    this.awaitingApproval = false;
    this.status = status;
  }

  /** Resolves when the task ended, the stream ended on purpose, progress became uncertain, or `signal` fired. */
  async run(signal: AbortSignal): Promise<void> {
    const ids: InvocationIds = { invocationRef: this.start.invocationRef, conversationId: this.start.conversationId };
    let failures = 0;
    if (this.ended) return;
    for (;;) {
      let cause: string;
      let unanswered = false;
      try {
        const stream = await this.deps.api.openEvents(this.start.taskRef, this.cursor, signal);
        for await (const record of stream) {
          if (record.id <= this.cursor) continue;
          if (!(await this.take(record, ids, signal))) {
            unanswered = true;
            break;
          }
          failures = 0;
          if (this.ended) return;
        }
        cause = unanswered ? 'a tool call could not be answered' : 'the gateway ended the event stream before the task ended';
      } catch (error) {
        if (signal.aborted) return;
        if (isFinal(error)) throw error;
        cause = error instanceof Error ? error.message : String(error);
      }
      if (signal.aborted || this.ended) return;
      if (this.awaitingApproval && !this.deps.throughApprovals) return;
      // Lost while the task goes on: learn its real state, then resume after the last event seen.
      for (;;) {
        if (failures >= this.deps.recoveryDelaysMs.length) {
          this.emit({ event: { ...ids, type: 'progress_uncertain', hint: 'QUERY_LATER_DO_NOT_REINVOKE', idempotencyKey: this.start.idempotencyKey, cause } });
          return;
        }
        await this.deps.sleep(this.deps.recoveryDelaysMs[failures++], signal);
        if (signal.aborted) return;
        try {
          const task = await this.deps.api.getTask(this.start.taskRef, signal);
          this.status = task.status;
          break;
        } catch (error) {
          if (signal.aborted) return;
          if (isFinal(error)) throw error;
          cause = error instanceof Error ? error.message : String(error);
        }
      }
    }
  }

  /** Takes one new event; false when the stream must be reopened (a tool call could not be answered). */
  private async take(record: TaskEventRecord, ids: InvocationIds, signal: AbortSignal): Promise<boolean> {
    const meaning = readTaskEvent(record, ids);
    if (meaning.toolCall) {
      // Answered before the cursor moves past it: a reconnect delivers the call again until answered.
      const delivery = await this.deps.answerToolCall(meaning.toolCall, signal);
      if (delivery === 'unanswered') return false;
      this.cursor = record.id;
      // Canceled: no answer is due; the stream goes on to the task's terminal event, without recovery.
      if (delivery === 'answered') this.status = 'running';
      return true;
    }
    this.cursor = record.id;
    if (meaning.status !== undefined) {
      this.status = meaning.status;
      this.ended = isTerminalStatus(meaning.status);
      this.awaitingApproval = meaning.pendingAction !== undefined || meaning.pendingToolApproval !== undefined;
    }
    if (meaning.event) this.emit({ event: meaning.event, status: meaning.status, pendingAction: meaning.pendingAction, pendingToolApproval: meaning.pendingToolApproval });
    return true;
  }
}

/** A gateway refusal that reconnecting cannot change: any 4xx but a 408/409/429. */
function isFinal(error: unknown): boolean {
  if (!(error instanceof MobileClawClientError) || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && ![408, 409, 429].includes(error.status);
}
