import { ERROR_CODES, TASK_EVENT_TYPES, TaskRepository } from '@mobileclaw/domain';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-openapi-');
const start = gateways.start;
const url = gatewayUrl;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON documents that tests index freely
type Json = any;

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } };
const BINARY = { schema: { type: 'string', format: 'binary' } };
const SSE = { 'text/event-stream': { schema: { type: 'string' } } };
const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });

/**
 * Every route: its success answer's status and content, the error statuses it documents as problem
 * details, and (`own`) the error statuses it answers with its success answer's schema instead (the
 * OpenClaw-compatible `/tools/invoke`, whose clients read `{ok: false, error}`).
 */
const ROUTES: { method: string; path: string; ok: [number, object]; errors: number[]; own?: number[] }[] = [
  { method: 'get', path: '/api/devices', ok: [200, json('DeviceList')], errors: [401] },
  { method: 'get', path: '/api/devices/events', ok: [200, SSE], errors: [401] },
  { method: 'get', path: '/api/devices/{deviceId}', ok: [200, json('DeviceInfo')], errors: [401, 404] },
  { method: 'post', path: '/api/devices/{deviceId}/commands', ok: [200, json('CommandResult')], errors: [400, 401, 404, 409, 413, 415, 502, 503, 504] },
  { method: 'post', path: '/api/devices/{deviceId}/takeover', ok: [200, json('Takeover')], errors: [400, 401, 404, 409, 415, 503] },
  { method: 'delete', path: '/api/devices/{deviceId}/takeover', ok: [200, json('DeviceController')], errors: [400, 401, 409] },
  { method: 'post', path: '/api/devices/{deviceId}/takeover/actions', ok: [200, json('TakeoverActionResult')], errors: [400, 401, 404, 409, 413, 415, 502, 503, 504] },
  { method: 'get', path: '/api/devices/{deviceId}/screenshot', ok: [200, { 'image/png': BINARY, 'image/jpeg': BINARY }], errors: [400, 401, 404, 409, 413, 502, 503, 504] },
  { method: 'post', path: '/api/tasks', ok: [202, json('TaskAccepted')], errors: [400, 401, 404, 409, 413, 415, 422, 503] },
  { method: 'get', path: '/api/tasks', ok: [200, json('TaskPage')], errors: [400, 401, 503] },
  { method: 'get', path: '/api/tasks/{taskId}', ok: [200, json('TaskWithSteps')], errors: [401, 404, 503] },
  { method: 'post', path: '/api/tasks/{taskId}/cancel', ok: [200, json('Task')], errors: [401, 404, 409, 503] },
  { method: 'post', path: '/api/tasks/{taskId}/approval', ok: [200, json('Task')], errors: [400, 401, 404, 409, 413, 415, 503] },
  { method: 'post', path: '/api/tasks/{taskId}/tool-results', ok: [200, json('Task')], errors: [400, 401, 404, 409, 413, 415, 503] },
  { method: 'post', path: '/api/tasks/{taskId}/skill', ok: [201, json('SavedSkillAnswer')], errors: [400, 401, 404, 409, 413, 415, 503] },
  { method: 'post', path: '/api/skills/{name}/replay', ok: [202, json('Task')], errors: [400, 401, 404, 409, 413, 415, 422, 503] },
  { method: 'get', path: '/api/tasks/{taskId}/events', ok: [200, SSE], errors: [400, 401, 404, 503] },
  { method: 'get', path: '/api/tasks/{taskId}/steps/{index}/screenshot', ok: [200, { 'image/png': BINARY, 'image/jpeg': BINARY }], errors: [400, 401, 404, 503] },
  { method: 'get', path: '/api/tools', ok: [200, json('ToolList')], errors: [401] },
  { method: 'post', path: '/api/tools/{name}/invoke', ok: [200, json('ToolCallAnswer')], errors: [400, 401, 403, 404, 409, 413, 415, 422, 503] },
  { method: 'post', path: '/tools/invoke', ok: [200, json('OpenClawToolAnswer')], errors: [401], own: [400, 404] },
  { method: 'get', path: '/api/health', ok: [200, json('HealthCheckResult')], errors: [401] },
  { method: 'get', path: '/api/pairing', ok: [200, json('PairingInfo')], errors: [401] },
  { method: 'get', path: '/api/memory', ok: [200, json('MemorySearchResult')], errors: [400, 401, 503] },
  { method: 'post', path: '/api/memory', ok: [201, json('RememberedMemory')], errors: [400, 401, 413, 415, 503] },
  { method: 'get', path: '/api/memory/records', ok: [200, json('MemoryRecordPage')], errors: [400, 401, 503] },
  { method: 'get', path: '/api/memory/status', ok: [200, json('MemoryStatus')], errors: [401, 503] },
  { method: 'get', path: '/api/memory/session', ok: [200, json('MemorySession')], errors: [400, 401] },
  { method: 'get', path: '/api/memory/{id}', ok: [200, json('MemoryRecord')], errors: [401, 404, 503] },
  { method: 'delete', path: '/api/memory/{id}', ok: [200, json('ForgottenMemory')], errors: [401, 404, 503] },
  { method: 'post', path: '/api/memory/flush', ok: [200, json('MemoryFlushResult')], errors: [400, 401, 413, 415, 502, 503, 504] },
  { method: 'post', path: '/api/memory/organize', ok: [200, json('MemoryOrganizeResult')], errors: [400, 401, 413, 415, 502, 503, 504] },
];

