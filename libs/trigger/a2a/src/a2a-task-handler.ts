import { randomUUID } from 'node:crypto';
import {
  ERROR_CATALOG,
  MobileClawError,
  MobileClawService,
  PushNotificationConfigStore,
  isTerminalTaskStatus,
  type CallerToolSpec,
  type PushNotificationConfig,
  type Task,
  type TaskEvent,
  type ToolCallAnswer,
} from '@mobileclaw/domain';
import { IdempotentCreation, TaskService } from '@mobileclaw/case-tasks';
import type { MemoryService } from '@mobileclaw/case-memory';
import {
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  type A2ARequestHandler,
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type ServerCallContext,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task as A2aTask,
  type TaskPushNotificationConfig,
  type ListTaskPushNotificationConfigsResponse,
  type GetTaskPushNotificationConfigRequest,
  type ListTaskPushNotificationConfigsRequest,
  type DeleteTaskPushNotificationConfigRequest,
} from './a2a-sdk';
import { A2A_STATE_BY_STATUS, agentMessage, contextIdOf, statusesOfState, textPart, toA2aStatus, toA2aTask } from './task-mapping';
import { STATUS_EVENT_TYPES, eventsOf, isStopEvent } from './task-updates';
import { isNewConversationCommand, newConversationAnswer } from './new-conversation';

/** Scope of A2A idempotency keys: one caller, the holder of the API token (as over REST). */
export const A2A_IDEMPOTENCY_SCOPE = 'a2a';
/** Largest `ListTasks` page. */
export const MAX_A2A_PAGE_SIZE = 100;
const DEFAULT_A2A_PAGE_SIZE = 50;

const YES = /^\s*(y|yes|approve|approved|ok|allow)\s*[.!]?\s*$/i;
const NO = /^\s*(n|no|deny|denied|reject|cancel)\s*[.!]?\s*$/i;

/**
 * The A2A request handler (the SDK's `A2ARequestHandler`) over the gateway's task engine: the task
 * store is ours (tasks, their events and states live in the `TaskRepository`, so a restart loses
 * nothing), and each A2A call is a `TaskService` call:
 * - `SendMessage` without `taskId`: a new task. The goal is the message's text parts; the phone is a
 *   data part `{deviceId}`, `metadata.deviceId` (message or request), else the only connected phone.
 *   `contextId` is kept (one is made when absent). Idempotent per `Idempotency-Key` header, else per
 *   `messageId`: the same key and content answers the same task (its current state). Blocking unless
 *   `configuration.returnImmediately`: answers once the task ended or waits for approval.
 *   Caller tools: a data part `{tools: [...]}` (the same part as `{deviceId}` or another), else
 *   `metadata.tools` of the message; part of the idempotent content.
 * - `SendMessage` with the `taskId` of a task in INPUT_REQUIRED: the approval — text yes/no or a data
 *   part `{approved: boolean}`; for a task waiting for a tool call (status message with a data part
 *   `{toolCall}`), the caller's answer — a data part `{toolCallId, result}` or `{toolCallId, rejected}`.
 * - `SendStreamingMessage` / `SubscribeToTask`: the task, then a status update per status change and
 *   per planned step (WORKING with the step in words), ending at a terminal state or INPUT_REQUIRED.
 * - `SendMessage` whose whole text is `/new`, with a `contextId`: the conversation's session is
 *   flushed to memory and starts afresh; the answer is a message `{turns, stored}`, no task.
 * - `GetTask`, `ListTasks` (filters `contextId`, `status`; `pageToken` is our cursor), `CancelTask`.
 * Errors: TaskNotFound (-32001), TaskNotCancelable (-32002), invalid params (-32602) for requests that
 * cannot be served as sent (with the catalog code in the error's metadata), internal error (-32603)
 * with `CODE: message` for failures of the moment (a phone offline, the store failing).
 */
