import { Subject } from 'rxjs';
import {
  ToolSource,
  emptyToolInputSchema,
  toolEligibility,
  toolFailure,
  toolSuccess,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type ToolSourceKind,
  type ToolSourceRef,
} from '@mobileclaw/domain';

/** A descriptor of `source` with test defaults: an OBSERVATION, eligible, available, no arguments. */
export function tool(source: ToolSourceRef, name: string, overrides: Partial<ToolDescriptor> = {}): ToolDescriptor {
  const mode = ({ native: 'NATIVE', mcp: 'REMOTE_PROXY', catalog: 'REMOTE_PROXY', agent: 'AGENT_SESSION', skills: 'SKILL' } as const)[source.kind];
  return {
    name,
    description: `${name} of ${source.kind}:${source.id}`,
    inputSchema: emptyToolInputSchema(),
    kind: 'OBSERVATION',
    mode,
    source,
    eligibility: toolEligibility(),
    available: true,
    ...overrides,
  };
}

/** One call the fake received. */
export interface FakeCall {
  name: string;
  args: Record<string, unknown>;
  context: ToolInvocationContext;
}

/**
 * A {@link ToolSource} for tests: the tools it is given, `changes$` on {@link setTools}, and calls
 * answered by `answer` (default: a success echoing the name and arguments), every call recorded.
 */
export class FakeToolSource extends ToolSource {
  readonly ref: ToolSourceRef;
  readonly calls: FakeCall[] = [];
  private readonly changes = new Subject<ToolSourceChange>();
  readonly changes$ = this.changes.asObservable();
  answer: (call: FakeCall) => Promise<ToolInvocationResult> = async (call) => toolSuccess({ tool: call.name, args: call.args } as never);

  constructor(kind: ToolSourceKind, id: string, private tools: ToolDescriptor[] = []) {
    super();
    this.ref = { kind, id };
  }

  /** Builds descriptors of this source by name (or by name and overrides). */
  with(...specs: (string | [string, Partial<ToolDescriptor>])[]): this {
    this.tools = specs.map((spec) => (typeof spec === 'string' ? tool(this.ref, spec) : tool(this.ref, spec[0], spec[1])));
    return this;
  }

  setTools(tools: ToolDescriptor[]): void {
    this.tools = tools;
    this.changes.next({ source: this.ref });
  }

  override async list(): Promise<ToolDescriptor[]> {
    return structuredClone(this.tools);
  }

  override async invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    const call = { name, args, context };
    this.calls.push(call);
    if (!this.tools.some((descriptor) => descriptor.name === name)) return toolFailure('TOOL_NOT_FOUND', `no tool ${name}`);
    return this.answer(call);
  }
}
