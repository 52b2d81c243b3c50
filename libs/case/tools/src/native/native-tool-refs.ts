import type { CommandName, ToolSourceRef } from '@mobileclaw/domain';

/** The source of the phone's actions as tools (`native:phone`): one tool per command. */
export const NATIVE_PHONE_TOOL_SOURCE: Readonly<ToolSourceRef> = Object.freeze({ kind: 'native', id: 'phone' });

/** The source of the gateway's own tools (`native:gateway`), e.g. `list_devices`. */
export const NATIVE_GATEWAY_TOOL_SOURCE: Readonly<ToolSourceRef> = Object.freeze({ kind: 'native', id: 'gateway' });

/** The tool name of a phone command: `phone_<command>`, e.g. `phone_long_press`. */
export function phoneToolName(command: CommandName): string {
  return `phone_${command}`;
}
