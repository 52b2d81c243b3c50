/**
 * Wire protocol v1 frames (docs/protocol.md). Each frame is one JSON object in UTF-8 ending
 * with `\n`. Phones connect to the gateway; the gateway sends `action`s, phones answer `response`s.
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

export type Frame =
  | HelloFrame
  | WelcomeFrame
  | ErrorFrame
  | ActionFrame
  | CancelFrame
  | ResponseFrame
  | PingFrame
  | PongFrame
  | EventFrame;

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
];