describe('OpenAPI document and Swagger UI', () => {
  let doc: Json;
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: gateways.dataDir(), MOBILECLAW_LOG_LEVEL: 'silent', MOBILECLAW_SIM: 'off' });
    const res = await fetch(url(gw, '/api/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = await res.json();
  });
  afterAll(() => gw.close());

  it('is an OpenAPI 3 document of the gateway, its version and an optional bearer token', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'MobileClaw gateway API', version: '0.1.0' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearer.description).toContain('MOBILECLAW_API_TOKEN');
    expect(doc.components.securitySchemes.access_token).toMatchObject({ type: 'apiKey', in: 'query', name: 'access_token' });
    expect(doc.security).toEqual([{}, { bearer: [] }, { access_token: [] }]);
  });

  it('describes every route, exactly, with its method, summary, tag, success answer and problem answers', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of ROUTES) {
      const op = doc.paths[route.path][route.method];
      const tag = route.path.startsWith('/api/') ? route.path.split('/')[2] : route.path.split('/')[1];
      expect({ route: route.path, tags: op.tags, summary: typeof op.summary }).toEqual({ route: route.path, tags: [tag], summary: 'string' });
      const [status, content] = route.ok;
      expect(op.responses[String(status)].content).toEqual(content);
      const errorStatuses = Object.keys(op.responses).map(Number).filter((s) => s >= 400);
      // Every route the token guards (401) is refused by the local-only rules too (403) when no token is set.
      const guarded = route.errors.includes(401) && !route.errors.includes(403) ? [...route.errors, 403] : route.errors;
      // Health answers 503 with its own body (terminus), every other error is problem details.
      const expectedErrors = route.path === '/api/health' ? [...guarded, 503] : [...guarded, ...(route.own ?? [])];
      expect({ route: `${route.method} ${route.path}`, errors: errorStatuses.sort() }).toEqual({ route: `${route.method} ${route.path}`, errors: expectedErrors.sort() });
      for (const s of guarded) expect(op.responses[String(s)].content).toEqual(PROBLEM);
      for (const s of route.own ?? []) expect(op.responses[String(s)].content).toEqual(content);
      if (route.errors.includes(401)) expect(op.responses['403'].description).toMatch(/`PROXIED_WITHOUT_API_TOKEN` or `HOST_NOT_ALLOWED` \(without `MOBILECLAW_API_TOKEN`/);
    }
    expect(doc.paths['/api/health'].get.responses['503'].content).toEqual(json('HealthCheckResult'));
    // Each problem answer names the codes that answer with that status.
    expect(doc.paths['/api/devices/{deviceId}/commands'].post.responses['409'].description).toMatch(/STALE_FRAME.*DEVICE_BUSY|DEVICE_BUSY.*STALE_FRAME/);
    expect(doc.paths['/api/tasks'].post.responses['202'].headers.Location.schema).toEqual({ type: 'string' });
    // A held phone's refusal says who holds it.
    expect(doc.paths['/api/devices/{deviceId}/commands'].post.responses['409'].description).toMatch(/DEVICE_CONTROLLED/);
    expect(doc.components.schemas.ProblemDetails.properties.controller).toEqual({ description: 'Who holds the phone, for `DEVICE_CONTROLLED`.', allOf: [{ $ref: '#/components/schemas/DeviceController' }] });
    expect(doc.paths['/api/devices/{deviceId}/takeover'].delete.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['deviceId', 'path', true],
      ['holderId', 'query', true],
    ]);
  });

  it('documents the command body as a oneOf of the command schemas, discriminated by `command`', () => {
    const body = doc.paths['/api/devices/{deviceId}/commands'].post.requestBody;
    expect(body.required).toBe(true);
    const schema = body.content['application/json'].schema;
    const ref = (name: string) => `#/components/schemas/${name}`;
    const names = ['OpenCommand', 'ClickCommand', 'LongPressCommand', 'SwipeCommand', 'InputCommand', 'NoArgumentCommand', 'ScreenshotCommand'];
    expect(schema.oneOf.map((s: Json) => s.$ref).sort()).toEqual(names.map(ref).sort());
    expect(schema.discriminator).toEqual({
      propertyName: 'command',
      mapping: {
        open: ref('OpenCommand'),
        click: ref('ClickCommand'),
        long_press: ref('LongPressCommand'),
        swipe: ref('SwipeCommand'),
        input: ref('InputCommand'),
        back: ref('NoArgumentCommand'),
        home: ref('NoArgumentCommand'),
        screenshot: ref('ScreenshotCommand'),
        ui_tree: ref('NoArgumentCommand'),
      },
    });
    const schemas = doc.components.schemas;
    // Each schema admits only its own command values, so exactly one member matches a body.
    expect(names.flatMap((n) => schemas[n].properties.command.enum).sort()).toEqual(['back', 'click', 'home', 'input', 'long_press', 'open', 'screenshot', 'swipe', 'ui_tree']);
    expect(schemas.ClickCommand.required).toEqual(['command', 'x', 'y']);
    expect(schemas.ClickCommand.properties.x).toMatchObject({ type: 'integer', minimum: 0, maximum: 100_000 });
    expect(schemas.LongPressCommand.properties.durationMs).toMatchObject({ type: 'integer', minimum: 1, maximum: 60_000 });
    expect(schemas.SwipeCommand.required).toEqual(['command', 'x1', 'y1', 'x2', 'y2']);
    expect(schemas.OpenCommand.properties.app).toMatchObject({ type: 'string', maxLength: 255 });
    expect(schemas.InputCommand.properties.text).toMatchObject({ type: 'string', maxLength: 100_000 });
    expect(schemas.ScreenshotCommand.properties.format).toMatchObject({ enum: ['png', 'jpeg'] });
    expect(schemas.NoArgumentCommand.properties.timeoutMs).toMatchObject({ type: 'integer', minimum: 1, maximum: 600_000 });
    expect(schemas.NoArgumentCommand.required).toEqual(['command']);
  });

  it('documents every task event type, step.planning included', () => {
    const event = doc.components.schemas.TaskEvent;
    expect(event.properties.type.enum).toEqual([...TASK_EVENT_TYPES]);
    expect(event.properties.type.enum).toContain('step.planning');
    expect(event.properties.type.description).toContain('`step.planning` `{index, attempt, maxAttempts}`');
    expect(doc.paths['/api/tasks/{taskId}/events'].get.description).toContain('the `TaskEvent` schema');
  });

  it('documents the task bodies, queries and path parameters with their rules', () => {
    const schemas = doc.components.schemas;
    expect(doc.paths['/api/tasks'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateTask' });
    expect(schemas.CreateTask.required).toEqual(['deviceId', 'goal']);
    expect(schemas.CreateTask.properties.maxSteps).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    expect(schemas.CreateTask.properties.onBusy).toMatchObject({ enum: ['queue', 'reject'] });
    expect(schemas.CreateTask.properties.contextId).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
    expect(schemas.CreateTask.properties.tools).toMatchObject({ type: 'array', maxItems: 64, items: { $ref: '#/components/schemas/CallerToolSpec' } });
    expect(schemas.CallerToolSpec.required).toEqual(['name', 'description', 'inputSchema', 'kind']);
    expect(schemas.CallerToolSpec.properties.kind).toMatchObject({ enum: ['OBSERVATION', 'ACTION'] });
    expect(doc.paths['/api/tasks/{taskId}/tool-results'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ToolResult' });
    expect(schemas.ToolResult.required).toEqual(['toolCallId', 'outcome']);
    expect(schemas.ToolResult.properties.outcome).toMatchObject({ enum: ['ok', 'rejected'] });
    expect(schemas.Task.properties.pendingToolCall.allOf).toEqual([{ $ref: '#/components/schemas/PendingToolCall' }]);
    expect(doc.paths['/api/tasks'].post.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
    expect(schemas.Approval).toMatchObject({ required: ['approve'], properties: { approve: { type: 'boolean' } } });
    const list = doc.paths['/api/tasks'].get.parameters;
    expect(list.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['deviceId', 'query', false],
      ['status', 'query', false],
      ['limit', 'query', false],
      ['cursor', 'query', false],
      ['contextId', 'query', false],
    ]);
    expect(list[2].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 20 });
    expect(schemas.TaskStatus.enum).toEqual(['queued', 'running', 'input_required', 'completed', 'failed', 'canceled', 'interrupted']);
    const shot = doc.paths['/api/devices/{deviceId}/screenshot'].get.parameters;
    expect(shot.map((p: Json) => `${p.in}:${p.name}`)).toEqual(['path:deviceId', 'query:format', 'query:quality', 'query:maxWidth']);
    expect(schemas.ImageFormat.enum).toEqual(['png', 'jpeg']);
    const stepShot = doc.paths['/api/tasks/{taskId}/steps/{index}/screenshot'].get.parameters;
    expect(stepShot.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['taskId', 'path', true],
      ['index', 'path', true],
    ]);
    expect(stepShot[1].schema).toEqual({ type: 'integer', minimum: 0 });
    expect(schemas.TaskWithSteps.properties.steps).toEqual({ type: 'array', items: { $ref: '#/components/schemas/TaskStep' } });
    expect(Object.keys(schemas.StepTimings.properties)).toEqual(['settleMs', 'captureMs', 'transferMs', 'planningMs', 'actionMs']);
    expect(schemas.TaskError.properties.code).toMatchObject({ type: 'string', enum: [...ERROR_CODES] });
    expect(schemas.StepResult.properties.errorCode).toMatchObject({ type: 'string', enum: [...ERROR_CODES] });
  });

  it('has the ProblemDetails schema of every error answer', () => {
    const problem = doc.components.schemas.ProblemDetails;
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'instance', 'code']);
    expect(Object.keys(problem.properties)).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance', 'code', 'errors']));
    expect(problem.properties.status.type).toBe('integer');
    // The codes are the error catalog's, besides HTTP_<status> for a client-error status it has no code for.
    expect(problem.properties.code).toEqual({
      description: expect.any(String),
      example: 'VALIDATION_FAILED',
      anyOf: [
        { type: 'string', enum: [...ERROR_CODES] },
        { type: 'string', pattern: '^HTTP_[0-9]{3}$' },
      ],
    });
    expect(problem.properties.errors).toEqual({ description: expect.any(String), type: 'array', items: { $ref: '#/components/schemas/FieldError' } });
    expect(doc.components.schemas.FieldError.required).toEqual(['field', 'message']);
  });

  it('serves Swagger UI from the installed assets at /api/docs', async () => {
    const page = await fetch(url(gw, '/api/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<div id="swagger-ui"></div>');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.(js|css)/);
    const init = await fetch(url(gw, '/api/docs/swagger-ui-init.js'));
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('"title": "MobileClaw gateway API"');
    const bundle = await fetch(url(gw, '/api/docs/swagger-ui-bundle.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  });
});

describe('GET /api/health (terminus)', () => {
  it('answers 200 with both checks up and the online phone count', async () => {
    const gw = await start();
    await waitOnline(gw, 'sim-1');
    const res = await fetch(url(gw, '/api/health'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
    const up = { devices: { status: 'up', online: 1 }, 'tasks-store': { status: 'up' } };
    expect(await res.json()).toEqual({ status: 'ok', devicesOnline: 1, info: up, error: {}, details: up });
  });

  it('answers 503 with tasks-store down and its error when the task store fails', async () => {
    const gw = await start({ MOBILECLAW_SIM: 'off' });
    await gw.app.get(TaskRepository).close();
    const res = await fetch(url(gw, '/api/health'));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    const down = { status: 'down', message: expect.stringMatching(/\S/) };
    expect(body).toEqual({
      status: 'error',
      devicesOnline: 0,
      info: { devices: { status: 'up', online: 0 } },
      error: { 'tasks-store': down },
      details: { devices: { status: 'up', online: 0 }, 'tasks-store': down },
    });
  });

  it('still requires the API token when one is configured (the API description stays public)', async () => {
    const gw = await start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: 'a-token-of-sixteen-chars' });
    expect((await fetch(url(gw, '/api/openapi.json'))).status).toBe(200);
    expect((await fetch(url(gw, '/api/docs'))).status).toBe(200);
    expect((await fetch(url(gw, '/api/devices'))).status).toBe(401);
    const denied = await fetch(url(gw, '/api/health'));
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const allowed = await fetch(url(gw, '/api/health'), { headers: { authorization: 'Bearer a-token-of-sixteen-chars' } });
    expect(allowed.status).toBe(200);
  });
});
