import { TaskTools, type TaskToolCallOptions, type TaskToolSpec, type ToolInvocationResult } from '@mobileclaw/domain';

/** One call {@link ScriptedTaskTools} received. */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
  options: Omit<TaskToolCallOptions, 'signal'>;
  signal: AbortSignal;
}

/** How {@link ScriptedTaskTools} answers a call. */
export type ScriptedToolAnswer = (call: ScriptedToolCall) => ToolInvocationResult | Promise<ToolInvocationResult>;

/** Gateway tools for tests: lists {@link tools} and answers each call with `answer`, recording it. */
export class ScriptedTaskTools extends TaskTools {
  readonly calls: ScriptedToolCall[] = [];

  constructor(
    public tools: TaskToolSpec[],
    private readonly answer: ScriptedToolAnswer,
  ) {
    super();
  }

  override async list(): Promise<TaskToolSpec[]> {
    return structuredClone(this.tools);
  }

  override async invoke(name: string, args: Record<string, unknown>, options: TaskToolCallOptions): Promise<ToolInvocationResult> {
    const { signal, ...rest } = options;
    const call: ScriptedToolCall = { name, args: structuredClone(args), options: rest, signal };
    this.calls.push(call);
    return this.answer(call);
  }
}

/** A gateway tool spec with defaults: an eligible, available `OBSERVATION` tool of `catalog:erp` taking any object. */
export function taskToolSpec(name: string, overrides: Partial<TaskToolSpec> = {}): TaskToolSpec {
  return {
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object' },
    kind: 'OBSERVATION',
    mode: 'REMOTE_PROXY',
    source: 'catalog:erp',
    eligibility: { eligible: true, missing: [] },
    available: true,
    needsApproval: false,
    ...overrides,
  };
}
