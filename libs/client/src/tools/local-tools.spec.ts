import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileToolCallStore } from './file-tool-call-store';
import { INTERRUPTED_REASON, LocalTools, type ToolCallHooks } from './local-tools';
import { InMemoryToolCallStore, ToolCallStore } from './tool-call-store';
import { ToolRegistrationError } from './tool-errors';
import type { JsonValue, LocalTool, ToolApprovalRequest, ToolCallContext, ToolCallRequest, ToolPolicy } from './tool-types';

const ALL: ToolPolicy = { allow: '*' };

/** A promise the test settles itself. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** A tool that records each execution and answers `answer(args)`. */
function recordingTool(overrides: Partial<LocalTool> = {}, answer: (args: Record<string, unknown>, context: ToolCallContext) => Promise<JsonValue> | JsonValue = (args) => ({ found: args['orderId'] as string, status: 'shipped' })) {
  const runs: { args: Record<string, unknown>; context: ToolCallContext }[] = [];
  const tool: LocalTool = {
    name: 'lookup_order',
    description: 'Looks an order up in the order system by its id.',
    inputSchema: { type: 'object', properties: { orderId: { type: 'string', pattern: '^A-[0-9]+$' } }, required: ['orderId'], additionalProperties: false },
    kind: 'OBSERVATION',
    ...overrides,
    execute: (args, context) => {
      runs.push({ args, context });
      return answer(args, context);
    },
  };
  return { tool, runs };
}

function callOf(overrides: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return { toolCallId: 'task-1:0', name: 'lookup_order', arguments: { orderId: 'A-17' }, invocationRef: 'inv-1', conversationId: 'crm-ticket-42', ...overrides };
}

function hooksOf(overrides: Partial<ToolCallHooks> = {}): ToolCallHooks {
  return { conversationPolicy: ALL, invocationPolicy: ALL, signal: new AbortController().signal, ...overrides };
}

