import { judgeEnvelope } from './json-rpc-envelope';

describe('judgeEnvelope', () => {
  const code = (text: string) => {
    const verdict = judgeEnvelope(text);
    return verdict.kind === 'error' ? verdict.reply.error.code : verdict.kind;
  };

  it('maps each malformed envelope to its JSON-RPC 2.0 code', () => {
    expect(code('{')).toBe(-32700);
    expect(code('[]')).toBe(-32600);
    expect(code('"x"')).toBe(-32600);
    expect(code('{"jsonrpc":"1.0","id":1,"method":"GetTask"}')).toBe(-32600);
    expect(code('{"jsonrpc":"2.0","id":true,"method":"GetTask"}')).toBe(-32600);
    expect(code('{"jsonrpc":"2.0","id":1,"method":"Nope"}')).toBe(-32601);
    expect(code('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[]}')).toBe(-32602);
    expect(code('{"jsonrpc":"2.0","method":"GetTask","params":{}}')).toBe('notification');
  });

  it('keeps the id of a readable request and tells v1.0 from v0.3 methods', () => {
    expect(judgeEnvelope('{"jsonrpc":"2.0","id":"r-1","method":"Nope"}')).toStrictEqual({ kind: 'error', reply: { jsonrpc: '2.0', id: 'r-1', error: { code: -32601, message: 'Method not found: Nope' } } });
    expect(judgeEnvelope('{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"t"}}')).toMatchObject({ kind: 'serve', protocolVersion: '0.3' });
    expect(judgeEnvelope('{"jsonrpc":"2.0","id":null,"method":"GetTask","params":{"id":"t"}}')).toStrictEqual({
      kind: 'serve',
      protocolVersion: '1.0',
      request: { jsonrpc: '2.0', id: null, method: 'GetTask', params: { id: 't' } },
    });
  });
});
