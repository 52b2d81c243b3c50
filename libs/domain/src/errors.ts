/**
 * The error catalog: every `code` the product reports — in a rejected port call
 * ({@link MobileClawError}), a REST problem-details answer, a failed task (`task.error.code`), a
 * failed step (`step.result.errorCode`), an SSE `error` event or an `error` frame sent to a phone.
 * Each code has the one human title the REST problem details show (README, "Errors") and whether
 * retrying later can succeed. A phone's own codes (`APP_NOT_FOUND`, …) are not in it: they travel in
 * `deviceCode` beside `DEVICE_ERROR` (docs/protocol.md).
 */

/** What the catalog knows about one code. */
export interface ErrorCatalogEntry {
  /** Short human summary of the error kind; the `title` of REST problem details. */
  readonly title: string;
  /**
   * True when sending the same request (or starting the same task) again later can succeed without
   * the caller changing anything: the failure was the moment's (a busy phone, a restart, a full
   * disk), not the request's.
   */
  readonly retryable: boolean;
}

/**
 * Every code, its title and retryability. A new code is added here; the REST layer's status table
 * (`HTTP_STATUS_BY_CODE`) then does not compile until the code has a status.
 */
export const ERROR_CATALOG = {
  // ---- the request itself -------------------------------------------------------------------
  VALIDATION_FAILED: { title: 'Invalid request', retryable: false },
  UNAUTHORIZED: { title: 'Missing or invalid API token', retryable: false },
  /**
   * No API token is configured and the request came through a proxy (it carries forwarding
   * headers): the gateway would otherwise serve whoever reaches the proxy as if they were local.
   */
  PROXIED_WITHOUT_API_TOKEN: { title: 'A proxied request needs an API token', retryable: false },
  /**
   * No API token is configured and the request's `Host` is neither a loopback name nor an allowed
   * host (`MOBILECLAW_ALLOWED_HOSTS`): what a DNS-rebinding web page sends.
   */
  HOST_NOT_ALLOWED: { title: 'Host not allowed', retryable: false },
  /**
   * The request carries a scoped API token (`MOBILECLAW_SCOPED_TOKENS`) and asks for something outside
   * its reach: a route other than the memory API, or a memory scope the token does not name.
   */
  TOKEN_SCOPE_FORBIDDEN: { title: 'Outside the API token\'s scopes', retryable: false },
  /** An unknown route. */
  NOT_FOUND: { title: 'Not found', retryable: false },
  METHOD_NOT_ALLOWED: { title: 'Method not allowed', retryable: false },
  /** A JSON body in a charset other than UTF-8. */
  UNSUPPORTED_MEDIA_TYPE: { title: 'Unsupported request encoding', retryable: false },
  /** The request body or the phone's reply exceeded its size limit; the same exchange exceeds it again. */
  PAYLOAD_TOO_LARGE: { title: 'Payload too large', retryable: false },
  /** The caller withdrew the request (aborted signal, closed connection); nothing was wrong with it. */
  ABORTED: { title: 'Request aborted', retryable: true },

  // ---- phones and their commands ------------------------------------------------------------
  /** The gateway has never seen this phone (or forgot it); waiting does not make it known. */
  DEVICE_NOT_FOUND: { title: 'No such device', retryable: false },
  /** Offline or dropped mid-command; phones reconnect on their own. */
  DEVICE_DISCONNECTED: { title: 'Device disconnected', retryable: true },
  /** The phone came back on a new session; a retry goes to that session. */
  DEVICE_REPLACED: { title: 'Device reconnected on a new session', retryable: true },
  DEVICE_BUSY: { title: 'Device busy', retryable: true },
  TIMEOUT: { title: 'Device did not answer in time', retryable: true },
  /** The phone refused the command (its code is in `deviceCode`); it refuses the same command again. */
  DEVICE_ERROR: { title: 'The device reported an error', retryable: false },
  /** The phone's software broke the protocol; it does the same until it is fixed. */
  PROTOCOL_ERROR: { title: 'The device broke the protocol', retryable: false },
  /** The phone speaks another protocol version (sent to the phone, which must be updated). */
  UNSUPPORTED_VERSION: { title: 'Unsupported protocol version', retryable: false },
  /** The screen changed since `frameId`: the same frame stays stale; observe again for a new one. */
  STALE_FRAME: { title: 'Screen changed since the frame', retryable: false },
  /** Several phones are online and the request named none; it must name one of them. */
  DEVICE_AMBIGUOUS: { title: 'Several devices online; name one', retryable: false },
  /** The phone does not offer this command (not in its `capabilities`). */
  NOT_SUPPORTED: { title: 'The device does not support this command', retryable: false },
  /** The action is sensitive (payment, deletion…) and runs only once a human approves it. */
  APPROVAL_REQUIRED: { title: 'A human must approve this action', retryable: false },
  /**
   * A person holds the phone (a takeover): nobody else may act on it until they hand it back or their
   * lease runs out; `controller` says who and since when. Retrying after the hand back succeeds.
   */
  DEVICE_CONTROLLED: { title: 'A person controls this device', retryable: true },
  /** A takeover call by a holder that does not hold the phone (never took it, handed it back, or the lease ran out). */
  CONTROL_NOT_HELD: { title: 'You do not control this device', retryable: false },

  // ---- the gateway --------------------------------------------------------------------------
  /** The gateway is stopping; it answers again once restarted. */
  SHUTTING_DOWN: { title: 'Gateway shutting down', retryable: true },
  /** The database or disk failed (disk full, I/O error, locked); nothing half-written was reported as done. */
  STORAGE_ERROR: { title: 'The gateway could not read or write its store', retryable: true },
  /** A bug (an unexpected exception): the same request most likely meets it again. */
  INTERNAL_ERROR: { title: 'Internal error', retryable: false },

  // ---- tasks --------------------------------------------------------------------------------
  TASK_NOT_FOUND: { title: 'No such task', retryable: false },
  /** E.g. canceling a finished task: the caller must read the task's state and decide anew. */
  TASK_STATE_CONFLICT: { title: 'Task is not in a state that allows this', retryable: false },
  /** The planner threw (LLM endpoint down, a bad answer after its own retries). */
  PLANNER_ERROR: { title: 'The planner failed', retryable: true },
  /** The planner decided the goal cannot be reached (`fail`). */
  GOAL_FAILED: { title: 'The goal cannot be reached', retryable: false },
  /**
   * An action showed no visible effect on the next screen, and again when tried once more (or the
   * planner declared the goal reached right after it): the task stops rather than claim a success.
   */
  NO_EFFECT: { title: 'The action had no visible effect', retryable: false },
  /** The step budget ran out; the same budget runs out again (a larger one is another request). */
  MAX_STEPS: { title: 'Step budget exhausted', retryable: false },
  APPROVAL_DENIED: { title: 'A human denied the action', retryable: false },
  /** A caller canceled the task on purpose. */
  CANCELED: { title: 'Task canceled', retryable: false },
  /** The gateway stopped (or crashed) under the task; it can run once the gateway is back. */
  INTERRUPTED: { title: 'Task interrupted by a gateway stop', retryable: true },

  // ---- caller tools -------------------------------------------------------------------------
  /**
   * An answer to a tool call the task is not waiting for: already answered, another id, or the task
   * ended or never called it. The caller reads the task's `pendingToolCall` to learn what it waits for.
   */
  TOOL_CALL_NOT_PENDING: { title: 'The task is not waiting for this tool call', retryable: false },
  /**
   * The caller did not answer a tool call within the tool-result deadline: the step's result (the
   * task goes on). Calling the tool again may succeed once the caller answers.
   */
  TOOL_RESULT_TIMEOUT: { title: 'The caller did not answer the tool call in time', retryable: true },

  // ---- idempotent creation ------------------------------------------------------------------
  /** The `Idempotency-Key` was used before with other request content; a new request needs a new key. */
  IDEMPOTENCY_KEY_REUSED: { title: 'Idempotency key reused with different content', retryable: false },
  /** The first request with this `Idempotency-Key` is still being processed; retry once it has answered. */
  IDEMPOTENCY_KEY_IN_PROGRESS: { title: 'A request with this idempotency key is in progress', retryable: true },

  // ---- tools --------------------------------------------------------------------------------
  /** No tool of that name (in the registry, or in the source asked); waiting does not create it. */
  TOOL_NOT_FOUND: { title: 'No such tool', retryable: false },
  /**
   * The tool is listed but cannot be reached now: its remote server is down, or its definition changed
   * on disk since it was listed. Retrying once the source is back (or re-read) can succeed.
   */
  TOOL_UNAVAILABLE: { title: 'The tool is unavailable right now', retryable: true },
  /**
   * The tool ran and reported a failure of its own (a remote tool's `{ok: false, error}`, a delegated
   * agent's failed or rejected task); the message carries the tool's own words. Calling it the same way
   * again is expected to fail the same way.
   */
  TOOL_FAILED: { title: 'The tool reported a failure', retryable: false },
  /**
   * A remote tool source answered in a shape its protocol does not allow (not JSON, a wrong shape, a
   * delegated task that ended with no answer at all): a fault of the remote side, not of the call.
   */
  TOOL_BAD_RESPONSE: { title: 'The tool source answered in an unusable shape', retryable: false },

  // ---- phone requests (wire protocol v1 `request` frames) ------------------------------------
  /** A phone's `request` names a method this gateway does not serve (or it serves no tools at all). */
  METHOD_NOT_FOUND: { title: 'No such method', retryable: false },
  /** The caller already has as many requests in flight as it may; retry once one has answered. */
  TOO_MANY_REQUESTS: { title: 'Too many requests in flight', retryable: true },
  /** A skill (or a folder) of that name already exists in the workspace skills folder; choose another name. */
  SKILL_EXISTS: { title: 'A skill of that name exists', retryable: false },
  /** A learned skill's SKILL.md (edited by hand) is no longer one that can be replayed; the message says what is wrong. */
  SKILL_INVALID: { title: 'The skill cannot be replayed', retryable: false },
  /** No stored memory with that id (deleted, or never there): the caller searches or lists again. */
  MEMORY_NOT_FOUND: { title: 'No such memory', retryable: false },
} as const satisfies Record<string, ErrorCatalogEntry>;