export class A2aTaskHandler implements A2ARequestHandler {
  constructor(
    private readonly tasks: TaskService,
    private readonly devices: MobileClawService,
    private readonly idempotency: IdempotentCreation,
    private readonly pushConfigs: PushNotificationConfigStore,
    private readonly card: () => AgentCard,
    /** Told of each webhook registered (the dispatcher sends it the current status). */
    private readonly onPushConfig: (config: PushNotificationConfig) => void = () => undefined,
    /** The agent's memory, for `/new`; without it `/new` is refused (`NOT_SUPPORTED`). */
    private readonly memory?: MemoryService,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card();
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError();
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | A2aTask> {
    const command = await this.newConversation(params);
    if (command) return command;
    const task = await this.accept(params, context);
    if (params.configuration?.returnImmediately) return toA2aTask(task);
    for await (const _event of this.untilStop(task.taskId)) {
      // Waits for the task to end or to ask for approval.
    }
    return toA2aTask(await this.find(task.taskId));
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    const command = await this.newConversation(params);
    if (command) {
      yield { payload: { $case: 'message', value: command } };
      return;
    }
    const task = await this.accept(params, context);
    yield* this.follow(task.taskId);
  }

  async getTask(params: GetTaskRequest): Promise<A2aTask> {
    return toA2aTask(await this.find(params.id));
  }

  /**
   * A page of tasks, newest first (`pageSize` 1–{@link MAX_A2A_PAGE_SIZE}, default 50), with
   * `totalSize` = how many tasks the filter selects over all pages.
   * @throws invalid params (-32602) for a bad `pageSize`, a state no task is ever in, or a `pageToken` we did not issue.
   */
  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_A2A_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_A2A_PAGE_SIZE) {
      throw invalidParams('VALIDATION_FAILED', `pageSize must be an integer from 1 to ${MAX_A2A_PAGE_SIZE}`);
    }
    const statuses = params.status ? statusesOfState(params.status) : [];
    if (params.status && statuses.length === 0) throw invalidParams('VALIDATION_FAILED', `no task is ever in state ${String(params.status)}`);
    // One status per query: FAILED lists and counts our `failed` tasks (not the `interrupted` ones A2A also calls FAILED).
    const filter = { contextId: params.contextId || undefined, status: statuses[0] };
    const [page, totalSize] = await this.call(() => Promise.all([this.tasks.list({ ...filter, limit: pageSize, cursor: params.pageToken || undefined }), this.tasks.count(filter)]));
    return { tasks: page.tasks.map(toA2aTask), nextPageToken: page.nextCursor ?? '', pageSize, totalSize };
  }

  async cancelTask(params: CancelTaskRequest): Promise<A2aTask> {
    try {
      return toA2aTask(await this.tasks.cancel(params.id, 'canceled by an A2A caller'));
    } catch (err) {
      if (err instanceof MobileClawError && err.code === 'TASK_STATE_CONFLICT') throw new TaskNotCancelableError(err.message);
      throw toA2aError(err);
    }
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.find(params.id);
    if (isTerminalTaskStatus(task.status)) throw new UnsupportedOperationError(`task ${task.taskId} is already ${task.status}`);
    yield* this.follow(task.taskId);
  }

  /**
   * Registers a webhook on a task (`id` made when empty): http: or https: URLs only, `token` and
   * `authentication {scheme, credentials}` kept and sent with each notification.
   */
  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig): Promise<TaskPushNotificationConfig> {
    await this.find(params.taskId);
    const config = toPushConfig(params);
    await this.call(() => this.pushConfigs.save(config));
    this.onPushConfig(config);
    return toA2aPushConfig(config);
  }

  async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    await this.find(params.taskId);
    const config = await this.call(() => this.pushConfigs.get(params.taskId, params.id));
    if (!config) throw invalidParams('NOT_FOUND', `task ${params.taskId} has no push notification config ${params.id}`);
    return toA2aPushConfig(config);
  }

  async listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    await this.find(params.taskId);
    return { configs: (await this.call(() => this.pushConfigs.list(params.taskId))).map(toA2aPushConfig), nextPageToken: '' };
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    await this.find(params.taskId);
    await this.call(() => this.pushConfigs.delete(params.taskId, params.id));
  }

  // ---- internals ------------------------------------------------------------------------------

  /**
   * A message whose whole text is `/new` (no `taskId`) ends its conversation's session: the session
   * layer of scope `context:<contextId>` is flushed to the daily memory (what is worth keeping, as the
   * summariser judges) and starts afresh; the answer is a message, no task. Anything else: undefined.
   * @throws invalid params: `VALIDATION_FAILED` without a `contextId` (there is no conversation to
   *   end), `NOT_SUPPORTED` when the gateway has no memory; internal error when the summariser fails
   *   (the session is kept, the caller may retry).
   */
  private async newConversation(params: SendMessageRequest): Promise<Message | undefined> {
    const message = params.message;
    if (!message || message.taskId) return undefined;
    const text = message.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');
    if (!isNewConversationCommand(text)) return undefined;
    if (!message.contextId) throw invalidParams('VALIDATION_FAILED', '/new ends a conversation: send it with the contextId of the conversation to end');
    if (!this.memory) throw invalidParams('NOT_SUPPORTED', 'this gateway keeps no memory, so /new has nothing to end');
    const memory = this.memory;
    const outcome = await this.call(() => memory.flush(`context:${message.contextId}`));
    return newConversationAnswer(message.contextId, randomUUID(), outcome);
  }

  /** Starts the task a message asks for, or answers the approval of the task it names. */
  private async accept(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
    const message = params.message;
    if (!message) throw invalidParams('VALIDATION_FAILED', 'message is required');
    if (message.taskId) return this.answer(message);
    const goal = message.parts
      .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
      .join('\n')
      .trim();
    if (goal === '') throw invalidParams('VALIDATION_FAILED', 'the message needs a text part: the goal, e.g. "Turn on Wi-Fi"');
    const requestedDevice = deviceIdOf(message, params.metadata);
    const tools = toolsOf(message);
    const content = { goal, deviceId: requestedDevice ?? null, contextId: message.contextId || null, tools: tools ?? null };
    const create = async () => {
      const deviceId = requestedDevice ?? (await this.onlyPhone());
      // The case layer checks the specs (a field error per bad member, e.g. tools.0.name).
      const task = await this.call(() => this.tasks.start({ deviceId, goal, contextId: message.contextId || randomUUID(), ...(tools === undefined ? {} : { tools: tools as CallerToolSpec[] }) }));
      return { status: 200, body: { taskId: task.taskId } };
    };
    const pushConfig = params.configuration?.taskPushNotificationConfig;
    // Checked before the task starts: a bad webhook refuses the whole request.
    if (pushConfig) toPushConfig({ ...pushConfig, taskId: 'check' });
    const key = idempotencyKeyOf(context) ?? message.messageId;
    const taskId = key
      ? ((await this.call(() => this.idempotency.run(A2A_IDEMPOTENCY_SCOPE, key, content, create))).response.body as { taskId: string }).taskId
      : ((await create()).body as { taskId: string }).taskId;
    if (pushConfig) {
      const config = toPushConfig({ ...pushConfig, taskId });
      await this.call(() => this.pushConfigs.save(config));
      this.onPushConfig(config);
    }
    return this.find(taskId);
  }

  /**
   * A message on an existing task: the caller's answer to its tool call (a data part `{toolCallId,
   * result}` or `{toolCallId, rejected}`), or the answer to its approval question.
   */
  private async answer(message: Message): Promise<Task> {
    const task = await this.find(message.taskId);
    const toolAnswer = toolCallAnswerOf(message);
    // Routed by its shape, whatever the task's state: an answer it no longer waits for is TOOL_CALL_NOT_PENDING.
    if (toolAnswer) return this.call(() => this.tasks.submitToolResult(task.taskId, toolAnswer));
    if (task.status === 'input_required' && task.pendingToolCall) {
      const { toolCallId, name } = task.pendingToolCall;
      throw invalidParams(
        'VALIDATION_FAILED',
        `task ${task.taskId} waits for the caller's answer to tool call ${toolCallId} (${name}): send a data part {"toolCallId": "${toolCallId}", "result": <any JSON>} or {"toolCallId": "${toolCallId}", "rejected": "<reason>"}`,
      );
    }
    if (task.status !== 'input_required') {
      throw new UnsupportedOperationError(`task ${task.taskId} is ${task.status}: only a task waiting for approval (INPUT_REQUIRED) takes a message`);
    }
    const approved = approvalOf(message);
    if (approved === undefined) throw invalidParams('VALIDATION_FAILED', 'answer the approval with "yes" or "no" (or a data part {"approved": true|false})');
    return this.call(() => this.tasks.approve(task.taskId, approved));
  }

  /** The one connected phone, when the message named none. */
  private async onlyPhone(): Promise<string> {
    const online = (await this.devices.listDevices()).filter((device) => device.status !== 'offline');
    if (online.length === 1) return online[0].deviceId;
    if (online.length === 0) throw invalidParams('DEVICE_NOT_FOUND', 'no phone is connected; name one with a data part {"deviceId": "…"} once it is');
    throw invalidParams('DEVICE_AMBIGUOUS', `several phones are connected (${online.map((d) => d.deviceId).join(', ')}); name one with a data part {"deviceId": "…"}`);
  }

  /** The task, then its status updates until it ends or asks for approval. */
  private async *follow(taskId: string): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.find(taskId);
    yield { payload: { $case: 'task', value: toA2aTask(task) } };
    if (isTerminalTaskStatus(task.status) || task.status === 'input_required') return;
    for await (const { event, current } of this.untilStop(taskId)) {
      if (STATUS_EVENT_TYPES.has(event.type)) {
        yield { payload: { $case: 'statusUpdate', value: { taskId, contextId: contextIdOf(current), status: toA2aStatus(event.type === 'task.input_required' || isTerminalEvent(event.type) ? current : { ...current, status: statusAfter(event.type) }), metadata: { eventId: event.id, type: event.type } } } };
      } else if (event.type === 'step.planned') {
        const index = event.data.index as number;
        const plan = event.data.plan as { type: string; reasoning?: string; action?: { command: string } };
        const words = plan.type === 'action' ? `step ${index}: ${plan.action?.command ?? 'action'}${plan.reasoning ? ` (${plan.reasoning})` : ''}` : `step ${index}: ${plan.type}`;
        const status = { state: A2A_STATE_BY_STATUS.running, message: agentMessage(current, `step:${index}`, [textPart(words)]), timestamp: event.at };
        yield { payload: { $case: 'statusUpdate', value: { taskId, contextId: contextIdOf(current), status, metadata: { eventId: event.id, type: event.type } } } };
      }
    }
  }

  /** The task's events from the first, each with the task as stored after it, until the stop event. */
  private async *untilStop(taskId: string): AsyncGenerator<{ event: TaskEvent; current: Task }, void, undefined> {
    for await (const event of eventsOf(this.tasks.events(taskId, 0))) {
      const current = await this.find(taskId);
      yield { event, current };
      if (isStopEvent(event, current)) return;
    }
  }

  private async find(taskId: string): Promise<Task> {
    try {
      return await this.tasks.find(taskId);
    } catch (err) {
      if (err instanceof MobileClawError && err.code === 'TASK_NOT_FOUND') throw new TaskNotFoundError(err.message);
      throw toA2aError(err);
    }
  }

  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (err) {
      throw toA2aError(err);
    }
  }
}

