import { DeviceToolRequests, toolFailure, type DeviceToolCatalogEntry, type DeviceToolRequestContext, type ToolInvocationResult } from '@mobileclaw/domain';
import type { ToolRegistry } from '../tool-registry';

/** The registry caller id of phone `deviceId`: `phone:<deviceId>` (its policy: its own, else the `phone:*` family's, else the default). */
export function phoneToolCaller(deviceId: string): string {
  return `phone:${deviceId}`;
}

/**
 * Phones' own tool requests served by the {@link ToolRegistry}: each phone is the caller
 * `phone:<deviceId>`, so it lists and calls exactly what that caller's policy allows. A call without a
 * `toolCallId` gets `phone:<deviceId>:<requestId>`, so that a phone re-sending the same request (same
 * request id) after a lost answer gets the recorded result instead of a second execution. Phones
 * cannot approve: an `ACTION` tool their policy does not exempt answers `APPROVAL_REQUIRED`.
 *
 * Whatever the policies say, a phone never lists or calls a native tool (the phones' commands,
 * `list_devices`): one phone must not see or drive another through the gateway. Such a name answers
 * `TOOL_NOT_FOUND`, as a name nobody lists.
 */
export class RegistryDeviceToolRequests extends DeviceToolRequests {
  constructor(private readonly registry: ToolRegistry) {
    super();
  }

  /** The visible tools `phone:<deviceId>` may call, flattened for the wire, sorted by exposed name. */
  override async catalog(deviceId: string): Promise<DeviceToolCatalogEntry[]> {
    const entries = await this.registry.listFor(phoneToolCaller(deviceId));
    return entries.filter((entry) => entry.source.kind !== 'native').map((entry) => ({
      name: entry.exposedName,
      description: entry.description,
      inputSchema: entry.inputSchema,
      kind: entry.kind,
      mode: entry.mode,
      eligible: entry.eligibility.eligible,
      missing: entry.eligibility.missing,
      available: entry.available,
      needsApproval: entry.needsApproval,
    }));
  }

  /** Calls `name` as `phone:<deviceId>` (see {@link ToolRegistry.invoke} for the failures), without the registry's bookkeeping fields. */
  override async invoke(deviceId: string, name: string, args: Record<string, unknown>, context: DeviceToolRequestContext): Promise<ToolInvocationResult> {
    const caller = phoneToolCaller(deviceId);
    const entry = await this.registry.find(name);
    if (entry?.source.kind === 'native') return toolFailure('TOOL_NOT_FOUND', `no tool ${name} for a phone: the gateway's native tools are never a phone's`);
    const result = await this.registry.invoke(name, args, {
      caller,
      toolCallId: context.toolCallId ?? `${caller}:${context.requestId}`,
      signal: context.signal,
      deadlineMs: context.deadlineMs,
    });
    if (!result.ok) return { ok: false, error: result.error };
    return { ok: true, content: result.content, text: result.text, ...(result.verified === undefined ? {} : { verified: result.verified }) };
  }
}
