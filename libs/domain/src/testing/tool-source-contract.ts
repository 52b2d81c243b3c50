import { firstValueFrom } from 'rxjs';
import { ERROR_CATALOG } from '../errors';
import { TOOL_EXECUTION_MODES, TOOL_KINDS, TOOL_SOURCE_ID_PATTERN, TOOL_SOURCE_KINDS, isToolName, type ToolSource } from '../tool';

/** How the contract suite gets the source under test. */
export interface ToolSourceContractHooks {
  /** A source that lists at least one tool; called before every test. */
  create(): Promise<ToolSource>;
  /**
   * Changes what `source` lists (adds, removes or alters a tool: writes a file, restarts a server);
   * the change-notification test runs only when given.
   */
  change?(source: ToolSource): Promise<void>;
  /** Called after every test (closes the source, removes temporary files). */
  dispose?(): Promise<void>;
}

/**
 * Registers the `describe`/`it` blocks every {@link ToolSource} adapter must pass: valid, unique,
 * stable descriptors that carry the source's ref, failures answered rather than thrown, and with
 * `change`, a notification once the new list is in place. Call it at the top level of a spec file.
 */
export function describeToolSourceContract(name: string, hooks: ToolSourceContractHooks): void {
  describe(`${name} (ToolSource contract)`, () => {
    let source: ToolSource;

    beforeEach(async () => {
      source = await hooks.create();
    });

    afterEach(async () => {
      await hooks.dispose?.();
    });

    it('lists plain descriptors with valid, unique names, each carrying the source’s ref', async () => {
      expect(TOOL_SOURCE_KINDS).toContain(source.ref.kind);
      expect(source.ref.id).toMatch(TOOL_SOURCE_ID_PATTERN);
      const tools = await source.list();
      expect(tools.length).toBeGreaterThan(0);
      expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
      for (const tool of tools) {
        expect({ name: tool.name, valid: isToolName(tool.name) }).toEqual({ name: tool.name, valid: true });
        expect(tool.source).toEqual(source.ref);
        expect(TOOL_KINDS).toContain(tool.kind);
        expect(TOOL_EXECUTION_MODES).toContain(tool.mode);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.eligibility.eligible).toBe(tool.eligibility.missing.length === 0);
        expect(typeof tool.available).toBe('boolean');
        expect(tool.description.trim()).not.toBe('');
        if (tool.originalName !== undefined) expect(tool.originalName).not.toBe(tool.name);
      }
      expect(JSON.parse(JSON.stringify(tools))).toEqual(tools);
    });

    it('lists the same tools in the same order until something changes, and a caller’s edits do not leak back', async () => {
      const first = await source.list();
      first[0]!.description = 'edited by a caller';
      first[0]!.eligibility.missing.push('env:EDITED');
      first.pop();
      const second = await source.list();
      expect(second).toEqual(await source.list());
      expect(second[0]!.description).not.toBe('edited by a caller');
      expect(second[0]!.eligibility.missing).not.toContain('env:EDITED');
    });

    it('answers TOOL_NOT_FOUND for a name it does not list, without rejecting', async () => {
      const result = await source.invoke('no_such_tool_in_any_source', {}, { toolCallId: 'contract:1', signal: new AbortController().signal, deadlineMs: 5000 });
      expect(result).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND', retryable: ERROR_CATALOG.TOOL_NOT_FOUND.retryable } });
    });

    it('answers ABORTED, without rejecting, when the caller gave up before the call', async () => {
      const [tool] = await source.list();
      const controller = new AbortController();
      controller.abort();
      const result = await source.invoke(tool!.name, {}, { toolCallId: 'contract:2', signal: controller.signal, deadlineMs: 5000 });
      expect(result).toMatchObject({ ok: false, error: { code: 'ABORTED', retryable: true } });
    });

    if (hooks.change) {
      const change = hooks.change;
      it('announces a change once the new list is in place', async () => {
        const before = await source.list();
        const announced = firstValueFrom(source.changes$);
        await change(source);
        await expect(announced).resolves.toEqual({ source: source.ref });
        expect(await source.list()).not.toEqual(before);
      });
    }
  });
}
