import { MobileClawError } from '../errors';
import { MAX_CALLER_TOOLS, MAX_TOOL_RESULT_BYTES, callerToolsErrors, parseCallerTools, toolCallAnswerErrors, toolCallIdOf } from './caller-tool';

const lookupOrder = { name: 'lookup_order', description: 'Finds an order by its id.', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, kind: 'OBSERVATION' };

describe('caller tool specs', () => {
  it('accepts valid specs (and none) and copies exactly their members', () => {
    expect(callerToolsErrors([])).toEqual([]);
    expect(parseCallerTools([lookupOrder, { ...lookupOrder, name: 'refund-order_2', kind: 'ACTION' }])).toEqual([lookupOrder, { ...lookupOrder, name: 'refund-order_2', kind: 'ACTION' }]);
  });

  it('names each bad member by its path', () => {
    const errors = callerToolsErrors([
      { ...lookupOrder, name: 'has space' },
      { ...lookupOrder, description: '' },
      { ...lookupOrder, name: 'b', inputSchema: { type: 'string' } },
      { ...lookupOrder, name: 'c', kind: 'READ' },
      { ...lookupOrder, name: 'd', extra: 1 },
      'lookup',
    ]);
    expect(errors).toEqual([
      { field: 'tools.0.name', message: 'tools.0.name must be 1–64 characters of [A-Za-z0-9_-]' },
      { field: 'tools.1.description', message: 'tools.1.description must be a string of 1–1024 characters' },
      { field: 'tools.2.inputSchema.type', message: 'tools.2.inputSchema must have "type": "object" (tool arguments are a JSON object)' },
      { field: 'tools.3.kind', message: 'tools.3.kind must be one of OBSERVATION, ACTION' },
      { field: 'tools.4.extra', message: 'tools.4.extra is not a tool spec member' },
      { field: 'tools.5', message: 'tools.5 must be an object {name, description, inputSchema, kind}' },
    ]);
  });

  it('refuses reserved and repeated names, long names and descriptions, large schemas, too many tools', () => {
    expect(callerToolsErrors([{ ...lookupOrder, name: 'tap' }, { ...lookupOrder, name: 'done' }])).toEqual([
      { field: 'tools.0.name', message: 'tool name tap is reserved' },
      { field: 'tools.1.name', message: 'tool name done is reserved' },
    ]);
    expect(callerToolsErrors([lookupOrder, lookupOrder])).toEqual([{ field: 'tools.1.name', message: 'tool name lookup_order is used twice (names are compared ignoring case)' }]);
    expect(callerToolsErrors([{ ...lookupOrder, name: 'x'.repeat(65) }])[0].field).toBe('tools.0.name');
    expect(callerToolsErrors([{ ...lookupOrder, description: 'd'.repeat(1025) }])[0].field).toBe('tools.0.description');
    const big = { type: 'object', description: 'x'.repeat(16 * 1024) };
    expect(callerToolsErrors([{ ...lookupOrder, inputSchema: big }])).toEqual([
      { field: 'tools.0.inputSchema', message: `tools.0.inputSchema must be at most 16384 bytes as JSON (it has ${JSON.stringify(big).length})` },
    ]);
    const many = Array.from({ length: MAX_CALLER_TOOLS + 1 }, (_, i) => ({ ...lookupOrder, name: `t${i}` }));
    expect(callerToolsErrors(many)).toEqual([{ field: 'tools', message: 'tools must hold at most 64 tools (it has 65)' }]);
    expect(callerToolsErrors({ name: 'x' })).toEqual([{ field: 'tools', message: 'tools must be an array of tool specs' }]);
  });

  it('compares names ignoring case: "LOOKUP_ORDER" repeats "lookup_order", "TAP" and "Done" are reserved', () => {
    expect(callerToolsErrors([lookupOrder, { ...lookupOrder, name: 'LOOKUP_ORDER', kind: 'ACTION' }, { ...lookupOrder, name: 'TAP' }, { ...lookupOrder, name: 'Done' }])).toEqual([
      { field: 'tools.1.name', message: 'tool name LOOKUP_ORDER is used twice (names are compared ignoring case)' },
      { field: 'tools.2.name', message: 'tool name TAP is reserved' },
      { field: 'tools.3.name', message: 'tool name Done is reserved' },
    ]);
  });

  it('refuses control and format characters in a description, keeping tabs and line breaks', () => {
    expect(callerToolsErrors([{ ...lookupOrder, description: 'Finds an order.\n\tBy its id.\r\n' }])).toEqual([]);
    for (const description of ['Finds\u0000 an order', 'Finds \u202Eredro na', 'Finds\u200B an order', 'Finds\u001b[31m an order']) {
      expect(callerToolsErrors([{ ...lookupOrder, description }])).toEqual([
        { field: 'tools.0.description', message: 'tools.0.description must not contain control or format characters (tabs and line breaks are fine)' },
      ]);
    }
  });

  it('refuses a schema nested deeper than 32 levels or with prototype keys, without overflowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 8000; i++) deep = { type: 'object', properties: { a: deep } };
    const errors = callerToolsErrors([{ ...lookupOrder, inputSchema: deep }]);
    expect(errors).toHaveLength(1);
    // The path of the 33rd level, quoted up to 200 characters.
    const path = `tools.0.inputSchema${'.properties.a'.repeat(16)}`;
    expect(errors[0]).toEqual({ field: `${path.slice(0, 199)}…`, message: `${path.slice(0, 199)}…: nesting deeper than 32 levels` });
    expect(callerToolsErrors([{ ...lookupOrder, inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') }])).toEqual([
      { field: 'tools.0.inputSchema.properties.__proto__', message: 'tools.0.inputSchema.properties.__proto__: property __proto__ is not allowed' },
    ]);
  });

  it('throws VALIDATION_FAILED with the field errors', () => {
    expect.assertions(2);
    try {
      parseCallerTools([{ ...lookupOrder, name: 'swipe' }]);
    } catch (err) {
      expect(err).toBeInstanceOf(MobileClawError);
      expect(err).toMatchObject({ code: 'VALIDATION_FAILED', message: 'tool name swipe is reserved', fieldErrors: [{ field: 'tools.0.name', message: 'tool name swipe is reserved' }] });
    }
  });
});

describe('tool call answers', () => {
  it('accepts a result or a rejection with a reason', () => {
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'ok', result: { status: 'shipped' } })).toEqual([]);
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'ok' })).toEqual([]);
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'rejected', reason: 'not exposed' })).toEqual([]);
  });

  it('refuses a missing id or outcome, a rejection without reason, an oversized result', () => {
    expect(toolCallAnswerErrors({ outcome: 'maybe' })).toEqual([
      { field: 'toolCallId', message: 'toolCallId must be a non-empty string' },
      { field: 'outcome', message: 'outcome must be "ok" or "rejected"' },
    ]);
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'rejected', reason: ' ' })).toEqual([{ field: 'reason', message: 'reason must be a string of 1–2000 characters when outcome is rejected' }]);
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'ok', result: deep })).toEqual([{ field: `result${'.0'.repeat(32)}`, message: `result${'.0'.repeat(32)}: nesting deeper than 32 levels` }]);
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'ok', result: JSON.parse('{"a":{"__proto__":{"admin":true}}}') })).toEqual([
      { field: 'result.a.__proto__', message: 'result.a.__proto__: property __proto__ is not allowed' },
    ]);
    const result = 'x'.repeat(MAX_TOOL_RESULT_BYTES);
    expect(toolCallAnswerErrors({ toolCallId: 't:1', outcome: 'ok', result })).toEqual([{ field: 'result', message: `result must be at most 65536 bytes as JSON (it has ${MAX_TOOL_RESULT_BYTES + 2})` }]);
  });

  it('gives a call the id of its task and step', () => {
    expect(toolCallIdOf('3f2a', 4)).toBe('3f2a:4');
  });
});
