import { InMemoryToolCallStore } from './tool-call-store';
import { LocalTools, type ToolCallHooks } from './local-tools';
import { MAX_TOOL_REJECTION_LENGTH } from './rejection-reason';
import type { JsonValue, LocalTool, ToolCallRequest } from './tool-types';

/** What the gateway's tool-result rules and the SDK's replay rules mean for {@link LocalTools}. */

function toolNamed(name: string, execute: LocalTool['execute'] = () => ({ ok: true })): LocalTool {
  return { name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, kind: 'OBSERVATION', execute };
}

function callOf(overrides: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return { toolCallId: 'task-1:0', name: 'lookup_order', arguments: {}, invocationRef: 'inv-1', conversationId: 'conv-a', ...overrides };
}

function hooksOf(overrides: Partial<ToolCallHooks> = {}): ToolCallHooks {
  return { conversationPolicy: { allow: '*' }, invocationPolicy: { allow: '*' }, signal: new AbortController().signal, ...overrides };
}

/** `levels` levels of nested objects: 1 → `{}`, 2 → `{a: {}}`. */
function nested(levels: number): JsonValue {
  let value: JsonValue = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

describe('LocalTools and the gateway rules', () => {
  describe('rejection reasons', () => {
    it('cuts a reason longer than the gateway takes to 2,000 code points ending with …', async () => {
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => {
        throw new Error('x'.repeat(3000));
      }));
      const outcome = await tools.handle(callOf(), hooksOf());
      expect(outcome.outcome).toBe('rejected');
      const reason = (outcome as { reason: string }).reason;
      expect(Array.from(reason)).toHaveLength(MAX_TOOL_REJECTION_LENGTH);
      expect(reason.startsWith('tool lookup_order failed: xxx')).toBe(true);
      expect(reason.endsWith('x…')).toBe(true);
    });

    it.each([
      [1974, 'kept whole', (reason: string) => expect(reason).toBe(`tool lookup_order failed: ${'😀'.repeat(1974)}`)],
      [1975, 'cut after a whole emoji', (reason: string) => expect(reason).toBe(`tool lookup_order failed: ${'😀'.repeat(1973)}…`)],
    ])('counts code points, not UTF-16 units: a reason of 26 + %i emoji is %s', async (count, _how, check) => {
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => {
        throw new Error('😀'.repeat(count));
      }));
      const outcome = (await tools.handle(callOf(), hooksOf())) as { reason: string };
      check(outcome.reason);
      expect(Array.from(outcome.reason).length).toBeLessThanOrEqual(MAX_TOOL_REJECTION_LENGTH);
    });
  });

  describe('results', () => {
    it('accepts a result nested 31 levels (the gateway takes 32 levels in the body around it)', async () => {
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => nested(31)));
      await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: nested(31) });
    });

    it('rejects a result nested 32 levels with where it is too deep', async () => {
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => nested(32)));
      await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: `tool lookup_order: the result nests deeper than the 31 levels the gateway takes (at ${'/a'.repeat(31)})`,
      });
    });

    it('rejects an array nested 40 levels the same way (arrays are levels too)', async () => {
      let value: JsonValue = [];
      for (let level = 1; level < 40; level++) value = [value];
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => value));
      await expect(tools.handle(callOf(), hooksOf())).resolves.toMatchObject({ outcome: 'rejected', reason: expect.stringContaining('nests deeper than the 31 levels') });
    });

    it.each(['__proto__', 'constructor', 'prototype'])('rejects a result with a %s key anywhere', async (key) => {
      const inner = JSON.parse(`{"${key}": {"polluted": true}}`) as JsonValue;
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => ({ order: { lines: [inner] } })));
      await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: `tool lookup_order: the result has a ${key} key, which the gateway refuses (at /order/lines/0/${key})`,
      });
    });
  });

  describe('replaying a recorded call', () => {
    it("does not answer a record to a conversation that does not expose its tool", async () => {
      const store = new InMemoryToolCallStore();
      const tools = new LocalTools({ store });
      tools.register(toolNamed('secret', () => ({ pin: '1234' })));
      tools.register(toolNamed('lookup_order'));
      await expect(tools.handle(callOf({ name: 'secret' }), hooksOf({ conversationPolicy: { allow: ['secret'] } }))).resolves.toEqual({ outcome: 'ok', result: { pin: '1234' } });

      const replayed = await tools.handle(callOf({ name: 'secret', conversationId: 'conv-b' }), hooksOf({ conversationPolicy: { allow: ['lookup_order'] } }));
      expect(replayed).toEqual({ outcome: 'rejected', reason: "tool secret is not exposed: the conversation's tool policy does not allow it" });
    });

    it('rejects a delivery of a recorded toolCallId that names another tool, and runs nothing', async () => {
      let runs = 0;
      const tools = new LocalTools();
      tools.register(toolNamed('secret', () => ({ pin: '1234' })));
      tools.register(toolNamed('lookup_order', () => {
        runs += 1;
        return { status: 'shipped' };
      }));
      await tools.handle(callOf({ name: 'secret' }), hooksOf());
      await expect(tools.handle(callOf({ name: 'lookup_order' }), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'toolCallId task-1:0 was recorded for another tool; not run' });
      expect(runs).toBe(0);
    });

    it('still answers the recorded outcome to a delivery of the same tool where it is exposed', async () => {
      let runs = 0;
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order', () => ({ run: ++runs })));
      await tools.handle(callOf(), hooksOf());
      await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: { run: 1 } });
      expect(runs).toBe(1);
    });
  });

  describe('register', () => {
    it('refuses a name that differs from a registered one only in case', () => {
      const tools = new LocalTools();
      tools.register(toolNamed('lookup_order'));
      expect(() => tools.register(toolNamed('Lookup_Order'))).toThrow(
        expect.objectContaining({ code: 'TOOL_NAME_TAKEN', message: 'a tool named lookup_order is already registered (names differing only in case are refused)' }),
      );
      expect(tools.registeredSpecs().map((spec) => spec.name)).toEqual(['lookup_order']);
    });
  });
});