function isTerminalEvent(type: string): boolean {
  return type === 'task.completed' || type === 'task.failed' || type === 'task.canceled' || type === 'task.interrupted';
}

/** The status a non-terminal status event leaves the task in. */
function statusAfter(type: string): Task['status'] {
  return type === 'task.queued' ? 'queued' : 'running';
}

/** `{deviceId}` from a data part, the message's metadata or the request's. */
function deviceIdOf(message: Message, requestMetadata: Record<string, unknown> | undefined): string | undefined {
  for (const part of message.parts) {
    if (part.content?.$case === 'data' && typeof part.content.value?.deviceId === 'string') return part.content.value.deviceId as string;
  }
  const fromMetadata = message.metadata?.deviceId ?? requestMetadata?.deviceId;
  return typeof fromMetadata === 'string' ? fromMetadata : undefined;
}

/**
 * The caller tools of a new task: `tools` of a data part (the first that has one), else of the
 * message's metadata; undefined when neither has any. Not checked here (the case layer does).
 */
function toolsOf(message: Message): unknown {
  for (const part of message.parts) {
    if (part.content?.$case === 'data' && part.content.value && 'tools' in part.content.value) return part.content.value.tools;
  }
  return message.metadata?.tools;
}

/**
 * The answer to a tool call a message carries: a data part `{toolCallId, result}` (the tool's result,
 * any JSON; `null` when `result` is null) or `{toolCallId, rejected: "<reason>"}`; undefined when no
 * data part has a `toolCallId`. A part with neither of `result` and `rejected` reads as a rejection
 * without a reason, which the case layer refuses with VALIDATION_FAILED (field `reason`).
 * @throws invalid params (-32602) `VALIDATION_FAILED` for a part with both `result` and `rejected`.
 */
