import type { ToolExecutionMode, ToolInputSchema, ToolKind } from './tool';
import type { ToolInvocationResult } from './tool-invocation';

/**
 * One tool as a phone sees it in `tools.catalog` (docs/protocol.md §7): plain JSON, flattened for a
 * small client — the exposed name it calls the tool by, and whether a call needs a person's approval
 * (which a phone cannot give: such a call answers `APPROVAL_REQUIRED`).
 */
export interface DeviceToolCatalogEntry {
  /** The name to pass to `tools.invoke` (`^[A-Za-z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
  kind: ToolKind;
  mode: ToolExecutionMode;
  /** False when the tool lacks something to run here ({@link missing}); it may fail. */
  eligible: boolean;
  /** What it lacks, as `what:detail` (e.g. `env:API_KEY`); empty when eligible. */
  missing: string[];
  /** False while its source cannot be reached: a call answers `TOOL_UNAVAILABLE`. */
  available: boolean;
  needsApproval: boolean;
}

/** What the device layer knows of one phone request besides the tool's name and arguments. */
export interface DeviceToolRequestContext {
  /** The phone's `requestId` (the phone's own namespace of ids, unique among its requests in flight). */
  requestId: string;
  /** The phone's id for the call, stable across its retries; absent: the implementation derives one from the request id. */
  toolCallId?: string;
  /** Fires when the phone stops waiting: its deadline passed, it disconnected, or another session replaced it. */
  signal: AbortSignal;
  /** How long the call may take, in ms from its start (the phone's `timeoutMs` capped by the gateway). */
  deadlineMs: number;
}

/**
 * The tools a connected phone may list and call itself (wire protocol v1 `request` frames: "the phone
 * asks, the gateway executes, the phone gets the result"). The device layer hands each request of
 * phone `deviceId` here and writes the answer back on the phone's socket. An abstract class so that it
 * doubles as a DI token; without a provider, phones' requests answer `METHOD_NOT_FOUND`.
 */
export abstract class DeviceToolRequests {
  /**
   * The tools `deviceId` may call, sorted by name.
   * @throws nothing the phone can act on: a rejection is answered `INTERNAL_ERROR` (or the thrown
   *   `MobileClawError`'s code).
   */
  abstract catalog(deviceId: string): Promise<DeviceToolCatalogEntry[]>;
  /**
   * Calls the tool `name` for `deviceId`. Resolves with a failure rather than rejecting for every
   * failure it can name (`TOOL_NOT_FOUND` for a tool the phone may not call, `VALIDATION_FAILED`,
   * `APPROVAL_REQUIRED`, `TIMEOUT`, `ABORTED`, …); a rejection is a bug.
   */
  abstract invoke(deviceId: string, name: string, args: Record<string, unknown>, context: DeviceToolRequestContext): Promise<ToolInvocationResult>;
}
