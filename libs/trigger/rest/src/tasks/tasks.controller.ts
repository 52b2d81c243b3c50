import { Body, Controller, Get, Header, HttpCode, Optional, Param, Post, Query, Req, Res, UseFilters, UseGuards, type PipeTransform } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiAcceptedResponse, ApiBody, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { EventStreamMetrics, MobileClawError, NoEventStreamMetrics, type Task } from '@mobileclaw/domain';
import { DEFAULT_TASK_CASE_OPTIONS, IdempotentCreation, TaskService } from '@mobileclaw/case-tasks';
import { SseStream, lastEventIdOf } from '../http/sse-stream';
import { validateDto, validateQuery } from '../http/validation';
import { ApiTokenGuard } from '../http/api-token.guard';
import { ProblemDetailsFilter } from '../http/problem-details.filter';
import { ApiProblemResponses } from '../openapi/problem-details.schema';
import { TaskAcceptedSchema, TaskEventSchema, TaskPageSchema, TaskSchema, TaskWithStepsSchema } from '../openapi/task.schemas';
import { ApprovalDto, CreateTaskDto, ListTasksQueryDto, ToolResultDto } from './task.dto';
import { toTaskEventResource, toTaskPageResource, toTaskResource, toTaskWithStepsResource, type TaskPageResource, type TaskResource, type TaskWithStepsResource } from './task.resource';

/** Scope of the REST API's idempotency keys: its one caller, the holder of the API token. */
export const REST_IDEMPOTENCY_SCOPE = 'rest';

/** `POST /api/tasks` answer. */
export interface TaskAccepted {
  taskId: string;
  status: Task['status'];
  /** 1-based place in the phone's queue, when `queued`. */
  queuePosition?: number;
  /** Where to follow it: the SSE stream URL. */
  events: string;
}

/**
 * Step index path parameter: decimal digits only (no sign, exponent, fraction or spaces) up to
 * 2^53 - 1, so that every spelling of something other than a non-negative integer is a 400 and a
 * well-formed index a step does not have is the service's 404.
 */
const stepIndexPipe: PipeTransform<string, number> = {
  transform(value: string): number {
    const index = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(index)) {
      throw new MobileClawError('VALIDATION_FAILED', `step index must be a non-negative integer below 2^53 (got "${value}")`, {
        fieldErrors: [{ field: 'index', message: 'must be a non-negative integer below 2^53' }],
      });
    }
    return index;
  },
};

/** `taskId` path parameter. */
const TaskIdParam = ApiParam({ name: 'taskId', description: 'The task\'s id, from `POST /api/tasks`.', format: 'uuid' });

/**
 * Agent tasks: start a goal on a phone, follow it live (SSE), cancel it, approve its sensitive
 * actions, and read its history. Errors are problem details with a stable `code`. Tasks, steps and
 * events are shown as `task.resource.ts` describes (steps get their `screenshotUrl`).
 */
@ApiTags('tasks')
@ApiProblemResponses('UNAUTHORIZED')
@UseGuards(ApiTokenGuard)
@UseFilters(ProblemDetailsFilter)
@Controller('api/tasks')
export class TasksController {
  constructor(
    private readonly tasks: TaskService,
    @Optional() private readonly streams: EventStreamMetrics = new NoEventStreamMetrics(),
    /** The task module's; a host without it keeps keys in memory for the default time. */
    @Optional() private readonly idempotency: IdempotentCreation = new IdempotentCreation(DEFAULT_TASK_CASE_OPTIONS),
  ) {}

