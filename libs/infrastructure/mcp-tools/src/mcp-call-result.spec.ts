import { mcpCallResultToInvocationResult } from './mcp-call-result';

describe('MCP call results', () => {
  it('gives text blocks as text and the blocks as content', () => {
    const result = mcpCallResultToInvocationResult({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }, 'lookup', 1024);
    expect(result).toEqual({ ok: true, content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }], text: 'one\n\ntwo' });
  });

  it('prefers structured content, and names blocks that are not text', () => {
    const result = mcpCallResultToInvocationResult(
      {
        content: [
          { type: 'image', data: 'iVBO', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'demo://r/1', name: 'r1' },
          { type: 'resource', resource: { uri: 'demo://r/2', text: 'inline text' } },
          { type: 'resource', resource: { uri: 'demo://r/3', blob: 'AAAA' } },
        ],
        structuredContent: { total: 3 },
      },
      'shot',
      4096,
    );
    expect(result).toEqual({ ok: true, content: { total: 3 }, text: '[image image/png]\n\n[resource_link demo://r/1]\n\ninline text\n\n[resource demo://r/3]' });
    expect(mcpCallResultToInvocationResult({ content: [], structuredContent: { t: 1 } }, 'x', 1024)).toEqual({ ok: true, content: { t: 1 }, text: '{"t":1}' });
  });

  it('turns an error result into TOOL_FAILED with the server’s text', () => {
    expect(mcpCallResultToInvocationResult({ content: [{ type: 'text', text: 'no such order 42' }], isError: true }, 'orders_get', 1024)).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'orders_get: no such order 42', retryable: false },
    });
    expect(mcpCallResultToInvocationResult({ content: [], isError: true }, 'orders_get', 1024)).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'orders_get: the tool reported an error', retryable: false },
    });
  });

  it('refuses a result over the limit, counting the bytes of its JSON', () => {
    const result = { content: [{ type: 'text' as const, text: 'é'.repeat(100) }] };
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBe(239);
    expect(mcpCallResultToInvocationResult(result, 'big', bytes)).toMatchObject({ ok: true });
    expect(mcpCallResultToInvocationResult(result, 'big', bytes - 1)).toEqual({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'the result of big is 239 bytes, over the limit of 238 bytes', retryable: false },
    });
  });
});
