import type { McpServer, RequestStateCodec, ServerContext } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { DeviceControlService } from '@mobileclaw/case-device-control';
import { deviceOfFrameId } from '@mobileclaw/case-device-control';
import type { TaskService } from '@mobileclaw/case-tasks';
import type { MobileClawService } from '@mobileclaw/domain';

/** State one MCP connection keeps between requests: only 2025-era sessions have any. */
export interface McpSessionState {
  /** Phone used when a call names none (set by `select_device`). */
  selectedDeviceId?: string;
}

/** What the tools of one server instance work with. */
export interface PhoneToolDeps {
  control: DeviceControlService;
  tasks: TaskService;
  phones: MobileClawService;
  /** Present for a 2025-era session (it outlives the request); absent for per-request 2026-07-28 serving. */
  session?: McpSessionState;
  server: McpServer;
  /** Seals the multi-round `requestState` of a 2026-07-28 input request; the server verifies it on the retry. */
  requestState: RequestStateCodec;
  /** Called after an action changed a phone's screen (resource update notifications). */
  screenChanged?: (deviceId: string) => void;
}

/** The phone a call means: its `deviceId`, else the phone its `frameId` names, else the session's choice, else the only one online. */
export async function deviceFor(deps: PhoneToolDeps, args: { deviceId?: string; frameId?: string }): Promise<string> {
  const fromFrame = args.frameId === undefined ? undefined : deviceOfFrameId(args.frameId);
  return deps.control.resolveDevice(args.deviceId ?? fromFrame ?? deps.session?.selectedDeviceId);
}

/**
 * Whether the client can be asked for input (elicitation): on a 2026-07-28 request from the
 * capabilities in its `_meta` envelope, on a 2025 session from what it declared at `initialize`.
 */
export function clientCanElicit(deps: PhoneToolDeps, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined;
  if (declared) return declared.elicitation !== undefined;
  return deps.server.server.getClientCapabilities()?.elicitation !== undefined;
}