  /**
   * `POST /api/tasks {deviceId, goal, maxSteps?, onBusy?, contextId?, tools?}` → 202 {@link TaskAccepted}, `Location` header.
   * With an `Idempotency-Key` header (1–256 printable ASCII characters), a retry with the same key and
   * body gets the first answer again (no second task; header `Idempotent-Replayed: true`) for
   * `idempotencyTtlMs` (default 24 h). The API has one caller (one token), so keys share one scope.
   * @throws VALIDATION_FAILED (400), DEVICE_NOT_FOUND (404), DEVICE_BUSY (409, `onBusy: "reject"` or
   *   queue full), IDEMPOTENCY_KEY_IN_PROGRESS (409, the first request with the key has not answered),
   *   IDEMPOTENCY_KEY_REUSED (422, the key was used with another body), SHUTTING_DOWN (503).
   */
  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Start an agent task',
    description:
      'Runs the goal on the phone, or queues it behind the phone\'s running task (`queued` with `queuePosition`) unless `onBusy` is `reject`. ' +
      'Send an `Idempotency-Key` to retry safely: the same key with the same body answers the first answer again (no second task); with another body 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still being created 409 `IDEMPOTENCY_KEY_IN_PROGRESS`. Keys expire after `MOBILECLAW_IDEMPOTENCY_TTL_MS` (24 h).',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1–256 printable ASCII characters without spaces, unique per task you mean to create (e.g. a UUID).' })
  @ApiBody({ type: CreateTaskDto })
  @ApiAcceptedResponse({
    type: TaskAcceptedSchema,
    description: 'Accepted; follow it at `events`.',
    headers: {
      Location: { description: 'The task: `/api/tasks/{taskId}`.', schema: { type: 'string' } },
      'Idempotent-Replayed': { description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.', schema: { type: 'string' } },
    },
  })
  @ApiProblemResponses('VALIDATION_FAILED', 'DEVICE_NOT_FOUND', 'DEVICE_BUSY', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'DEVICE_DISCONNECTED', 'SHUTTING_DOWN', 'STORAGE_ERROR')
  async create(@Body() body: unknown, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<TaskAccepted> {
    const dto = validateDto(CreateTaskDto, body);
    const key = request.headers['idempotency-key'];
    if (key === undefined) return this.accept(dto, response);
    if (Array.isArray(key)) {
      throw new MobileClawError('VALIDATION_FAILED', 'send one Idempotency-Key header', { fieldErrors: [{ field: 'Idempotency-Key', message: 'must be sent once' }] });
    }
    const outcome = await this.idempotency.run(REST_IDEMPOTENCY_SCOPE, key, body, async () => ({ status: 202, body: await this.accept(dto, response) }));
    const accepted = outcome.response.body as TaskAccepted;
    if (outcome.replayed) {
      response.status(outcome.response.status);
      response.setHeader('Location', `/api/tasks/${accepted.taskId}`);
      response.setHeader('Idempotent-Replayed', 'true');
    }
    return accepted;
  }

  private async accept(dto: CreateTaskDto, response: Response): Promise<TaskAccepted> {
    const task = await this.tasks.start(dto);
    response.setHeader('Location', `/api/tasks/${task.taskId}`);
    const accepted: TaskAccepted = { taskId: task.taskId, status: task.status, events: `/api/tasks/${task.taskId}/events` };
    if (task.queuePosition !== undefined) accepted.queuePosition = task.queuePosition;
    return accepted;
  }

  /** `GET /api/tasks?deviceId=&status=&contextId=&limit=&cursor=` → `{tasks, nextCursor?}`, newest first (steps not included). */
  @Get()
  @ApiOperation({ summary: 'List tasks', description: 'Newest first, without their steps; page with `cursor`.' })
  @ApiQuery({ type: ListTasksQueryDto })
  @ApiOkResponse({ type: TaskPageSchema })
  @ApiProblemResponses('VALIDATION_FAILED', 'STORAGE_ERROR')
  async list(@Query() query: unknown): Promise<TaskPageResource> {
    const dto = validateQuery(ListTasksQueryDto, query);
    return toTaskPageResource(await this.tasks.list({ deviceId: dto.deviceId, status: dto.status, contextId: dto.contextId, limit: dto.limit ?? 20, cursor: dto.cursor }));
  }

  /** `GET /api/tasks/:taskId` → the task with its steps. @throws TASK_NOT_FOUND (404). */
  @Get(':taskId')
  @ApiOperation({ summary: 'Get a task with its steps', description: 'Each step: observation, plan (reasoning, action), result (status, errorCode, verified), timings in ms.' })
  @TaskIdParam
  @ApiOkResponse({ type: TaskWithStepsSchema })
  @ApiProblemResponses('TASK_NOT_FOUND', 'STORAGE_ERROR')
  async get(@Param('taskId') taskId: string): Promise<TaskWithStepsResource> {
    return toTaskWithStepsResource(await this.tasks.get(taskId));
  }

  /**
   * `POST /api/tasks/:taskId/cancel` → 200 the task, `canceled`. The in-flight command is aborted.
   * @throws TASK_NOT_FOUND (404), TASK_STATE_CONFLICT (409, already finished).
   */
  @Post(':taskId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a task', description: 'Ends the task at once, `canceled`; the command in flight is withdrawn and the phone told to cancel it.' })
  @TaskIdParam
  @ApiOkResponse({ type: TaskSchema, description: 'The task, `canceled`.' })
  @ApiProblemResponses('TASK_NOT_FOUND', 'TASK_STATE_CONFLICT', 'STORAGE_ERROR')
  async cancel(@Param('taskId') taskId: string): Promise<TaskResource> {
    return toTaskResource(await this.tasks.cancel(taskId));
  }

  /**
   * `POST /api/tasks/:taskId/approval {approve: boolean}` → 200 the task (`running`, or `canceled` with
   * `APPROVAL_DENIED`; a denied gateway tool call ends its step `denied` and the task goes on).
   * @throws VALIDATION_FAILED (400), TASK_NOT_FOUND (404), TASK_STATE_CONFLICT (409).
   */
  @Post(':taskId/approval')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve or deny the pending sensitive action or gateway tool call',
    description: 'For a task in `input_required` with `pendingAction` (denied: the task ends `canceled`) or `pendingToolApproval` (denied: the step ends `denied`, the task goes on).',
  })
  @TaskIdParam
  @ApiBody({ type: ApprovalDto })
  @ApiOkResponse({ type: TaskSchema, description: 'The task: `running`, or `canceled` with APPROVAL_DENIED.' })
  @ApiProblemResponses('VALIDATION_FAILED', 'TASK_NOT_FOUND', 'TASK_STATE_CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'STORAGE_ERROR')
  async approval(@Param('taskId') taskId: string, @Body() body: unknown): Promise<TaskResource> {
    const { approve } = validateDto(ApprovalDto, body);
    return toTaskResource(await this.tasks.approve(taskId, approve));
  }

  /**
   * `POST /api/tasks/:taskId/tool-results {toolCallId, outcome: 'ok'|'rejected', result?, reason?}` → 200
   * the task once the answer is recorded (`task.resumed`, the tool step's `step.acted`).
   * @throws VALIDATION_FAILED (400; `reason` missing with `rejected`, `result` over 64 KiB as JSON),
   *   TASK_NOT_FOUND (404), TOOL_CALL_NOT_PENDING (409: answered already, another id, or the task ended).
   */
  @Post(':taskId/tool-results')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer the tool call the task waits on',
    description:
      'For a task in `input_required` with `pendingToolCall`: `ok` with the tool\'s `result`, or `rejected` with a `reason` (the tool did not run). The task resumes and its planner sees the answer. ' +
      'A second answer to the same call, or one to a call the task does not wait for, is 409 `TOOL_CALL_NOT_PENDING`.',
  })
  @TaskIdParam
  @ApiBody({ type: ToolResultDto })
  @ApiOkResponse({ type: TaskSchema, description: 'The task after the answer: `running`, or already further on.' })
  @ApiProblemResponses('VALIDATION_FAILED', 'TASK_NOT_FOUND', 'TOOL_CALL_NOT_PENDING', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'STORAGE_ERROR')
  async toolResult(@Param('taskId') taskId: string, @Body() body: unknown): Promise<TaskResource> {
    const dto = validateDto(ToolResultDto, body);
    const answer = dto.outcome === 'ok' ? { toolCallId: dto.toolCallId, outcome: 'ok' as const, result: dto.result ?? null } : { toolCallId: dto.toolCallId, outcome: 'rejected' as const, reason: dto.reason as string };
    return toTaskResource(await this.tasks.submitToolResult(taskId, answer));
  }

  /** `GET /api/tasks/:taskId/steps/:index/screenshot` → the step's full-resolution screenshot. */
  @Get(':taskId/steps/:index/screenshot')
  @ApiOperation({ summary: 'Get a step\'s screenshot', description: 'The full-resolution image the step was planned on; immutable, cached for a year.' })
  @TaskIdParam
  @ApiParam({ name: 'index', description: 'The step index, from 0.', schema: { type: 'integer', minimum: 0 } })
  @ApiProduces('image/png', 'image/jpeg')
  @ApiOkResponse({ description: 'The image.', content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } })
  @ApiProblemResponses('VALIDATION_FAILED', 'TASK_NOT_FOUND', 'STORAGE_ERROR')
  @Header('Cache-Control', 'private, max-age=31536000, immutable')
  async screenshot(@Param('taskId') taskId: string, @Param('index', stepIndexPipe) index: number, @Res() response: Response): Promise<void> {
    const image = await this.tasks.screenshot(taskId, index);
    response.setHeader('Content-Type', image.mime);
    response.setHeader('Content-Length', image.bytes.byteLength);
    response.end(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength));
  }

  /**
   * `GET /api/tasks/:taskId/events` — Server-Sent Events: `id` (per task, from 1), `event` (the type,
   * e.g. `step.observed`), `data` (JSON `{taskId, id, type, at, data}`). Resumes after `Last-Event-ID`
   * (header) or `?lastEventId=`; replays from the store, then live; ends after the terminal event.
   * @throws TASK_NOT_FOUND (404), VALIDATION_FAILED (400, bad Last-Event-ID) — before the stream starts.
   */
  @Get(':taskId/events')
  @ApiOperation({
    summary: 'Follow a task live (Server-Sent Events)',
    description: 'Records `id` (per task, from 1, no gaps), `event` (the type, e.g. `step.observed`), `data` (JSON `{taskId, id, type, at, data}`, the `TaskEvent` schema, which lists every type). Replayed from the store after `Last-Event-ID`, then live; ends after the terminal event.',
  })
  @ApiExtraModels(TaskEventSchema)
  @TaskIdParam
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id (EventSource sends it on reconnect).' })
  @ApiQuery({ name: 'lastEventId', required: false, description: 'Resume after this event id (first connection of a page).', schema: { type: 'integer', minimum: 0 } })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'A `text/event-stream` that ends after the task\'s last event.', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiProblemResponses('VALIDATION_FAILED', 'TASK_NOT_FOUND', 'STORAGE_ERROR')
  async events(@Param('taskId') taskId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const after = lastEventIdOf(request);
    if (after === null) {
      throw new MobileClawError('VALIDATION_FAILED', 'Last-Event-ID must be a non-negative integer', { fieldErrors: [{ field: 'lastEventId', message: 'must be a non-negative integer' }] });
    }
    await this.tasks.find(taskId);
    const stream = new SseStream(request, response);
    this.streams.clientConnected('task');
    stream.onClose(() => this.streams.clientDisconnected('task'));
    const subscription = this.tasks.events(taskId, after ?? 0).subscribe({
      next: (event) => stream.send(event.type, toTaskEventResource(event), event.id),
      error: (err: unknown) => {
        stream.send('error', { code: err instanceof MobileClawError ? err.code : 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) });
        stream.close();
      },
      complete: () => stream.close(),
    });
    stream.onClose(() => subscription.unsubscribe());
  }
}
