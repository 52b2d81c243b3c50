import { ERROR_CATALOG, ERROR_CODES, MobileClawError, errorCatalogEntry, isErrorCode, type CommandErrorCode, type ErrorCode, type ErrorCodeSubset } from './errors';

describe('error catalog', () => {
  it('gives every code a title and a retryability', () => {
    expect(ERROR_CODES).toHaveLength(49);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      const entry = errorCatalogEntry(code);
      expect({ code, title: typeof entry.title, retryable: typeof entry.retryable }).toEqual({ code, title: 'string', retryable: 'boolean' });
      expect(entry.title.trim()).not.toBe('');
      expect(entry).toBe(ERROR_CATALOG[code]);
    }
  });

  it('holds the device, task and request-level codes the product emits', () => {
    const expected: ErrorCode[] = [
      'VALIDATION_FAILED', 'UNAUTHORIZED', 'PROXIED_WITHOUT_API_TOKEN', 'HOST_NOT_ALLOWED', 'TOKEN_SCOPE_FORBIDDEN', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'ABORTED',
      'DEVICE_NOT_FOUND', 'DEVICE_DISCONNECTED', 'DEVICE_REPLACED', 'DEVICE_BUSY', 'TIMEOUT', 'DEVICE_ERROR', 'PROTOCOL_ERROR', 'UNSUPPORTED_VERSION', 'STALE_FRAME',
      'DEVICE_AMBIGUOUS', 'NOT_SUPPORTED', 'APPROVAL_REQUIRED', 'DEVICE_CONTROLLED', 'CONTROL_NOT_HELD',
      'SHUTTING_DOWN', 'STORAGE_ERROR', 'INTERNAL_ERROR',
      'TASK_NOT_FOUND', 'TASK_STATE_CONFLICT', 'PLANNER_ERROR', 'GOAL_FAILED', 'NO_EFFECT', 'MAX_STEPS', 'APPROVAL_DENIED', 'CANCELED', 'INTERRUPTED',
      'TOOL_CALL_NOT_PENDING', 'TOOL_RESULT_TIMEOUT',
      'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS',
      'TOOL_NOT_FOUND', 'TOOL_UNAVAILABLE', 'TOOL_FAILED', 'TOOL_BAD_RESPONSE',
      'METHOD_NOT_FOUND', 'TOO_MANY_REQUESTS',
      'SKILL_EXISTS',
      'SKILL_INVALID',
      'MEMORY_NOT_FOUND',
    ];
    expect([...ERROR_CODES].sort()).toEqual([...expected].sort());
  });

  it('keeps the titles the REST problem details have always shown', () => {
    const titles = Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_CATALOG[code].title]));
    expect(titles).toMatchObject({
      VALIDATION_FAILED: 'Invalid request',
      UNAUTHORIZED: 'Missing or invalid API token',
      PROXIED_WITHOUT_API_TOKEN: 'A proxied request needs an API token',
      HOST_NOT_ALLOWED: 'Host not allowed',
      TOKEN_SCOPE_FORBIDDEN: "Outside the API token's scopes",
      DEVICE_NOT_FOUND: 'No such device',
      DEVICE_BUSY: 'Device busy',
      TASK_NOT_FOUND: 'No such task',
      TASK_STATE_CONFLICT: 'Task is not in a state that allows this',
      STALE_FRAME: 'Screen changed since the frame',
      PAYLOAD_TOO_LARGE: 'Payload too large',
      ABORTED: 'Request aborted',
      DEVICE_ERROR: 'The device reported an error',
      PROTOCOL_ERROR: 'The device broke the protocol',
      DEVICE_DISCONNECTED: 'Device disconnected',
      DEVICE_REPLACED: 'Device reconnected on a new session',
      SHUTTING_DOWN: 'Gateway shutting down',
      STORAGE_ERROR: 'The gateway could not read or write its store',
      TIMEOUT: 'Device did not answer in time',
      NOT_FOUND: 'Not found',
      METHOD_NOT_ALLOWED: 'Method not allowed',
      UNSUPPORTED_MEDIA_TYPE: 'Unsupported request encoding',
      INTERNAL_ERROR: 'Internal error',
    });
  });

  it('calls retryable exactly the failures of the moment, not of the request', () => {
    const retryable = ERROR_CODES.filter((code) => ERROR_CATALOG[code].retryable).sort();
    expect(retryable).toEqual(
      ['ABORTED', 'DEVICE_BUSY', 'DEVICE_CONTROLLED', 'DEVICE_DISCONNECTED', 'DEVICE_REPLACED', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'INTERRUPTED', 'PLANNER_ERROR', 'SHUTTING_DOWN', 'STORAGE_ERROR', 'TIMEOUT', 'TOOL_RESULT_TIMEOUT', 'TOOL_UNAVAILABLE', 'TOO_MANY_REQUESTS'].sort(),
    );
  });

  it('recognises its own codes only', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const value of ['HTTP_418', 'device_busy', '', 'toString', 'constructor', '__proto__', 42, null, undefined, { code: 'TIMEOUT' }]) {
      expect(isErrorCode(value)).toBe(false);
    }
  });

  it('types narrower code sets as subsets of the catalog', () => {
    // Compile-time checks: a subset member outside the catalog does not type-check.
    const command: CommandErrorCode = 'STALE_FRAME';
    const asCatalog: ErrorCode = command;
    // @ts-expect-error -- not a catalog code
    const unknown: ErrorCodeSubset<'NO_SUCH_CODE'> = 'NO_SUCH_CODE';
    expect([asCatalog, unknown]).toEqual(['STALE_FRAME', 'NO_SUCH_CODE']);
    expect(new MobileClawError(command, 'screen rotated').code).toBe('STALE_FRAME');
  });
});
