import { toolFailure, toolSuccess, type ToolContent, type ToolInvocationResult } from '@mobileclaw/domain';

/** Longest piece of a remote's own words quoted in a failure message, in characters. */
const QUOTE_CHARS = 500;

/** Statuses that say the remote cannot serve now (busy, overloaded, its upstream down): `TOOL_UNAVAILABLE`. */
const UNAVAILABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * The result of one `POST <invokeUrl> {tool, args}` from its HTTP status and body, the answer shape of
 * OpenClaw's `/tools/invoke`:
 * - `{ok: true, result}` → success; `content` is `result` (`null` when absent), `text` the result when
 *   it is a string, the joined `text` items of an MCP-style `{content: [{type: "text", text}]}`, else its JSON;
 * - `{ok: false, error}` with `error` a string or `{message, code?, type?}` → `VALIDATION_FAILED` when
 *   the code or type names invalid arguments (`invalid…`, `validation…`, `bad_request`), else `TOOL_FAILED`;
 * - HTTP 401/403 (credentials refused), 404 (the remote does not offer the tool now), 408, 429, 502–504
 *   → `TOOL_UNAVAILABLE` whatever the body;
 * - a body that is not JSON, or JSON without a boolean `ok` → `TOOL_BAD_RESPONSE`.
 * Messages quote the remote's words, cut to 500 characters; the caller redacts credentials.
 */
export function toolInvokeAnswer(tool: string, status: number, body: string): ToolInvocationResult {
  if (status === 401 || status === 403) return toolFailure('TOOL_UNAVAILABLE', `the tool server refused the credentials for ${tool} (HTTP ${status})`);
  if (status === 404) return toolFailure('TOOL_UNAVAILABLE', `the tool server does not offer ${tool} now (HTTP 404)${quoteError(body)}`);
  if (UNAVAILABLE_STATUSES.has(status)) return toolFailure('TOOL_UNAVAILABLE', `the tool server could not serve ${tool} now (HTTP ${status})`);
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return toolFailure('TOOL_BAD_RESPONSE', `the tool server answered ${tool} with HTTP ${status} and a body that is not JSON: ${quote(body)}`);
  }
  if (!isObject(answer) || typeof answer['ok'] !== 'boolean') {
    return toolFailure('TOOL_BAD_RESPONSE', `the tool server answered ${tool} with HTTP ${status} and JSON without a boolean "ok": ${quote(body)}`);
  }
  if (answer['ok']) {
    const result = (answer['result'] ?? null) as ToolContent;
    return toolSuccess(result, resultText(result));
  }
  const error = remoteError(answer['error']);
  if (error === undefined) return toolFailure('TOOL_BAD_RESPONSE', `the tool server answered ${tool} with "ok": false but no error message: ${quote(body)}`);
  const label = error.code === undefined ? '' : ` [${error.code}]`;
  const code = error.code !== undefined && /^(invalid|validation|bad_?request)/i.test(error.code) ? 'VALIDATION_FAILED' : 'TOOL_FAILED';
  return toolFailure(code, `${tool} failed${label}: ${quote(error.message)}`);
}

/** The text of a result: itself when a string, the text items of an MCP-style `content` list, else its JSON. */
export function resultText(result: ToolContent): string {
  if (typeof result === 'string') return result;
  if (isObject(result) && Array.isArray(result['content'])) {
    const texts = result['content'].flatMap((item) => (isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string' ? [item['text']] : []));
    if (texts.length > 0 && texts.join('').trim() !== '') return texts.join('\n');
  }
  return JSON.stringify(result);
}

function remoteError(error: unknown): { message: string; code?: string } | undefined {
  if (typeof error === 'string' && error.trim() !== '') return { message: error };
  if (!isObject(error) || typeof error['message'] !== 'string' || error['message'].trim() === '') return undefined;
  const code = typeof error['code'] === 'string' ? error['code'] : typeof error['type'] === 'string' ? error['type'] : undefined;
  return { message: error['message'], ...(code === undefined ? {} : { code }) };
}

/** `: <message>` of an `{ok: false, error}` body, or nothing. */
function quoteError(body: string): string {
  try {
    const answer: unknown = JSON.parse(body);
    const error = isObject(answer) ? remoteError(answer['error']) : undefined;
    return error === undefined ? '' : `: ${quote(error.message)}`;
  } catch {
    return '';
  }
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat === '' ? '(empty)' : flat;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
