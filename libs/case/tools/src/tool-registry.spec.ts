import { firstValueFrom, take, toArray } from 'rxjs';
import { MobileClawError, toolSuccess, type ToolInvocationResult } from '@mobileclaw/domain';
import { InMemoryToolCallLedger } from './in-memory-tool-call-ledger';
import { FakeToolSource, tool } from './testing/fake-tool-source';
import { ToolRegistry, type ToolCallRequest } from './tool-registry';

const BOOK_SCHEMA = { type: 'object' as const, properties: { party: { type: 'integer', minimum: 1 }, at: { type: 'string' } }, required: ['party'], additionalProperties: false };

function request(overrides: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return { caller: 'rest', signal: new AbortController().signal, deadlineMs: 5000, ...overrides };
}

/** A promise and its resolver, to hold a fake call open. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ToolRegistry', () => {
  let skills: FakeToolSource;
  let erp: FakeToolSource;
  let registry: ToolRegistry;

  beforeEach(() => {
    skills = new FakeToolSource('skills', 'workspace').with('weather', ['book_table', { kind: 'ACTION', inputSchema: BOOK_SCHEMA }]);
    erp = new FakeToolSource('mcp', 'erp').with('weather', 'invoice_get', ['stock', { available: false }]);
    registry = new ToolRegistry([erp, skills]);
  });

  afterEach(() => registry.close());

  it('lists the merged view and finds visible tools by exposed name', async () => {
    const view = await registry.list();
    expect(view.map((entry) => [entry.exposedName, `${entry.source.kind}:${entry.source.id}`, entry.visible])).toEqual([
      ['book_table', 'skills:workspace', true],
      ['invoice_get', 'mcp:erp', true],
      ['stock', 'mcp:erp', true],
      ['weather', 'skills:workspace', true],
      ['weather', 'mcp:erp', false],
    ]);
    expect((await registry.find('weather'))?.source).toEqual({ kind: 'skills', id: 'workspace' });
    expect(await registry.find('nothing')).toBeUndefined();
  });

  it('collects the sources’ issues without their absolute paths, a failing report giving none', async () => {
    const reporting = new ToolRegistry([skills], {
      issueReports: [
        { source: skills.ref, issues: async () => [{ kind: 'invalid', location: 'workspace:broken/SKILL.md', message: 'no description', path: '/home/x/broken/SKILL.md' } as never] },
        { source: erp.ref, issues: () => Promise.reject(new Error('down')) },
      ],
    });
    expect(await reporting.issues()).toEqual([{ source: { kind: 'skills', id: 'workspace' }, kind: 'invalid', location: 'workspace:broken/SKILL.md', message: 'no description' }]);
    expect(await registry.issues()).toEqual([]);
  });

  it('refuses two sources with one kind:id', () => {
    expect(() => new ToolRegistry([erp, new FakeToolSource('mcp', 'erp')])).toThrow('two tool sources are mcp:erp');
  });

  it('re-merges when a source changes and announces the new view', async () => {
    await registry.list();
    const next = firstValueFrom(registry.changes$);
    skills.setTools([tool(skills.ref, 'book_table')]);
    const { tools } = await next;
    expect(tools.find((entry) => entry.exposedName === 'weather')).toMatchObject({ source: { kind: 'mcp', id: 'erp' }, visible: true });
    expect((await registry.list()).map((entry) => entry.exposedName)).toEqual(['book_table', 'invoice_get', 'stock', 'weather']);
  });

  it('announces one view per change, in order: the last one is the newest state', async () => {
    const views = firstValueFrom(registry.changes$.pipe(take(3), toArray()));
    skills.setTools([tool(skills.ref, 'one')]);
    await registry.list();
    skills.setTools([tool(skills.ref, 'two')]);
    skills.setTools([tool(skills.ref, 'three')]);
    const names = (await views).map(({ tools }) => tools.filter((entry) => entry.source.kind === 'skills').map((entry) => entry.name));
    expect(names[0]).toEqual(['one']);
    expect(names[2]).toEqual(['three']);
    expect((await registry.list()).filter((entry) => entry.source.kind === 'skills').map((entry) => entry.name)).toEqual(['three']);
  });

  it('calls the winning source with the source’s own name, the arguments and the context', async () => {
    const result = await registry.invoke('weather', {}, request({ toolCallId: 'c-1', deadlineMs: 1234 }));
    expect(result).toMatchObject({ ok: true, content: { tool: 'weather', args: {} }, replayed: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(erp.calls).toHaveLength(0);
    expect(skills.calls.map((call) => [call.name, call.context.toolCallId, call.context.deadlineMs])).toEqual([['weather', 'c-1', 1234]]);
  });

  it('measures the call’s duration with its clock', async () => {
    let t = 1000;
    const timed = new ToolRegistry([erp], { now: () => t });
    erp.answer = async () => {
      t += 250;
      return toolSuccess('done');
    };
    expect(await timed.invoke('invoice_get', {}, request())).toEqual({ ok: true, content: 'done', text: 'done', called: true, durationMs: 250, replayed: false });
  });

  it('strips a prefix it added: the source gets its own name', async () => {
    const crm = new FakeToolSource('catalog', 'crm').with(['weather', { originalName: 'weather!' }]);
    const prefixed = new ToolRegistry([crm, skills]);
    expect((await prefixed.find('crm_weather'))?.name).toBe('weather');
    expect(await prefixed.invoke('crm_weather', {}, request())).toMatchObject({ ok: true });
    expect(crm.calls.map((call) => call.name)).toEqual(['weather']);
  });

  describe('refusals, before any call', () => {
    it('TOOL_NOT_FOUND for an unknown name', async () => {
      expect(await registry.invoke('nothing', {}, request())).toEqual({
        ok: false,
        error: { code: 'TOOL_NOT_FOUND', message: 'no tool nothing', retryable: false },
        called: false,
        durationMs: 0,
        replayed: false,
      });
    });

    it('TOOL_NOT_FOUND naming the winner for a shadowed tool called by its prefixed name', async () => {
      const result = await registry.invoke('erp_weather', {}, request());
      expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'no tool erp_weather: mcp:erp/weather is shadowed by skills:workspace/weather, called weather' } });
      expect(erp.calls).toHaveLength(0);
    });

    it('TOOL_UNAVAILABLE for a tool listed unavailable', async () => {
      expect(await registry.invoke('stock', {}, request())).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'tool stock (mcp:erp/stock) is unavailable right now', retryable: true } });
      expect(erp.calls).toHaveLength(0);
    });

    it('VALIDATION_FAILED with ajv’s messages, every error at once', async () => {
      const result = await registry.invoke('book_table', { party: 0, extra: true }, request({ approved: true }));
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_FAILED', message: 'tool book_table: arguments must NOT have additional properties ("extra"); arguments/party must be >= 1' },
      });
      expect(await registry.invoke('book_table', {}, request({ approved: true }))).toMatchObject({ error: { message: "tool book_table: arguments must have required property 'party'" } });
      expect(skills.calls).toHaveLength(0);
    });

    it('accepts a draft-07 schema from a remote server ($schema ignored)', async () => {
      erp.setTools([tool(erp.ref, 'lookup', { inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } })]);
      expect(await registry.invoke('lookup', { id: 'A-1' }, request())).toMatchObject({ ok: true });
      expect(await registry.invoke('lookup', { id: 1 }, request())).toMatchObject({ error: { code: 'VALIDATION_FAILED', message: 'tool lookup: arguments/id must be string' } });
    });

    it('APPROVAL_REQUIRED for an ACTION tool not approved; approved it runs', async () => {
      expect(await registry.invoke('book_table', { party: 2 }, request())).toMatchObject({
        ok: false,
        error: { code: 'APPROVAL_REQUIRED', message: 'tool book_table is an ACTION: a person must approve the call (approved: true)' },
      });
      expect(skills.calls).toHaveLength(0);
      expect(await registry.invoke('book_table', { party: 2 }, request({ approved: true }))).toMatchObject({ ok: true });
    });

    it('follows each caller’s policy: allow-list and actions allowed without approval', async () => {
      const governed = new ToolRegistry([erp, skills], {
        policies: { byCaller: { phone: { allow: ['weather', 'book_table'], allowActionsWithoutApproval: ['book_table'] } }, defaultPolicy: { allow: ['weather'] } },
      });
      expect(await governed.invoke('book_table', { party: 2 }, request({ caller: 'phone' }))).toMatchObject({ ok: true });
      expect(await governed.invoke('invoice_get', {}, request({ caller: 'phone' }))).toMatchObject({ error: { code: 'TOOL_NOT_FOUND', message: 'no tool invoice_get for this caller' } });
      expect(await governed.invoke('book_table', { party: 2 }, request({ caller: 'rest', approved: true }))).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
      expect(await governed.invoke('weather', {}, request({ caller: 'rest' }))).toMatchObject({ ok: true });
    });

    it('allows by source (`kind:id`, `kind:*`), finds a caller’s family policy (`phone:*`), and lists what a caller may call', async () => {
      const governed = new ToolRegistry([erp, skills], {
        policies: {
          byCaller: {
            'phone:*': { allow: [], allowSources: ['skills:*'], allowActionSourcesWithoutApproval: ['skills:workspace'] },
            mcp: { allow: ['weather'], allowSources: ['mcp:erp'] },
          },
          defaultPolicy: { allow: [] },
        },
      });
      expect(await governed.invoke('book_table', { party: 2 }, request({ caller: 'phone:pixel-7' }))).toMatchObject({ ok: true });
      expect(await governed.invoke('invoice_get', {}, request({ caller: 'phone:pixel-7' }))).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
      expect(await governed.invoke('weather', {}, request({ caller: 'phone' }))).toMatchObject({ error: { code: 'TOOL_NOT_FOUND' } });
      expect((await governed.listFor('phone:pixel-7')).map((entry) => [entry.exposedName, entry.needsApproval])).toEqual(
        (await governed.list()).filter((entry) => entry.visible && entry.source.kind === 'skills').map((entry) => [entry.exposedName, false]),
      );
      const forMcp = await governed.listFor('mcp');
      expect(forMcp.map((entry) => entry.exposedName)).toEqual(
        (await governed.list()).filter((entry) => entry.visible && (entry.source.kind === 'mcp' || entry.exposedName === 'weather')).map((entry) => entry.exposedName),
      );
      expect(forMcp.find((entry) => entry.exposedName === 'weather')).toBeDefined();
      expect(await governed.listFor('rest')).toEqual([]);
    });

    it('leaves a caller’s excluded sources out of its list and its calls (`kind:id`, `kind:*`), whatever its policy allows', async () => {
      const view = { excludeSources: ['mcp:erp'] };
      expect((await registry.listFor('rest', view)).map((entry) => entry.source.kind)).toEqual(expect.arrayContaining(['skills']));
      expect((await registry.listFor('rest', view)).filter((entry) => entry.source.kind === 'mcp')).toEqual([]);
      expect((await registry.listFor('rest', { excludeSources: ['skills:*'] })).map((entry) => entry.exposedName)).toEqual(
        (await registry.list()).filter((entry) => entry.visible && entry.source.kind === 'mcp').map((entry) => entry.exposedName),
      );
      expect(await registry.invoke('invoice_get', {}, request(view))).toMatchObject({ ok: false, called: false, error: { code: 'TOOL_NOT_FOUND', message: 'no tool invoice_get for this caller' } });
      expect(await registry.invoke('invoice_get', {}, request({ excludeSources: ['skills:workspace'] }))).toMatchObject({ ok: true });
      expect(erp.calls.map((call) => call.name)).toEqual(['invoice_get']);
    });

    it('hands the caller’s memory scope to the source, and no scope when the caller has none', async () => {
      await registry.invoke('invoice_get', {}, request({ scope: 'device:pixel-7' }));
      await registry.invoke('invoice_get', {}, request());
      expect(erp.calls.map((call) => call.context.scope)).toEqual(['device:pixel-7', undefined]);
      expect(erp.calls[1].context).not.toHaveProperty('scope');
    });

    it('refuses arguments nested deeper than JSON allows here, or with prototype keys, before any call', async () => {
      let deep: Record<string, unknown> = {};
      const args = deep;
      for (let level = 0; level < 200; level++) deep = (deep['a'] = {}) as Record<string, unknown>;
      expect(await registry.invoke('weather', args, request())).toMatchObject({ ok: false, called: false, error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^tool weather: arguments\.a/) } });
      expect(await registry.invoke('weather', JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>, request())).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
      expect(skills.calls).toHaveLength(0);
    });

    it('quotes and cuts a name no tool can have in its TOOL_NOT_FOUND message', async () => {
      expect(await registry.invoke('x'.repeat(10_000), {}, request())).toMatchObject({
        error: { code: 'TOOL_NOT_FOUND', message: `no tool "${'x'.repeat(80)}…": a tool name is 1–64 of [A-Za-z0-9_-]` },
      });
      expect(await registry.invoke('a\u0000b', {}, request())).toMatchObject({ error: { code: 'TOOL_NOT_FOUND', message: 'no tool "a\\u0000b": a tool name is 1–64 of [A-Za-z0-9_-]' } });
    });

    it('ABORTED when the caller gave up before the call', async () => {
      const controller = new AbortController();
      controller.abort();
      expect(await registry.invoke('weather', {}, request({ signal: controller.signal }))).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
      expect(skills.calls).toHaveLength(0);
    });
  });

  describe('results', () => {
    it('turns a throwing source into a failure', async () => {
      erp.answer = async () => {
        throw new MobileClawError('TIMEOUT', 'the server did not answer');
      };
      expect(await registry.invoke('invoice_get', {}, request())).toMatchObject({ ok: false, error: { code: 'TIMEOUT', message: 'the server did not answer', retryable: true } });
      erp.answer = async () => {
        throw new TypeError('boom');
      };
      expect(await registry.invoke('invoice_get', {}, request())).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'boom' }, called: true });
    });

    it('turns an answer that is no result into INTERNAL_ERROR', async () => {
      erp.answer = async () => ({ whatever: true }) as unknown as ToolInvocationResult;
      expect(await registry.invoke('invoice_get', {}, request())).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'tool invoice_get: the source mcp:erp answered no result' } });
    });

    it('passes a source’s own failure through', async () => {
      erp.answer = async () => ({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'erp down', retryable: true } });
      expect(await registry.invoke('invoice_get', {}, request())).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: 'erp down' } });
    });

    it('bounds results: over maxResultBytes of JSON is PAYLOAD_TOO_LARGE', async () => {
      const small = new ToolRegistry([erp], { maxResultBytes: 100 });
      erp.answer = async () => toolSuccess('x'.repeat(30));
      expect(await small.invoke('invoice_get', {}, request())).toMatchObject({ ok: true });
      erp.answer = async () => toolSuccess('x'.repeat(60));
      expect(await small.invoke('invoice_get', {}, request())).toMatchObject({
        ok: false,
        error: { code: 'PAYLOAD_TOO_LARGE', message: 'tool invoice_get: the result is 154 bytes of JSON, more than the 100 allowed' },
      });
    });
  });

  describe('at most once per toolCallId', () => {
    it('answers the same id again with the recorded result, without a second call', async () => {
      let n = 0;
      erp.answer = async () => toolSuccess({ invoice: ++n });
      const first = await registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }));
      const again = await registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }));
      expect(first).toMatchObject({ ok: true, content: { invoice: 1 }, replayed: false });
      expect(again).toEqual({ ...first, replayed: true });
      expect(erp.calls).toHaveLength(1);
      // Another caller's c-1 is another call.
      expect(await registry.invoke('invoice_get', {}, request({ caller: 'phone', toolCallId: 'c-1' }))).toMatchObject({ content: { invoice: 2 }, replayed: false });
    });

    it('records failures too: a failed call is not run again under its id', async () => {
      erp.answer = async () => ({ ok: false, error: { code: 'DEVICE_ERROR', message: 'refused', retryable: false } });
      await registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }));
      expect(await registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }))).toMatchObject({ ok: false, error: { code: 'DEVICE_ERROR' }, replayed: true });
      expect(erp.calls).toHaveLength(1);
    });

    it('does not record refusals: a call refused for approval runs once approved', async () => {
      await registry.invoke('book_table', { party: 2 }, request({ toolCallId: 'c-1' }));
      expect(await registry.invoke('book_table', { party: 2 }, request({ toolCallId: 'c-1', approved: true }))).toMatchObject({ ok: true, replayed: false });
      expect(skills.calls).toHaveLength(1);
    });

    it('makes concurrent duplicates wait for the first and share its result', async () => {
      const gate = deferred<ToolInvocationResult>();
      erp.answer = () => gate.promise;
      const calls = [1, 2, 3].map(() => registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' })));
      await new Promise((resolve) => setImmediate(resolve));
      expect(erp.calls).toHaveLength(1);
      gate.resolve(toolSuccess('once'));
      const results = await Promise.all(calls);
      expect(results.map((result) => [result.ok && result.content, result.replayed])).toEqual([
        ['once', false],
        ['once', true],
        ['once', true],
      ]);
      expect(erp.calls).toHaveLength(1);
    });

    it('refuses an id used for another tool: IDEMPOTENCY_KEY_REUSED', async () => {
      await registry.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }));
      expect(await registry.invoke('weather', {}, request({ toolCallId: 'c-1' }))).toMatchObject({
        ok: false,
        error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'tool call c-1 was already used for tool invoice_get' },
      });
      expect(skills.calls).toHaveLength(0);
    });

    it('never runs again a call that began and did not end (a stop during it): IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
      const ledger = new InMemoryToolCallLedger();
      await ledger.begin({ caller: 'rest', toolCallId: 'c-1' }, 'invoice_get');
      const restarted = new ToolRegistry([erp], { ledger });
      expect(await restarted.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }))).toMatchObject({ ok: false, error: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } });
      expect(erp.calls).toHaveLength(0);
    });

    it('does not call when the ledger cannot record the start', async () => {
      const ledger = new InMemoryToolCallLedger();
      jest.spyOn(ledger, 'begin').mockRejectedValue(new MobileClawError('STORAGE_ERROR', 'disk full'));
      const broken = new ToolRegistry([erp], { ledger });
      expect(await broken.invoke('invoice_get', {}, request({ toolCallId: 'c-1' }))).toMatchObject({ ok: false, error: { code: 'STORAGE_ERROR', message: 'disk full' } });
      expect(erp.calls).toHaveLength(0);
    });
  });
});
