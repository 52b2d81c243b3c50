import { toolSourceKey, type CommandName, type ToolSourceRef } from '@mobileclaw/domain';

/** The source of the phone's actions as tools (`native:phone`): one tool per command. */
export const NATIVE_PHONE_TOOL_SOURCE: Readonly<ToolSourceRef> = Object.freeze({ kind: 'native', id: 'phone' });

/** The source of the gateway's own tools (`native:gateway`), e.g. `list_devices`. */
export const NATIVE_GATEWAY_TOOL_SOURCE: Readonly<ToolSourceRef> = Object.freeze({ kind: 'native', id: 'gateway' });

/** The tool name of a phone command: `phone_<command>`, e.g. `phone_long_press`. */
export function phoneToolName(command: CommandName): string {
  return `phone_${command}`;
}

/**
 * The native sources that drive or list phones (`native:phone`, `native:gateway`), as `kind:id` keys
 * for `ToolCallerView.excludeSources`: never a task planner's (it drives its own phone through its
 * phone actions, and must not reach others) nor a phone's (one phone must not see or drive another).
 * Other native sources (the memory tools, `native:memory`) reach them as any other source does.
 */
export const PHONE_CONTROL_TOOL_SOURCES: readonly string[] = Object.freeze([toolSourceKey(NATIVE_PHONE_TOOL_SOURCE), toolSourceKey(NATIVE_GATEWAY_TOOL_SOURCE)]);
