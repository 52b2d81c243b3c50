import type { RunningGateway } from '@mobileclaw/gateway';
import { gatewayUrl } from '../support/test-gateways';
import type { Json } from './mcp-client';

/**
 * MCP on the wire, without the SDK client: for what the client hides (session headers, statuses,
 * fixed JSON-RPC ids, event ids).
 */

/** The newest 2025 revision (sessions, `initialize`). */
export const REVISION_2025 = '2025-11-25';
/** The stateless revision: no `initialize`, a `_meta` envelope on every request. */
export const REVISION_2026 = '2026-07-28';

/** What a Streamable HTTP client accepts on a POST. */
const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A 2025 `initialize` request. */
export function initializeRequest(id: number | string = 1, capabilities: Json = {}): Json {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: REVISION_2025, capabilities, clientInfo: { name: 'raw-test', version: '1.0.0' } } };
}

/** A `tools/call` request; on the 2026-07-28 revision it carries the `_meta` envelope. */
export function toolCall(id: number | string, name: string, args: Json = {}, revision: typeof REVISION_2025 | typeof REVISION_2026 = REVISION_2025): Json {
  const params: Json = { name, arguments: args };
  if (revision === REVISION_2026) params._meta = modernEnvelope();
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** The `_meta` envelope every 2026-07-28 request carries (as the SDK client sends it). */
export function modernEnvelope(capabilities: Json = {}): Json {
  return {
    'io.modelcontextprotocol/protocolVersion': REVISION_2026,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** POSTs one JSON-RPC message to `path` (default `/mcp`); `sessionId` sets `Mcp-Session-Id`. */
export function postMcp(gw: RunningGateway, message: unknown, options: { sessionId?: string; headers?: Record<string, string>; path?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...modernHeaders(message), ...options.headers };
  if (options.sessionId !== undefined) {
    headers['mcp-session-id'] = options.sessionId;
    headers['mcp-protocol-version'] = REVISION_2025;
  }
  return fetch(gatewayUrl(gw, options.path ?? '/mcp'), { method: 'POST', headers, body: typeof message === 'string' ? message : JSON.stringify(message) });
}

/**
 * The headers a 2026-07-28 request repeats from its body (`MCP-Protocol-Version`, `Mcp-Method`, and
 * `Mcp-Name` for a tool call); the gateway answers 400 when they are absent or disagree.
 */
function modernHeaders(message: unknown): Record<string, string> {
  const m = message as Json;
  if (typeof m !== 'object' || m === null || m.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== REVISION_2026) return {};
  const headers: Record<string, string> = { 'mcp-protocol-version': REVISION_2026, 'mcp-method': m.method };
  if (m.method === 'tools/call') headers['mcp-name'] = m.params.name;
  return headers;
}

/** Sends a request with no body (GET, DELETE) on a session. */
export function sessionRequest(gw: RunningGateway, method: 'GET' | 'DELETE', sessionId: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
  const all: Record<string, string> = { accept: 'text/event-stream', 'mcp-protocol-version': REVISION_2025, ...headers };
  if (sessionId !== undefined) all['mcp-session-id'] = sessionId;
  return fetch(gatewayUrl(gw, '/mcp'), { method, headers: all });
}

/** The JSON-RPC messages of a complete answer: a JSON body, or every `data` of an event stream (empty priming events skipped). */
export async function messagesOf(res: Response): Promise<Json[]> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return text === '' ? [] : [JSON.parse(text)];
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data.trim() !== '')
    .map((data) => JSON.parse(data) as Json);
}

/** The one JSON-RPC response (result or error) of an answer. */
export async function responseOf(res: Response): Promise<Json> {
  const responses = (await messagesOf(res)).filter((m) => 'result' in m || 'error' in m);
  if (responses.length !== 1) throw new Error(`expected one response, got ${JSON.stringify(responses)}`);
  return responses[0];
}

/** Opens a 2025 session: `initialize`, then `notifications/initialized`. Returns the `Mcp-Session-Id`. */
export async function openSession(gw: RunningGateway, headers: Record<string, string> = {}): Promise<string> {
  const res = await postMcp(gw, initializeRequest(), { headers });
  const sessionId = res.headers.get('mcp-session-id');
  if (res.status !== 200 || !sessionId) throw new Error(`initialize answered ${res.status}: ${await res.text()}`);
  await res.text();
  const initialized = await postMcp(gw, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId, headers });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return sessionId;
}