describe('LocalTools', () => {
  describe('register', () => {
    const valid = recordingTool().tool;

    it.each([
      ['an empty name', { name: '' }, 'tool name "" must be 1-64 characters of A-Z a-z 0-9 _ -'],
      ['a name of 65 characters', { name: 'a'.repeat(65) }, `tool name "${'a'.repeat(65)}" must be 1-64 characters of A-Z a-z 0-9 _ -`],
      ['a name with a space', { name: 'lookup order' }, 'tool name "lookup order" must be 1-64 characters of A-Z a-z 0-9 _ -'],
      ['an empty description', { description: '' }, 'tool lookup_order: the description must be 1-1024 characters'],
      ['a description of 1,025 characters', { description: 'd'.repeat(1025) }, 'tool lookup_order: the description must be 1-1024 characters'],
      ['an unknown kind', { kind: 'WRITE' as never }, 'tool lookup_order: kind must be OBSERVATION or ACTION, not "WRITE"'],
      ['a schema of another type', { inputSchema: { type: 'string' } as never }, 'tool lookup_order: inputSchema must be a JSON Schema object with "type": "object"'],
      ['a schema without a type', { inputSchema: { properties: {} } as never }, 'tool lookup_order: inputSchema must be a JSON Schema object with "type": "object"'],
      ['a schema with a misspelt keyword', { inputSchema: { type: 'object', propertees: {} } }, 'tool lookup_order: inputSchema is not a valid JSON Schema: strict mode: unknown keyword: "propertees"'],
      ['a schema with a wrong keyword value', { inputSchema: { type: 'object', required: 'orderId' } }, 'tool lookup_order: inputSchema is not a valid JSON Schema: schema is invalid: data/required must be array'],
      ['a schema with an unresolvable $ref', { inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/order.json' } } } }, "tool lookup_order: inputSchema is not a valid JSON Schema: can't resolve reference https://example.com/order.json from id #"],
      ['a schema over 16 KiB', { inputSchema: { type: 'object', description: 'x'.repeat(16 * 1024) } }, `tool lookup_order: inputSchema is ${16 * 1024 + 34} bytes as JSON, more than the 16384 allowed`],
    ])('refuses %s with TOOL_SPEC_INVALID', (_case, overrides, message) => {
      const tools = new LocalTools();
      const error = (() => {
        try {
          tools.register({ ...valid, ...(overrides as Partial<LocalTool>) });
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ToolRegistrationError);
      expect(error).toMatchObject({ code: 'TOOL_SPEC_INVALID', message });
      expect(tools.registeredSpecs()).toEqual([]);
    });

    it('refuses a tool without an execute function', () => {
      expect(() => new LocalTools().register({ ...valid, execute: undefined as never })).toThrow(new ToolRegistrationError('TOOL_SPEC_INVALID', 'tool lookup_order: execute must be a function'));
    });

    it('refuses a second tool of the same name with TOOL_NAME_TAKEN and keeps the first', () => {
      const tools = new LocalTools();
      tools.register(valid);
      expect(() => tools.register({ ...valid, description: 'Another one.' })).toThrow(expect.objectContaining({ code: 'TOOL_NAME_TAKEN', message: 'a tool named lookup_order is already registered' }));
      expect(tools.registeredSpecs().map((spec) => spec.description)).toEqual(['Looks an order up in the order system by its id.']);
    });

    it('accepts the same $id in two tools: each schema stands alone', () => {
      const tools = new LocalTools();
      tools.register({ ...valid, name: 'a', inputSchema: { $id: 'https://crm.example/args.json', type: 'object' } });
      tools.register({ ...valid, name: 'b', inputSchema: { $id: 'https://crm.example/args.json', type: 'object' } });
      expect(tools.registeredSpecs().map((spec) => spec.name)).toEqual(['a', 'b']);
    });

    it('refuses a schema that is not JSON', () => {
      expect(() => new LocalTools().register({ ...valid, inputSchema: { type: 'object', maximum: BigInt(5) } })).toThrow(
        new ToolRegistrationError('TOOL_SPEC_INVALID', 'tool lookup_order: inputSchema is not JSON: Do not know how to serialize a BigInt'),
      );
    });

    it('keeps its own copy of the schema: changing the app object later changes neither the spec nor the validation', async () => {
      const inputSchema = { type: 'object' as const, properties: { orderId: { type: 'string' } }, required: ['orderId'] };
      const tools = new LocalTools();
      tools.register({ ...valid, inputSchema });
      inputSchema.required = [];
      inputSchema.properties.orderId.type = 'number';

      expect(tools.registeredSpecs()[0].inputSchema).toEqual({ type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] });
      await expect(tools.handle(callOf({ arguments: {} }), hooksOf())).resolves.toMatchObject({ outcome: 'rejected' });
      await expect(tools.handle(callOf({ toolCallId: 'task-1:1' }), hooksOf())).resolves.toMatchObject({ outcome: 'ok' });
    });

    it('treats format as an annotation (no format validators are bundled)', () => {
      const tools = new LocalTools();
      tools.register({ ...valid, inputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } });
      expect(tools.registeredSpecs()).toHaveLength(1);
    });
  });

  describe('exposedSpecs', () => {
    const tools = new LocalTools();
    for (const name of ['lookup_order', 'refund', 'send_invoice']) tools.register({ ...recordingTool({ name }).tool, kind: name === 'lookup_order' ? 'OBSERVATION' : 'ACTION' });

    it('exposes nothing by default: registering is not exposing', () => {
      expect(tools.exposedSpecs(undefined, undefined)).toEqual([]);
      expect(tools.exposedSpecs(ALL, undefined)).toEqual([]);
      expect(tools.exposedSpecs(undefined, ALL)).toEqual([]);
    });

    it('exposes what both policies allow, in registration order, with the wire spec only', () => {
      const specs = tools.exposedSpecs({ allow: ['send_invoice', 'lookup_order', 'refund'] }, { allow: ['lookup_order', 'send_invoice', 'not_registered'] });
      expect(specs).toEqual([
        { name: 'lookup_order', description: 'Looks an order up in the order system by its id.', inputSchema: recordingTool().tool.inputSchema, kind: 'OBSERVATION' },
        { name: 'send_invoice', description: 'Looks an order up in the order system by its id.', inputSchema: recordingTool().tool.inputSchema, kind: 'ACTION' },
      ]);
      expect(Object.keys(specs[0]).sort()).toEqual(['description', 'inputSchema', 'kind', 'name']);
    });

    it("applies '*' and deny on either side: the invocation can only narrow", () => {
      expect(tools.exposedSpecs({ allow: '*', deny: ['refund'] }, ALL).map((spec) => spec.name)).toEqual(['lookup_order', 'send_invoice']);
      expect(tools.exposedSpecs(ALL, { allow: '*', deny: ['send_invoice'] }).map((spec) => spec.name)).toEqual(['lookup_order', 'refund']);
      expect(tools.exposedSpecs({ allow: ['refund'] }, { allow: '*' }).map((spec) => spec.name)).toEqual(['refund']);
      expect(tools.exposedSpecs({ allow: ['refund'] }, { allow: [] }).map((spec) => spec.name)).toEqual([]);
    });
  });

  describe('handle', () => {
    it('runs an exposed OBSERVATION tool directly with the validated arguments and the call context', async () => {
      const { tool, runs } = recordingTool();
      const tools = new LocalTools();
      tools.register(tool);
      const signal = new AbortController().signal;

      await expect(tools.handle(callOf(), hooksOf({ signal }))).resolves.toEqual({ outcome: 'ok', result: { found: 'A-17', status: 'shipped' } });
      expect(runs).toEqual([{ args: { orderId: 'A-17' }, context: { toolCallId: 'task-1:0', invocationRef: 'inv-1', conversationId: 'crm-ticket-42', signal } }]);
      await expect(tools.record('task-1:0')).resolves.toMatchObject({ state: 'done', outcome: { outcome: 'ok' } });
    });

    it('rejects a tool the conversation does not expose, without running it', async () => {
      const { tool, runs } = recordingTool();
      const tools = new LocalTools();
      tools.register(tool);
      await expect(tools.handle(callOf(), hooksOf({ conversationPolicy: undefined }))).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool lookup_order is not exposed: the conversation has no tool policy',
      });
      await expect(tools.handle(callOf({ toolCallId: 'task-1:1' }), hooksOf({ conversationPolicy: { allow: ['refund'] } }))).resolves.toEqual({
        outcome: 'rejected',
        reason: "tool lookup_order is not exposed: the conversation's tool policy does not allow it",
      });
      expect(runs).toEqual([]);
    });

    it('rejects a tool the conversation exposes but the invocation narrowed away, without running it', async () => {
      const { tool, runs } = recordingTool();
      const tools = new LocalTools();
      tools.register(tool);
      await expect(tools.handle(callOf(), hooksOf({ conversationPolicy: { allow: ['lookup_order'] }, invocationPolicy: { allow: '*', deny: ['lookup_order'] } }))).resolves.toEqual({
        outcome: 'rejected',
        reason: "tool lookup_order is not exposed: this invocation's tool policy does not allow it",
      });
      await expect(tools.handle(callOf({ toolCallId: 'task-1:1' }), hooksOf({ invocationPolicy: undefined }))).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool lookup_order is not exposed: this invocation has no tool policy',
      });
      expect(runs).toEqual([]);
    });

    it('rejects a call without a toolCallId (it could not be recorded) and arguments that are not an object', async () => {
      const { tool, runs } = recordingTool();
      const tools = new LocalTools();
      tools.register(tool);
      await expect(tools.handle(callOf({ toolCallId: '' }), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'the tool call has no toolCallId, so it is not run' });
      await expect(tools.handle(callOf({ arguments: ['A-17'] as never }), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool lookup_order: the arguments do not match its input schema: arguments must be object',
      });
      expect(runs).toEqual([]);
    });

    it('rejects an exposed name that is not registered', async () => {
      await expect(new LocalTools().handle(callOf({ name: 'drop_tables' }), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool drop_tables is not registered in this client',
      });
    });

    it('rejects arguments that violate the schema with every validation message and where it is', async () => {
      const { tool, runs } = recordingTool();
      const tools = new LocalTools();
      tools.register(tool);
      await expect(tools.handle(callOf({ arguments: { orderId: 17, note: 'x' } }), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool lookup_order: the arguments do not match its input schema: arguments must NOT have additional properties ("note"); arguments/orderId must be string',
      });
      await expect(tools.handle(callOf({ toolCallId: 'task-1:1', arguments: { orderId: 'B-1' } }), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: 'tool lookup_order: the arguments do not match its input schema: arguments/orderId must match pattern "^A-[0-9]+$"',
      });
      await expect(tools.handle(callOf({ toolCallId: 'task-1:2', arguments: {} }), hooksOf())).resolves.toEqual({
        outcome: 'rejected',
        reason: "tool lookup_order: the arguments do not match its input schema: arguments must have required property 'orderId'",
      });
      expect(runs).toEqual([]);
    });

    describe('approval', () => {
      const action = () => recordingTool({ name: 'refund', description: 'Refunds an order.', kind: 'ACTION' }, () => ({ refunded: true }));

      it('rejects an ACTION tool when no approval handler is set, without running it', async () => {
        const { tool, runs } = action();
        const tools = new LocalTools();
        tools.register(tool);
        await expect(tools.handle(callOf({ name: 'refund' }), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'tool refund needs approval but no approval handler is set' });
        expect(runs).toEqual([]);
      });

      it('tells the stream first, asks the handler, and runs an approved ACTION tool once', async () => {
        const { tool, runs } = action();
        const tools = new LocalTools();
        tools.register(tool);
        const seen: string[] = [];
        const expectedRequest: ToolApprovalRequest = { ...callOf({ name: 'refund' }), kind: 'ACTION', description: 'Refunds an order.' };
        const hooks = hooksOf({
          onConfirmationRequired: (request) => {
            expect(request).toEqual(expectedRequest);
            seen.push('confirmation required');
          },
          approve: (request) => {
            expect(request).toEqual(expectedRequest);
            seen.push('approve');
            return true;
          },
        });

        await expect(tools.handle(callOf({ name: 'refund' }), hooks)).resolves.toEqual({ outcome: 'ok', result: { refunded: true } });
        await expect(tools.handle(callOf({ name: 'refund' }), hooks)).resolves.toEqual({ outcome: 'ok', result: { refunded: true } });
        expect(seen).toEqual(['confirmation required', 'approve']);
        expect(runs).toHaveLength(1);
      });

      it.each([
        ['refuses', () => false, 'tool refund was not approved: no reason given'],
        ['refuses with a reason', () => ({ approved: false, reason: 'over the refund limit' }), 'tool refund was not approved: over the refund limit'],
        ['throws', () => Promise.reject(new Error('approval service down')), 'tool refund: the approval handler failed: approval service down'],
        ['answers nothing', () => undefined as never, 'tool refund was not approved: no reason given'],
      ])('rejects the call when the handler %s, without running it', async (_case, approve, reason) => {
        const { tool, runs } = action();
        const tools = new LocalTools();
        tools.register(tool);
        await expect(tools.handle(callOf({ name: 'refund' }), hooksOf({ approve }))).resolves.toEqual({ outcome: 'rejected', reason });
        expect(runs).toEqual([]);
      });

      it('runs an ACTION tool registered with requiresApproval: false without asking', async () => {
        const { tool, runs } = action();
        const tools = new LocalTools();
        tools.register({ ...tool, requiresApproval: false });
        await expect(tools.handle(callOf({ name: 'refund' }), hooksOf())).resolves.toEqual({ outcome: 'ok', result: { refunded: true } });
        expect(runs).toHaveLength(1);
      });

      it('is not disturbed by a failing confirmation notice', async () => {
        const { tool } = action();
        const tools = new LocalTools();
        tools.register(tool);
        const hooks = hooksOf({
          onConfirmationRequired: () => {
            throw new Error('stream closed');
          },
          approve: () => true,
        });
        await expect(tools.handle(callOf({ name: 'refund' }), hooks)).resolves.toEqual({ outcome: 'ok', result: { refunded: true } });
      });
    });

    describe('policy guard', () => {
      it('is asked after validation and before approval, with the call and the spec', async () => {
        const { tool, runs } = recordingTool({ name: 'refund', kind: 'ACTION', description: 'Refunds an order.' });
        const asked: string[] = [];
        const tools = new LocalTools({
          guard: (call, spec) => {
            asked.push(`${call.toolCallId} ${spec.name} ${spec.kind}`);
            return call.arguments['orderId'] === 'A-1' ? { allowed: true } : { allowed: false, reason: 'refunds only for order A-1' };
          },
        });
        tools.register(tool);
        const approve = jest.fn(() => true);

        await expect(tools.handle(callOf({ name: 'refund', arguments: { orderId: 1 } }), hooksOf({ approve }))).resolves.toMatchObject({ outcome: 'rejected' });
        await expect(tools.handle(callOf({ toolCallId: 'task-1:1', name: 'refund', arguments: { orderId: 'A-2' } }), hooksOf({ approve }))).resolves.toEqual({
          outcome: 'rejected',
          reason: 'tool refund: refused by the policy guard: refunds only for order A-1',
        });
        expect(approve).not.toHaveBeenCalled();
        await expect(tools.handle(callOf({ toolCallId: 'task-1:2', name: 'refund', arguments: { orderId: 'A-1' } }), hooksOf({ approve }))).resolves.toMatchObject({ outcome: 'ok' });
        expect(asked).toEqual(['task-1:1 refund ACTION', 'task-1:2 refund ACTION']);
        expect(approve).toHaveBeenCalledTimes(1);
        expect(runs).toHaveLength(1);
      });

      it('rejects the call when the guard throws', async () => {
        const tools = new LocalTools({
          guard: async () => {
            throw new Error('rate limit store unreachable');
          },
        });
        tools.register(recordingTool().tool);
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'tool lookup_order: the policy guard failed: rate limit store unreachable' });
      });
    });

    describe('execution', () => {
      it('rejects a throwing tool with its message, and records it so it does not run again', async () => {
        let runs = 0;
        const tools = new LocalTools();
        tools.register({
          ...recordingTool().tool,
          execute: () => {
            runs += 1;
            throw new Error('order system answered 503');
          },
        });
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'tool lookup_order failed: order system answered 503' });
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'tool lookup_order failed: order system answered 503' });
        expect(runs).toBe(1);
      });

      it.each([
        ['undefined', undefined, 'the result is not JSON: the value is undefined'],
        ['NaN inside', { total: NaN }, 'the result is not JSON: /total is NaN'],
        ['a Date', { at: new Date(0) }, 'the result is not JSON: /at is a Date object'],
        ['a function', [1, () => 2], 'the result is not JSON: /1 is a function'],
        ['a cycle', (() => {
          const node: Record<string, unknown> = { id: 1 };
          node['self'] = node;
          return node;
        })(), 'the result is not JSON: /self refers back to itself'],
        ['over 64 KiB', { blob: 'x'.repeat(64 * 1024) }, `the result is ${64 * 1024 + 11} bytes as JSON, more than the 65536 allowed`],
      ])('rejects a result that is %s', async (_case, value, reason) => {
        const tools = new LocalTools();
        tools.register(recordingTool({}, () => value as JsonValue).tool);
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: `tool lookup_order: ${reason}` });
      });

      it('accepts the same object twice in a result (shared, not cyclic)', async () => {
        const shared = { sku: 'X' };
        const tools = new LocalTools();
        tools.register(recordingTool({}, () => ({ a: shared, b: [shared] })).tool);
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: { a: { sku: 'X' }, b: [{ sku: 'X' }] } });
      });

      it('does not run a tool when the invocation is already canceled', async () => {
        const { tool, runs } = recordingTool();
        const tools = new LocalTools();
        tools.register(tool);
        const controller = new AbortController();
        controller.abort();
        await expect(tools.handle(callOf(), hooksOf({ signal: controller.signal }))).resolves.toEqual({ outcome: 'rejected', reason: 'the invocation was canceled before the tool ran' });
        expect(runs).toEqual([]);
      });

      it('answers rejected at once when the invocation is canceled while the tool runs, and tells the tool', async () => {
        const started = deferred<AbortSignal>();
        const tools = new LocalTools();
        tools.register({
          ...recordingTool().tool,
          execute: (_args, context) => {
            started.resolve(context.signal);
            return new Promise<JsonValue>(() => undefined);
          },
        });
        const controller = new AbortController();
        const outcome = tools.handle(callOf(), hooksOf({ signal: controller.signal }));
        const toolSignal = await started.promise;
        controller.abort();
        await expect(outcome).resolves.toEqual({ outcome: 'rejected', reason: 'tool lookup_order: the invocation was canceled while the tool ran' });
        expect(toolSignal.aborted).toBe(true);
        await expect(tools.record('task-1:0')).resolves.toMatchObject({ state: 'done', outcome: { outcome: 'rejected' } });
      });

      it('answers rejected when the invocation is canceled while the tool waits for approval, and does not run it', async () => {
        const { tool, runs } = recordingTool({ name: 'refund', kind: 'ACTION' });
        const tools = new LocalTools();
        tools.register(tool);
        const asked = deferred<void>();
        const controller = new AbortController();
        const outcome = tools.handle(
          callOf({ name: 'refund' }),
          hooksOf({
            signal: controller.signal,
            approve: () => {
              asked.resolve();
              return new Promise<boolean>(() => undefined);
            },
          }),
        );
        await asked.promise;
        controller.abort();
        await expect(outcome).resolves.toEqual({ outcome: 'rejected', reason: 'the invocation was canceled while the tool waited for approval' });
        expect(runs).toEqual([]);
      });
    });

    describe('at most once per toolCallId', () => {
      it('runs a call delivered twice in sequence once and answers the first outcome again', async () => {
        let count = 0;
        const tools = new LocalTools();
        tools.register(recordingTool({}, () => ++count).tool);
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: 1 });
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: 1 });
        expect(count).toBe(1);
      });

      it('runs a call delivered twice concurrently once: the second delivery awaits the first', async () => {
        const release = deferred<void>();
        let count = 0;
        const tools = new LocalTools();
        tools.register(
          recordingTool({}, async () => {
            count += 1;
            await release.promise;
            return count;
          }).tool,
        );
        const first = tools.handle(callOf(), hooksOf());
        const second = tools.handle(callOf(), hooksOf());
        release.resolve();
        await expect(Promise.all([first, second])).resolves.toEqual([
          { outcome: 'ok', result: 1 },
          { outcome: 'ok', result: 1 },
        ]);
        expect(count).toBe(1);
      });

      it('answers a refused call the same when it is delivered again, even after the policy changed', async () => {
        const { tool, runs } = recordingTool();
        const tools = new LocalTools();
        tools.register(tool);
        await tools.handle(callOf(), hooksOf({ invocationPolicy: { allow: [] } }));
        await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: "tool lookup_order is not exposed: this invocation's tool policy does not allow it" });
        expect(runs).toEqual([]);
      });

      describe('over a FileToolCallStore, across a restart', () => {
        let dir: string;

        beforeEach(async () => {
          dir = await mkdtemp(join(tmpdir(), 'mobileclaw-local-tools-'));
        });

        afterEach(async () => {
          await rm(dir, { recursive: true, force: true });
        });

        it('does not run a call again that a previous process answered', async () => {
          let count = 0;
          const before = new LocalTools({ store: new FileToolCallStore(dir) });
          before.register(recordingTool({}, () => ++count).tool);
          await expect(before.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: 1 });

          const after = new LocalTools({ store: new FileToolCallStore(dir) });
          after.register(recordingTool({}, () => ++count).tool);
          await expect(after.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: 1 });
          expect(count).toBe(1);
        });

        it('answers a call a crash left running as interrupted and never runs it again', async () => {
          await new FileToolCallStore(dir).begin('task-1:0', 'lookup_order');

          const { tool, runs } = recordingTool();
          const after = new LocalTools({ store: new FileToolCallStore(dir) });
          after.register(tool);
          await expect(after.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: INTERRUPTED_REASON });
          await expect(after.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'interrupted before it finished; not run again' });
          expect(runs).toEqual([]);
        });
      });

      describe('when the store fails', () => {
        class FailingStore extends InMemoryToolCallStore {
          constructor(private readonly failing: 'get' | 'begin' | 'finish') {
            super();
          }
          override get(toolCallId: string) {
            return this.failing === 'get' ? Promise.reject(new Error('disk unreadable')) : super.get(toolCallId);
          }
          override begin(toolCallId: string, name: string) {
            return this.failing === 'begin' ? Promise.reject(new Error('disk full')) : super.begin(toolCallId, name);
          }
          override finish(...args: Parameters<ToolCallStore['finish']>) {
            return this.failing === 'finish' ? Promise.reject(new Error('disk full')) : super.finish(...args);
          }
        }

        it('does not run a call whose record cannot be read', async () => {
          const { tool, runs } = recordingTool();
          const tools = new LocalTools({ store: new FailingStore('get') });
          tools.register(tool);
          await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'the record of this tool call cannot be read, so it is not run: disk unreadable' });
          expect(runs).toEqual([]);
        });

        it('does not run a call that cannot be recorded', async () => {
          const { tool, runs } = recordingTool();
          const tools = new LocalTools({ store: new FailingStore('begin') });
          tools.register(tool);
          await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: 'the tool call cannot be recorded, so it is not run: disk full' });
          expect(runs).toEqual([]);
        });

        it("answers a tool's result even when its outcome cannot be stored, and does not run it again", async () => {
          const { tool, runs } = recordingTool();
          const tools = new LocalTools({ store: new FailingStore('finish') });
          tools.register(tool);
          await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'ok', result: { found: 'A-17', status: 'shipped' } });
          await expect(tools.handle(callOf(), hooksOf())).resolves.toEqual({ outcome: 'rejected', reason: INTERRUPTED_REASON });
          expect(runs).toHaveLength(1);
        });
      });
    });
  });
});
