import { toolInvokeAnswer } from './tool-invoke-answer';

describe('toolInvokeAnswer (the /tools/invoke answer shape)', () => {
  it.each([
    ['a plain string result', 200, '{"ok":true,"result":"done"}', { ok: true, content: 'done', text: 'done' }],
    ['no result at all', 200, '{"ok":true}', { ok: true, content: null, text: 'null' }],
    ['an error as a string', 400, '{"ok":false,"error":"no such order"}', { ok: false, error: { code: 'TOOL_FAILED', message: 'lookup failed: no such order', retryable: false } }],
    ['an error with a code', 500, '{"ok":false,"error":{"code":"E_DB","message":"db locked"}}', { ok: false, error: { code: 'TOOL_FAILED', message: 'lookup failed [E_DB]: db locked', retryable: false } }],
    ['a validation error', 400, '{"ok":false,"error":{"type":"validation_error","message":"orderId missing"}}', { ok: false, error: { code: 'VALIDATION_FAILED', message: 'lookup failed [validation_error]: orderId missing', retryable: false } }],
    ['ok false with no message', 400, '{"ok":false,"error":{}}', { ok: false, error: { code: 'TOOL_BAD_RESPONSE', message: 'the tool server answered lookup with "ok": false but no error message: {"ok":false,"error":{}}', retryable: false } }],
    ['an empty body', 200, '', { ok: false, error: { code: 'TOOL_BAD_RESPONSE', message: 'the tool server answered lookup with HTTP 200 and a body that is not JSON: (empty)', retryable: false } }],
    ['a busy server', 429, '{"ok":true,"result":1}', { ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'the tool server could not serve lookup now (HTTP 429)', retryable: true } }],
    ['a refusal', 403, 'forbidden', { ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'the tool server refused the credentials for lookup (HTTP 403)', retryable: true } }],
  ])('reads %s', (_case, status, body, expected) => {
    expect(toolInvokeAnswer('lookup', status, body)).toEqual(expected);
  });

  it('quotes at most 500 characters of the remote’s words', () => {
    const result = toolInvokeAnswer('lookup', 400, JSON.stringify({ ok: false, error: 'e'.repeat(2000) }));
    expect(result).toEqual({ ok: false, error: { code: 'TOOL_FAILED', message: `lookup failed: ${'e'.repeat(500)}…`, retryable: false } });
  });
});