/** Every code of {@link ERROR_CATALOG}. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Every code of {@link ERROR_CATALOG}, in catalog order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as readonly ErrorCode[];

/**
 * A union of catalog codes: it does not compile when a member is not in the catalog, so a narrower
 * code type can never drift into a vocabulary of its own.
 */
export type ErrorCodeSubset<Codes extends ErrorCode> = Codes;

/**
 * The codes {@link MobileClawService.execute} rejects with (see its `@throws`). A step that fails
 * records one of them as `step.result.errorCode`.
 */
export type CommandErrorCode = ErrorCodeSubset<
  | 'DEVICE_NOT_FOUND'
  | 'DEVICE_BUSY'
  | 'TIMEOUT'
  | 'DEVICE_DISCONNECTED'
  | 'DEVICE_REPLACED'
  | 'SHUTTING_DOWN'
  | 'DEVICE_ERROR'
  | 'PROTOCOL_ERROR'
  | 'STALE_FRAME'
  | 'PAYLOAD_TOO_LARGE'
  | 'ABORTED'
  | 'VALIDATION_FAILED'
>;

/** True when `value` is a code of the catalog. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOG, value);
}

/** The catalog's title and retryability of `code`. */
export function errorCatalogEntry(code: ErrorCode): ErrorCatalogEntry {
  return ERROR_CATALOG[code];
}

