import { z } from 'zod';
import { MobileClawError, type DeviceEvent, type DeviceInfo, type ErrorCode, type FieldError, type TaskEvent } from '@mobileclaw/domain';
import type { LiveScreenFrame } from '@mobileclaw/case-device-control';
import type { TaskResource } from '@mobileclaw/trigger-rest';

/**
 * The message schema of the live event socket (`/ws/events`), version 1: one JSON object per text
 * message, told apart by `type`. docs/events-socket.md describes it for client authors.
 */
export const EVENTS_SOCKET_VERSION = 1;

/** Most ids one `subscribe` or `unsubscribe` may list per kind (devices, tasks, screens). */
export const MAX_LISTED = 100;

/** A client's id for a message, echoed in the answer: a string of 1–128 characters or an integer ≥ 0. */
const MessageId = z.union([z.string().min(1).max(128), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]);
const Id = z.string().min(1).max(256);
/** A task event id to resume after, as `Last-Event-ID` on the SSE stream. */
const EventId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const Version = z.literal(EVENTS_SOCKET_VERSION).optional();
const ids = () => z.array(Id).max(MAX_LISTED);

const Subscribe = z
  .strictObject({
    type: z.literal('subscribe'),
    v: Version,
    id: MessageId.optional(),
    /** Phones whose events to receive: ids, or `"*"` for every phone. */
    devices: z.union([z.literal('*'), ids()]).optional(),
    /** Tasks whose events to receive, each from after `since` (default 0: from the first). */
    tasks: z.array(z.strictObject({ taskId: Id, since: EventId.optional() })).max(MAX_LISTED).optional(),
    /** Phones whose live screen to receive. */
    screens: z.array(Id).max(MAX_LISTED).optional(),
  })
  .refine((m) => m.devices !== undefined || m.tasks !== undefined || m.screens !== undefined, { message: 'name devices, tasks or screens' });

const Unsubscribe = z
  .strictObject({
    type: z.literal('unsubscribe'),
    v: Version,
    id: MessageId.optional(),
    devices: z.union([z.literal('*'), ids()]).optional(),
    tasks: ids().optional(),
    screens: ids().optional(),
  })
  .refine((m) => m.devices !== undefined || m.tasks !== undefined || m.screens !== undefined, { message: 'name devices, tasks or screens' });

const Cancel = z.strictObject({ type: z.literal('cancel'), v: Version, id: MessageId, taskId: Id });

const Approve = z.strictObject({ type: z.literal('approve'), v: Version, id: MessageId, taskId: Id, approved: z.boolean() });

const SCHEMAS = { subscribe: Subscribe, unsubscribe: Unsubscribe, cancel: Cancel, approve: Approve } as const;

export type SubscribeMessage = z.infer<typeof Subscribe>;
export type UnsubscribeMessage = z.infer<typeof Unsubscribe>;
export type CancelMessage = z.infer<typeof Cancel>;
export type ApproveMessage = z.infer<typeof Approve>;
/** A message a client sends. */
export type ClientMessage = SubscribeMessage | UnsubscribeMessage | CancelMessage | ApproveMessage;
export type MessageId = z.infer<typeof MessageId>;

/** An error as the socket reports it: a catalog code, a message for humans, the invalid fields. */
export interface SocketError {
  code: ErrorCode;
  message: string;
  fieldErrors?: FieldError[];
}

/** A message the gateway sends. Events keep the shapes of the SSE streams' `data`. */
export type ServerMessage =
  | { type: 'welcome'; v: typeof EVENTS_SOCKET_VERSION; maxMessageBytes: number }
  | { type: 'reply'; id: MessageId; ok: true; task?: TaskResource }
  | { type: 'reply'; id: MessageId; ok: false; error: SocketError }
  | { type: 'error'; id?: MessageId; error: SocketError }
  | { type: 'devices'; devices: DeviceInfo[] }
  | DeviceEvent
  | TaskEvent
  | { type: 'task.end'; taskId: string; lastEventId: number; error?: SocketError }
  | ({ type: 'screen.frame' } & LiveScreenFrame)
  | { type: 'screen.end'; deviceId: string; error: SocketError };