function toolCallAnswerOf(message: Message): ToolCallAnswer | undefined {
  for (const part of message.parts) {
    if (part.content?.$case !== 'data' || !part.content.value || !('toolCallId' in part.content.value)) continue;
    const value = part.content.value as Record<string, unknown>;
    const toolCallId = typeof value.toolCallId === 'string' ? value.toolCallId : '';
    if ('result' in value && 'rejected' in value) {
      throw invalidParams('VALIDATION_FAILED', 'an answer to a tool call carries either "result" or "rejected", not both');
    }
    if ('result' in value) return { toolCallId, outcome: 'ok', result: value.result };
    return { toolCallId, outcome: 'rejected', reason: typeof value.rejected === 'string' ? value.rejected : '' };
  }
  return undefined;
}

/** true/false from a data part `{approved}` or a yes/no text; undefined when the message says neither. */
function approvalOf(message: Message): boolean | undefined {
  for (const part of message.parts) {
    if (part.content?.$case === 'data' && typeof part.content.value?.approved === 'boolean') return part.content.value.approved as boolean;
  }
  const text = message.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join(' ');
  if (YES.test(text)) return true;
  if (NO.test(text)) return false;
  return undefined;
}

/**
 * Our config from an A2A one (`id` made when empty).
 * @throws invalid params (-32602) for a URL that is not http: or https:, or an id over 128 characters.
 */
