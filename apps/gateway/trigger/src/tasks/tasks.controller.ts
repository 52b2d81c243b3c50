import { Body, Controller, Get, Header, HttpCode, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MobileClawError, type Task, type TaskPage } from '@mobileclaw/domain';
import { TaskService, type TaskWithSteps } from '@mobileclaw/gateway-case';
import { SseStream, lastEventIdOf } from '../http/sse-stream';
import { validateDto } from '../http/validation';
import { ApprovalDto, CreateTaskDto, ListTasksQueryDto } from './task.dto';

/** `POST /api/tasks` answer. */
export interface TaskAccepted {
  taskId: string;
  status: Task['status'];
  /** 1-based place in the phone's queue, when `queued`. */
  queuePosition?: number;
  /** Where to follow it: the SSE stream URL. */
  events: string;
}

/** Step index path parameter: a non-negative integer. */
const stepIndexPipe = new ParseIntPipe({
  exceptionFactory: () =>
    new MobileClawError('VALIDATION_FAILED', 'step index must be a non-negative integer', { fieldErrors: [{ field: 'index', message: 'must be a non-negative integer' }] }),
});

/**
 * Agent tasks (issue 3): start a goal on a phone, follow it live (SSE), cancel it, approve its
 * sensitive actions, and read its history. Errors are problem details with a stable `code`.
 */
@Controller('api/tasks')
export class TasksController {
  constructor(private readonly tasks: TaskService) {}

  /**
   * `POST /api/tasks {deviceId, goal, maxSteps?, onBusy?}` → 202 {@link TaskAccepted}, `Location` header.
   * @throws VALIDATION_FAILED (400), DEVICE_NOT_FOUND (404), DEVICE_BUSY (409, `onBusy: "reject"` or
   *   queue full), SHUTTING_DOWN (503).
   */
  @Post()
  @HttpCode(202)
  async create(@Body() body: unknown, @Res({ passthrough: true }) response: Response): Promise<TaskAccepted> {
    const dto = validateDto(CreateTaskDto, body);
    const task = await this.tasks.start(dto);
    response.setHeader('Location', `/api/tasks/${task.taskId}`);
    const accepted: TaskAccepted = { taskId: task.taskId, status: task.status, events: `/api/tasks/${task.taskId}/events` };
    if (task.queuePosition !== undefined) accepted.queuePosition = task.queuePosition;
    return accepted;
  }

  /** `GET /api/tasks?deviceId=&status=&limit=&cursor=` → `{tasks, nextCursor?}`, newest first (steps not included). */
  @Get()
  list(@Query() query: unknown): Promise<TaskPage> {
    const dto = validateDto(ListTasksQueryDto, query);
    return this.tasks.list({ deviceId: dto.deviceId, status: dto.status, limit: dto.limit ?? 20, cursor: dto.cursor });
  }

  /** `GET /api/tasks/:taskId` → the task with its steps. @throws TASK_NOT_FOUND (404). */
  @Get(':taskId')
  get(@Param('taskId') taskId: string): Promise<TaskWithSteps> {
    return this.tasks.get(taskId);
  }

  /**
   * `POST /api/tasks/:taskId/cancel` → 200 the task, `canceled`. The in-flight command is aborted.
   * @throws TASK_NOT_FOUND (404), TASK_STATE_CONFLICT (409, already finished).
   */
  @Post(':taskId/cancel')
  @HttpCode(200)
  cancel(@Param('taskId') taskId: string): Promise<Task> {
    return this.tasks.cancel(taskId);
  }

  /**
   * `POST /api/tasks/:taskId/approval {approve: boolean}` → 200 the task (`running`, or `canceled` with
   * `APPROVAL_DENIED`). @throws VALIDATION_FAILED (400), TASK_NOT_FOUND (404), TASK_STATE_CONFLICT (409).
   */
  @Post(':taskId/approval')
  @HttpCode(200)
  approval(@Param('taskId') taskId: string, @Body() body: unknown): Promise<Task> {
    const { approve } = validateDto(ApprovalDto, body);
    return this.tasks.approve(taskId, approve);
  }

  /** `GET /api/tasks/:taskId/steps/:index/screenshot` → the step's full-resolution screenshot. */
  @Get(':taskId/steps/:index/screenshot')
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
  async events(@Param('taskId') taskId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const after = lastEventIdOf(request);
    if (after === null) {
      throw new MobileClawError('VALIDATION_FAILED', 'Last-Event-ID must be a non-negative integer', { fieldErrors: [{ field: 'lastEventId', message: 'must be a non-negative integer' }] });
    }
    await this.tasks.get(taskId);
    const stream = new SseStream(request, response);
    const subscription = this.tasks.events(taskId, after ?? 0).subscribe({
      next: (event) => stream.send(event.type, event, event.id),
      error: (err: unknown) => {
        stream.send('error', { code: err instanceof MobileClawError ? err.code : 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) });
        stream.close();
      },
      complete: () => stream.close(),
    });
    stream.onClose(() => subscription.unsubscribe());
  }
}
