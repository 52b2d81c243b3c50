/**
 * JSON-RPC 2.0 exactness in front of the SDK's handler, which answers some envelope errors with
 * -32602 and replies to notifications. The rules (https://www.jsonrpc.org/specification):
 * - a body that is not JSON: -32700 Parse error, id null;
 * - not a request object (an array — batches are not served, `[]` included —, a scalar, no
 *   `jsonrpc: "2.0"`, a `method` that is not a string, an `id` that is not a string, number or null,
 *   `params` that are neither object nor array): -32600 Invalid Request, id null when unreadable;
 * - a method this endpoint does not serve: -32601 Method not found;
 * - `params` that are not an object (A2A takes named parameters only): -32602 Invalid params;
 * - a notification (no `id` member): no reply at all, and nothing is run (every A2A method answers).
 */

/** A2A v1.0 methods. */
export const A2A_METHODS: readonly string[] = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];

/** A2A v0.3 methods, served through the SDK's `legacyCompat` layer. */
export const A2A_V03_METHODS: readonly string[] = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];

export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  /** `data.code`: the gateway's catalog code, when the refusal has one (e.g. `UNAUTHORIZED`, `HOST_NOT_ALLOWED`). */
  error: { code: number; message: string; data?: { code: string } };
}

/** What to do with a request body. */
export type EnvelopeVerdict =
  | { kind: 'serve'; request: { jsonrpc: '2.0'; id: string | number | null; method: string; params?: unknown }; protocolVersion: '1.0' | '0.3' }
  | { kind: 'notification' }
  | { kind: 'error'; reply: JsonRpcErrorReply };

function error(id: string | number | null, code: number, message: string): EnvelopeVerdict {
  return { kind: 'error', reply: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** Judges a raw request body (UTF-8 text) by the rules above. */
export function judgeEnvelope(text: string): EnvelopeVerdict {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return error(null, -32700, 'Parse error: the body is not valid JSON');
  }
  if (Array.isArray(body)) return error(null, -32600, 'Invalid Request: batches are not served; send one request object');
  if (typeof body !== 'object' || body === null) return error(null, -32600, 'Invalid Request: the body must be a JSON-RPC request object');
  const request = body as Record<string, unknown>;
  const validId = !('id' in request) || typeof request.id === 'string' || typeof request.id === 'number' || request.id === null;
  const id = validId && 'id' in request ? (request.id as string | number | null) : null;
  if (!validId) return error(null, -32600, 'Invalid Request: id must be a string, a number or null');
  if (request.jsonrpc !== '2.0') return error(id, -32600, 'Invalid Request: jsonrpc must be "2.0"');
  if (typeof request.method !== 'string') return error(id, -32600, 'Invalid Request: method must be a string');
  if ('params' in request && (typeof request.params !== 'object' || request.params === null)) return error(id, -32600, 'Invalid Request: params must be an object or an array');
  if (!('id' in request)) return { kind: 'notification' };
  const method = request.method;
  const protocolVersion = A2A_METHODS.includes(method) ? '1.0' : A2A_V03_METHODS.includes(method) ? '0.3' : undefined;
  if (protocolVersion === undefined) return error(id, -32601, `Method not found: ${method}`);
  if (Array.isArray(request.params)) return error(id, -32602, 'Invalid params: A2A methods take named parameters (an object)');
  return { kind: 'serve', request: { jsonrpc: '2.0', id, method, ...('params' in request ? { params: request.params } : {}) }, protocolVersion };
}
