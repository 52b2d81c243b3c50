import { TaskTools, toolFailure, toolSourceKey, type TaskToolCallOptions, type TaskToolSpec, type ToolInvocationResult } from '@mobileclaw/domain';
import { PHONE_CONTROL_TOOL_SOURCES } from './native/native-tool-refs';
import type { CallerToolEntry, ToolCallerView, ToolRegistry } from './tool-registry';

/** The caller id of a task's planner: its `ToolPolicy` is `byCaller.planner`. */
export const PLANNER_TOOL_CALLER = 'planner';

/** The planner never reaches the phone-driving native sources: it has the phone's actions of its own, and drives the task's phone only through them. */
const PLANNER_VIEW: ToolCallerView = { excludeSources: PHONE_CONTROL_TOOL_SOURCES };

/**
 * The {@link TaskTools} port over a {@link ToolRegistry}, as the caller `planner` sees it: the visible
 * tools its policy allows ({@link ToolRegistry.listFor}), each with `needsApproval`, minus those of
 * {@link PHONE_CONTROL_TOOL_SOURCES} (`native:phone`, `native:gateway`); other native tools (the memory
 * tools) are offered. Calls go to {@link ToolRegistry.invoke} as the caller `planner` with the task's
 * `toolCallId` (recorded by the registry's ledger: at most one run per id) and the task's memory `scope`.
 */
export class RegistryTaskTools extends TaskTools {
  constructor(private readonly registry: ToolRegistry) {
    super();
  }

  async list(): Promise<TaskToolSpec[]> {
    try {
      return (await this.registry.listFor(PLANNER_TOOL_CALLER, PLANNER_VIEW)).map(taskToolSpecOf);
    } catch {
      // The registry never rejects by its contract; a bug there leaves the planner its phone and caller tools.
      return [];
    }
  }

  /** Calls a listed tool; a phone-driving native tool's name answers `TOOL_NOT_FOUND`, as for a name nobody lists. Never rejects. */
  async invoke(name: string, args: Record<string, unknown>, options: TaskToolCallOptions): Promise<ToolInvocationResult> {
    try {
      const result = await this.registry.invoke(name, args, {
        caller: PLANNER_TOOL_CALLER,
        toolCallId: options.toolCallId,
        signal: options.signal,
        deadlineMs: options.deadlineMs,
        ...PLANNER_VIEW,
        ...(options.approved === undefined ? {} : { approved: options.approved }),
        ...(options.scope === undefined ? {} : { scope: options.scope }),
      });
      if (!result.ok) return { ok: false, error: result.error };
      return { ok: true, content: result.content, text: result.text, ...(result.verified === undefined ? {} : { verified: result.verified }) };
    } catch (err) {
      return toolFailure('INTERNAL_ERROR', `tool ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

function taskToolSpecOf(entry: CallerToolEntry): TaskToolSpec {
  return {
    name: entry.exposedName,
    description: entry.description,
    inputSchema: entry.inputSchema,
    kind: entry.kind,
    mode: entry.mode,
    source: toolSourceKey(entry.source),
    eligibility: { eligible: entry.eligibility.eligible, missing: [...entry.eligibility.missing] },
    available: entry.available,
    needsApproval: entry.needsApproval,
  };
}
