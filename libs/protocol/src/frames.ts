/**
 * Wire protocol v1 frames (docs/protocol.md). Each frame is one JSON object in UTF-8 ending
 * with `\n`. Phones connect to the gateway; the gateway sends `action`s, phones answer `response`s;
 * phones send `request`s (the gateway's tools), the gateway answers `result`s.
 */
export const PROTOCOL_VERSION = 1;

/** `deviceId`: 1–128 chars of `[A-Za-z0-9._:-]`. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ScreenGeometry {
  width: number;
  height: number;
  densityDpi?: number;
  rotation?: number;
}

export interface HelloFrame {
  type: 'hello';
  protocolVersion: number;
  deviceId: string;
  token: string;
  device?: { model?: string; manufacturer?: string; android?: string; screen?: ScreenGeometry };
  capabilities?: string[];
  client?: { name?: string; version?: string };
}

export interface WelcomeFrame {
  type: 'welcome';
  sessionId: string;
  heartbeatIntervalMs: number;
  maxFrameBytes: number;
}

export interface ErrorFrame {
  type: 'error';
  code: string;
  message: string;
  requestId?: string;
}

/** Gateway → phone. Arguments sit at the top level beside `command`. */
export interface ActionFrame {
  type: 'action';
  requestId: string;
  command: string;
  timeoutMs?: number;
  frameId?: string;
  [arg: string]: unknown;
}

/** Gateway → phone, advisory: nobody waits for this request any more. */
export interface CancelFrame {
  type: 'cancel';
  requestId: string;
}

export type ResponseFrame =
  | { type: 'response'; requestId: string; status: 'success'; data?: Record<string, unknown> }
  | { type: 'response'; requestId: string; status: 'error'; error: { code: string; message?: string } };

export interface PingFrame {
  type: 'ping';
  ts?: number;
}

export interface PongFrame {
  type: 'pong';
  ts?: number;
}

/** Phone → gateway, unsolicited. */
export interface EventFrame {
  type: 'event';
  event: string;
  data?: Record<string, unknown>;
}

/**
 * The methods a phone may call with a {@link RequestFrame} (docs/protocol.md §7): `tools.catalog`
 * lists the tools this phone may call, `tools.invoke` calls one.
 */
export const REQUEST_METHODS = ['tools.catalog', 'tools.invoke'] as const;

export type RequestMethod = (typeof REQUEST_METHODS)[number];

/**
 * Phone → gateway: a call of one of the gateway's {@link REQUEST_METHODS}, answered by one
 * {@link ResultFrame} with the same `requestId` (the phone's own namespace of ids). `timeoutMs`: how
 * long the phone waits, which the gateway caps at its own maximum.
 */
export interface RequestFrame {
  type: 'request';
  requestId: string;
  /** One of {@link REQUEST_METHODS}; another name is answered `METHOD_NOT_FOUND`. */
  method: string;
  params: Record<string, unknown>;
  timeoutMs?: number;
}

/** `params` of `tools.invoke`: the tool's exposed name, its arguments (default `{}`), the phone's id for the call. */
export interface ToolsInvokeParams {
  name: string;
  arguments?: Record<string, unknown>;
  /** Stable across the phone's retries of one call: the call runs at most once. */
  toolCallId?: string;
}

/** One tool in the `tools.catalog` result `{tools: CatalogTool[]}`: what the phone may call, by `name`. */
export interface CatalogTool {
  name: string;
  description: string;
  /** A JSON Schema of an object: the tool's `arguments`. */
  inputSchema: Record<string, unknown>;
  kind: 'OBSERVATION' | 'ACTION';
  mode: 'NATIVE' | 'REMOTE_PROXY' | 'AGENT_SESSION' | 'SKILL';
  /** False when the tool lacks something to run ({@link missing}); it may fail. */
  eligible: boolean;
  missing: string[];
  /** False while its source cannot be reached (a call answers `TOOL_UNAVAILABLE`). */
  available: boolean;
  /** A call answers `APPROVAL_REQUIRED`: a phone cannot approve. */
  needsApproval: boolean;
}

/** The `tools.invoke` result: the tool's answer as JSON and as text; `verified: false` marks a delegated answer that shows no sign of the tool call. */
export interface ToolInvokeResult {
  content: unknown;
  text: string;
  verified?: boolean;
}

/** Why a request failed: a catalog code, a message for people, whether the same request may succeed later. */
export interface RequestError {
  code: string;
  message: string;
  retryable?: boolean;
}

/** Gateway → phone: the one answer to a {@link RequestFrame}. */
export type ResultFrame =
  | { type: 'result'; requestId: string; ok: true; result: Record<string, unknown> }
  | { type: 'result'; requestId: string; ok: false; error: RequestError };

export type Frame =
  | HelloFrame
  | WelcomeFrame
  | ErrorFrame
  | ActionFrame
  | CancelFrame
  | ResponseFrame
  | PingFrame
  | PongFrame
  | EventFrame
  | RequestFrame
  | ResultFrame;

export type FrameType = Frame['type'];

export const FRAME_TYPES: readonly FrameType[] = [
  'hello',
  'welcome',
  'error',
  'action',
  'cancel',
  'response',
  'ping',
  'pong',
  'event',
  'request',
  'result',
];
