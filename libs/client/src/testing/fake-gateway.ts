import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskEventRecord, TaskResource } from '../gateway-api';

/** One request the fake gateway received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What `POST /api/tasks` does next: drop the connection, never answer (`hang`), or answer with a status and body. */
export type CreateAnswer = 'drop' | 'hang' | { status: number; body: unknown };

/** How one event-stream connection behaves: send `count` new events, then `destroy` the socket, `end` the response, or `hold` it (later `append`s flow). */
export interface StreamPlan {
  count: number;
  then: 'destroy' | 'end' | 'hold';
}

/**
 * A stand-in for the gateway's REST API in unit tests: one task (`taskId` `task-1`), its stored events
 * replayed after `Last-Event-ID` in the gateway's SSE format, and scripted failures per request.
 * Unscripted requests behave like the gateway.
 */
export class FakeGateway {
  readonly requests: ReceivedRequest[] = [];
  readonly taskId = 'task-1';
  task: TaskResource = { taskId: 'task-1', status: 'running', stepCount: 0 };
  readonly events: TaskEventRecord[] = [];
  /** Consumed one per `POST /api/tasks`; when empty, 202. */
  readonly createAnswers: CreateAnswer[] = [];
  /** Consumed one per event-stream connection; when empty, every event, then `end` if the task ended, else `hold`. */
  readonly streamPlans: (StreamPlan | 'refuse')[] = [];
  /** Consumed one per `GET /api/tasks/:id`; `drop` destroys the connection; when empty, the task. */
  readonly getAnswers: ('drop' | { status: number; body: unknown })[] = [];
  /** Answers of `POST …/tool-results`, consumed one per request; when empty, 200 with the task. */
  readonly toolResultAnswers: { status: number; body: unknown }[] = [];
  private readonly open = new Set<{ response: ServerResponse; cursor: number }>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const stream of this.open) stream.response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Stores an event (ids from 1) and sends it on every held stream. */
  append(type: string, data: Record<string, unknown> = {}): TaskEventRecord {
    const record: TaskEventRecord = { id: this.events.length + 1, type, at: new Date(0).toISOString(), data };
    this.events.push(record);
    if (type === 'task.completed') this.task = { ...this.task, status: 'completed', summary: String(data['summary'] ?? '') };
    if (type === 'task.failed') this.task = { ...this.task, status: 'failed', error: data['error'] as TaskResource['error'] };
    if (type === 'task.canceled') this.task = { ...this.task, status: 'canceled' };
    if (type === 'task.input_required') {
      this.task = {
        ...this.task,
        status: 'input_required',
        ...(data['pendingAction'] ? { pendingAction: data['pendingAction'] as TaskResource['pendingAction'] } : {}),
        ...(data['toolApproval'] ? { pendingToolApproval: data['toolApproval'] as TaskResource['pendingToolApproval'] } : {}),
      };
    }
    if (type === 'task.resumed') this.task = { ...this.task, status: 'running', pendingAction: undefined, pendingToolApproval: undefined };
    for (const stream of this.open) this.send(stream, record);
    if (['task.completed', 'task.failed', 'task.canceled', 'task.interrupted'].includes(type)) {
      // The gateway ends every stream after the terminal event.
      for (const stream of this.open) stream.response.end();
      this.open.clear();
    }
    return record;
  }

  /** Requests to `path` (method and path, e.g. `POST /api/tasks`). */
  sent(route: string): ReceivedRequest[] {
    return this.requests.filter((r) => `${r.method} ${r.path}` === route);
  }

  /** Resolves once no event stream is held open (the client closed them). */
  whenStreamsClosed(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return Promise.all([...this.open].map((stream) => new Promise<void>((resolve) => (stream.response.destroyed ? resolve() : stream.response.once('close', () => resolve()))))).then(() => undefined);
  }

  /** Destroys every open event stream's socket. */
  cutStreams(): void {
    for (const stream of this.open) stream.response.socket?.destroy();
    this.open.clear();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '').split('?')[0];
    this.requests.push({ method: request.method ?? '', path, headers: request.headers, body: text ? JSON.parse(text) : undefined });
    const route = `${request.method} ${path}`;
    const taskPath = `/api/tasks/${this.taskId}`;
    if (route === 'POST /api/tasks') return this.answer(response, this.createAnswers.shift() ?? { status: 202, body: { taskId: this.taskId, status: 'running', events: `${taskPath}/events` } });
    if (route === `GET ${taskPath}`) return this.answer(response, this.getAnswers.shift() ?? { status: 200, body: { ...this.task, steps: [] } });
    if (route === `GET ${taskPath}/events`) return this.stream(request, response);
    if (route === `POST ${taskPath}/approval`) {
      const approve = (JSON.parse(text) as { approve: boolean }).approve;
      this.task = approve ? { ...this.task, status: 'running', pendingAction: undefined } : { ...this.task, status: 'canceled', pendingAction: undefined };
      return this.answer(response, { status: 200, body: this.task });
    }
    if (route === `POST ${taskPath}/cancel`) {
      this.task = { ...this.task, status: 'canceled', error: { code: 'CANCELED', message: 'canceled by the caller' } };
      return this.answer(response, { status: 200, body: this.task });
    }
    if (route === `POST ${taskPath}/tool-results`) return this.answer(response, this.toolResultAnswers.shift() ?? { status: 200, body: this.task });
    if (route === 'GET /api/devices') return this.answer(response, { status: 200, body: { devices: [{ deviceId: 'sim-1', status: 'online' }] } });
    return this.answer(response, { status: 404, body: { code: 'TASK_NOT_FOUND', detail: `no route ${route}`, status: 404 } });
  }

  private answer(response: ServerResponse, answer: CreateAnswer): void {
    if (answer === 'drop') {
      response.socket?.destroy();
      return;
    }
    if (answer === 'hang') return;
    response.writeHead(answer.status, { 'content-type': answer.status >= 400 ? 'application/problem+json' : 'application/json' });
    response.end(JSON.stringify(answer.body));
  }

  private stream(request: IncomingMessage, response: ServerResponse): void {
    const plan = this.streamPlans.shift();
    if (plan === 'refuse') return this.answer(response, { status: 503, body: { code: 'SHUTTING_DOWN', detail: 'shutting down', status: 503 } });
    const after = Number(request.headers['last-event-id'] ?? 0);
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    response.write('retry: 2000\n\n');
    const stream = { response, cursor: after };
    const pending = this.events.filter((e) => e.id > after);
    const count = plan?.count ?? pending.length;
    for (const record of pending.slice(0, count)) this.send(stream, record);
    const then = plan?.then ?? (['completed', 'failed', 'canceled', 'interrupted'].includes(this.task.status) ? 'end' : 'hold');
    // Destroyed once what was written is flushed: the client got those events, then the connection breaks.
    if (then === 'destroy') response.write('', () => response.socket?.destroy());
    else if (then === 'end') response.end();
    else {
      this.open.add(stream);
      response.on('close', () => this.open.delete(stream));
    }
  }

  private send(stream: { response: ServerResponse; cursor: number }, record: TaskEventRecord): void {
    if (record.id <= stream.cursor) return;
    stream.cursor = record.id;
    stream.response.write(`id: ${record.id}\nevent: ${record.type}\ndata: ${JSON.stringify({ taskId: this.taskId, ...record })}\n\n`);
  }
}