/** A client message that could not be read: the error to send, and the message's id when it had a valid one. */
export interface UnreadableMessage {
  error: MobileClawError;
  id?: MessageId;
}

/** The error of `err` as the socket reports it; anything but a MobileClawError is `INTERNAL_ERROR`. */
export function socketError(err: unknown): SocketError {
  if (!(err instanceof MobileClawError)) return { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) };
  return err.fieldErrors ? { code: err.code, message: err.message, fieldErrors: err.fieldErrors } : { code: err.code, message: err.message };
}

const invalid = (message: string, fieldErrors?: FieldError[]) => new MobileClawError('VALIDATION_FAILED', message, fieldErrors ? { fieldErrors } : {});

/** Most characters of a client's text (a type, a field name) an error message quotes; longer text is cut with `…`. */
const QUOTED_CHARS = 64;
/** Most field errors one answer lists; the rest are counted in its message. */
export const MAX_FIELD_ERRORS = 10;
/** Most unknown field names one field error quotes; the rest are counted. */
const QUOTED_KEYS = 3;

/** `text` JSON-quoted, cut to {@link QUOTED_CHARS} characters (`…` inside the quotes when cut). */
const quoted = (text: string): string => JSON.stringify(text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text);

/**
 * A `type` that is not a string, by its kind: never serialised, since a client's value can nest
 * deeper than `JSON.stringify` can recurse (it throws RangeError) or be as long as the message.
 */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** One schema issue as a field error, its message bounded: unknown keys are quoted (cut), at most {@link QUOTED_KEYS} of them (zod's own message quotes them all, whole). */
function fieldErrorOf(issue: z.core.$ZodIssue): FieldError {
  const field = issue.path.map(String).join('.') || '(message)';
  if (issue.code !== 'unrecognized_keys') return { field, message: issue.message };
  const { keys } = issue;
  const more = keys.length > QUOTED_KEYS ? ` and ${keys.length - QUOTED_KEYS} more` : '';
  return { field, message: `Unrecognized key${keys.length === 1 ? '' : 's'}: ${keys.slice(0, QUOTED_KEYS).map(quoted).join(', ')}${more}` };
}

/**
 * Reads one text message from a client.
 * @returns the message, or {@link UnreadableMessage} with `VALIDATION_FAILED`: not JSON, not an
 *   object, a `type` that is not a string or not a known one (the known ones listed), or fields that
 *   do not fit its schema (listed in `fieldErrors`, dotted paths such as `tasks.0.since`, at most
 *   {@link MAX_FIELD_ERRORS} of them). The error's text stays short whatever the message holds: a
 *   bad `type` is described by its kind or quoted cut to 64 characters, never echoed whole.
 */
export function parseClientMessage(text: string): ClientMessage | UnreadableMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: invalid('not valid JSON: send one JSON object per text message') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: invalid('a message must be a JSON object with a "type"') };
  const raw = value as Record<string, unknown>;
  const id = MessageId.safeParse(raw['id']);
  const echo = id.success ? { id: id.data } : {};
  const type = raw['type'];
  if (typeof type !== 'string' || !Object.hasOwn(SCHEMAS, type)) {
    const known = Object.keys(SCHEMAS).join(', ');
    const problem = typeof type === 'string' ? `unknown message type ${quoted(type)}` : `"type" must be a string, got ${kindOf(type)}`;
    return { ...echo, error: invalid(`${problem}; expected one of ${known}`, [{ field: 'type', message: `must be one of ${known}` }]) };
  }
  const parsed = SCHEMAS[type as keyof typeof SCHEMAS].safeParse(raw);
  if (parsed.success) return parsed.data;
  const all = parsed.error.issues.map(fieldErrorOf);
  const fieldErrors = all.slice(0, MAX_FIELD_ERRORS);
  const more = all.length > MAX_FIELD_ERRORS ? `; and ${all.length - MAX_FIELD_ERRORS} more` : '';
  return { ...echo, error: invalid(`invalid ${type} message: ${fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ')}${more}`, fieldErrors) };
}

/** True when {@link parseClientMessage} could not read the message. */
export function isUnreadable(message: ClientMessage | UnreadableMessage): message is UnreadableMessage {
  return 'error' in message && message.error instanceof MobileClawError;
}