function toPushConfig(params: TaskPushNotificationConfig): PushNotificationConfig {
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw invalidParams('VALIDATION_FAILED', `push notification url must be an http: or https: URL (got ${JSON.stringify(params.url)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidParams('VALIDATION_FAILED', `push notification url must be an http: or https: URL (got ${url.protocol})`);
  if (params.id.length > 128) throw invalidParams('VALIDATION_FAILED', 'push notification config id must be at most 128 characters');
  return {
    taskId: params.taskId,
    configId: params.id || randomUUID(),
    url: url.href,
    ...(params.token ? { token: params.token } : {}),
    ...(params.authentication?.scheme ? { authentication: { scheme: params.authentication.scheme, credentials: params.authentication.credentials } } : {}),
  };
}

function toA2aPushConfig(config: PushNotificationConfig): TaskPushNotificationConfig {
  return { tenant: '', id: config.configId, taskId: config.taskId, url: config.url, token: config.token ?? '', authentication: config.authentication };
}

function idempotencyKeyOf(context: ServerCallContext): string | undefined {
  const headers = context.state?.get('headers') as Record<string, string | string[] | undefined> | undefined;
  const key = headers?.['idempotency-key'];
  return typeof key === 'string' ? key : undefined;
}

function invalidParams(code: string, message: string): Error {
  return new RequestMalformedError({ message: `${code}: ${message}`, metadata: { code } });
}

/**
 * A catalog error as an A2A error: failures of the request (not retryable) are invalid params
 * (-32602), failures of the moment are internal errors (-32603); both carry `CODE: message`.
 */
export function toA2aError(err: unknown): unknown {
  if (!(err instanceof MobileClawError)) return err;
  if (err.code === 'TASK_NOT_FOUND') return new TaskNotFoundError(err.message);
  if (ERROR_CATALOG[err.code].retryable) return new Error(`${err.code}: ${err.message}`, { cause: err });
  return invalidParams(err.code, err.message);
}