/** Who holds a phone during a takeover, as {@link MobileClawError.controller} and `DeviceInfo.controller` show it. Times are ISO-8601. */
export interface DeviceController {
  /** The holder's display name, as their client gave it. */
  holder: string;
  /** When the holder took the phone. */
  since: string;
  /** When the lease runs out unless the holder renews it. */
  expiresAt: string;
}

/** One invalid field of a request, as listed in a `VALIDATION_FAILED` error. */
export interface FieldError {
  /** Dotted path of the field, e.g. `x` or `screen.width`. */
  field: string;
  message: string;
}

export interface MobileClawErrorOptions {
  deviceId?: string;
  requestId?: string;
  /** The phone's own error code, for `DEVICE_ERROR` (e.g. `APP_NOT_FOUND`). */
  deviceCode?: string;
  /** Field errors, for `VALIDATION_FAILED`. */
  fieldErrors?: FieldError[];
  /** Who holds the phone, for `DEVICE_CONTROLLED`. */
  controller?: DeviceController;
  cause?: unknown;
}

/**
 * The one error type the domain throws. `code` is stable and documented in {@link ERROR_CATALOG};
 * `message` is for humans.
 */
export class MobileClawError extends Error {
  readonly code: ErrorCode;
  readonly deviceId?: string;
  readonly requestId?: string;
  readonly deviceCode?: string;
  readonly fieldErrors?: FieldError[];
  readonly controller?: DeviceController;

  constructor(code: ErrorCode, message: string, options: MobileClawErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MobileClawError';
    this.code = code;
    this.deviceId = options.deviceId;
    this.requestId = options.requestId;
    this.deviceCode = options.deviceCode;
    this.fieldErrors = options.fieldErrors;
    this.controller = options.controller;
  }
}

/** True when `err` is a {@link MobileClawError}, optionally with the given code. */
export function isMobileClawError(err: unknown, code?: ErrorCode): err is MobileClawError {
  return err instanceof MobileClawError && (code === undefined || err.code === code);
}
