import { DeviceToolRequests, type DeviceToolCatalogEntry, type DeviceToolRequestContext, type ToolInvocationResult } from '@mobileclaw/domain';
import { PHONE_CONTROL_TOOL_SOURCES } from '../native/native-tool-refs';
import type { ToolCallerView, ToolRegistry } from '../tool-registry';

/** The registry caller id of phone `deviceId`: `phone:<deviceId>` (its policy: its own, else the `phone:*` family's, else the default). */
export function phoneToolCaller(deviceId: string): string {
  return `phone:${deviceId}`;
}

/** A phone never reaches the phone-driving native sources: one phone must not see or drive another through the gateway. */
const PHONE_VIEW: ToolCallerView = { excludeSources: PHONE_CONTROL_TOOL_SOURCES };

/**
 * Phones' own tool requests served by the {@link ToolRegistry}: each phone is the caller
 * `phone:<deviceId>`, so it lists and calls exactly what that caller's policy allows. A call without a
 * `toolCallId` gets `phone:<deviceId>:<requestId>`, so that a phone re-sending the same request (same
 * request id) after a lost answer gets the recorded result instead of a second execution. Phones
 * cannot approve: an `ACTION` tool their policy does not exempt answers `APPROVAL_REQUIRED`.
 *
 * Whatever the policies say, a phone never lists or calls a tool of {@link PHONE_CONTROL_TOOL_SOURCES}
 * (the phones' commands, `list_devices`): one phone must not see or drive another through the gateway.
 * Such a name answers `TOOL_NOT_FOUND`, as a name nobody lists. Other native tools (the memory tools)
 * are the policy's to allow; their calls get the phone's memory scope `device:<deviceId>`.
 */
export class RegistryDeviceToolRequests extends DeviceToolRequests {
  constructor(private readonly registry: ToolRegistry) {
    super();
  }

  /** The visible tools `phone:<deviceId>` may call, flattened for the wire, sorted by exposed name. */
  override async catalog(deviceId: string): Promise<DeviceToolCatalogEntry[]> {
    const entries = await this.registry.listFor(phoneToolCaller(deviceId), PHONE_VIEW);
    return entries.map((entry) => ({
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
    const result = await this.registry.invoke(name, args, {
      caller,
      toolCallId: context.toolCallId ?? `${caller}:${context.requestId}`,
      signal: context.signal,
      deadlineMs: context.deadlineMs,
      scope: `device:${deviceId}`,
      ...PHONE_VIEW,
    });
    if (!result.ok) return { ok: false, error: result.error };
    return { ok: true, content: result.content, text: result.text, ...(result.verified === undefined ? {} : { verified: result.verified }) };
  }
}
