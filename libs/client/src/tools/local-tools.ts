import type { LocalTool, ToolApprovalHandler, ToolCallOutcome, ToolCallRequest, ToolPolicy, ToolSpec } from './tool-types';

/** Hooks the invocation gives the pipeline for one call. */
export interface ToolCallHooks {
  /** Policies in force: the conversation's and the invocation's (intersected). */
  conversationPolicy?: ToolPolicy;
  invocationPolicy?: ToolPolicy;
  /** The approval handler in force (the invocation's, else the client's); absent → ACTION tools are rejected. */
  approve?: ToolApprovalHandler;
  /** Told when an ACTION tool waits for the approval handler (the stream shows it). */
  onConfirmationRequired?(request: ToolCallRequest & { kind: 'ACTION'; description: string }): void;
  /** Fires when the invocation is canceled. */
  signal: AbortSignal;
}

/**
 * The app's registered local tools and the pipeline one call goes through:
 * visibility → resolve → validate → policy → approval → execute → record.
 * (Placeholder signature; the implementation replaces the bodies.)
 */
export class LocalTools {
  /** Registers a tool; registering exposes nothing. @throws Error for an invalid spec or a name already registered. */
  register(_tool: LocalTool): void {
    throw new Error('not implemented');
  }

  /** Specs of the tools both policies expose, in registration order. */
  exposedSpecs(_conversationPolicy: ToolPolicy | undefined, _invocationPolicy: ToolPolicy | undefined): ToolSpec[] {
    return [];
  }

  /** Runs one delivered call through the pipeline; never throws (any refusal is a `rejected` outcome). */
  async handle(_call: ToolCallRequest, _hooks: ToolCallHooks): Promise<ToolCallOutcome> {
    return { outcome: 'rejected', reason: 'local tools are not available' };
  }
}
