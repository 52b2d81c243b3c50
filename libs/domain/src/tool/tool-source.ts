import type { Observable } from 'rxjs';
import type { ToolDescriptor, ToolSourceRef } from './tool';
import type { ToolInvocationContext, ToolInvocationResult } from './tool-invocation';

/** A source's announcement that its list changed: call {@link ToolSource.list} again for the new one. */
export interface ToolSourceChange {
  source: ToolSourceRef;
}

/**
 * One provider of tools: the phone's actions, a remote MCP server, an HTTP tool catalog, a remote
 * agent, a set of SKILL.md folders. An abstract class so that it doubles as a DI token, like the other
 * ports; a registry merges several sources into what callers see. Starting and stopping a source
 * (connections, file watchers) belongs to its adapter and the composition root, not to this port.
 */
export abstract class ToolSource {
  /** Which source this is; every descriptor it lists carries it as `source`. */
  abstract readonly ref: ToolSourceRef;

  /**
   * Every tool of the source now, in a stable order, unavailable and ineligible ones included (with
   * `available: false`, `eligibility.eligible: false`). Names are unique within the list.
   * @throws nothing the caller can act on: a source that cannot reach its tools lists what it last knew
   *   as unavailable, or nothing.
   */
  abstract list(): Promise<ToolDescriptor[]>;

  /**
   * Calls one of the source's tools. `name` is the descriptor's `name` as this source listed it (a
   * registry strips any prefix it added); `args` have been validated against its `inputSchema` by the
   * caller. Resolves with a failure rather than rejecting for every failure the source can name (see
   * {@link ToolInvocationResult}); a rejection is a bug.
   */
  abstract invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult>;

  /**
   * Hot stream of changes: it emits after {@link list} (or what the adapter reports besides it, e.g. a
   * skills folder's issues) changed, once the change is in place (a `list()` called then sees it).
   * Never errors; completes when the source is closed.
   */
  abstract readonly changes$: Observable<ToolSourceChange>;
}
