/**
 * @mobileclaw/case-tools: the tool registry ({@link ToolRegistry}) — `ToolSource`s merged with one
 * visible precedence ({@link mergeTools}, {@link DEFAULT_TOOL_PRECEDENCE}) and calls checked (per-caller
 * {@link ToolPolicy}, arguments against the schema, approval of `ACTION` tools) and executed at most
 * once per tool call id (the `ToolCallLedger` port; {@link InMemoryToolCallLedger} here).
 */
export * from './tool-entry';
export * from './tool-precedence';
export * from './merge-tools';
export * from './tool-policy';
export * from './tool-arguments';
export * from './in-memory-tool-call-ledger';
export * from './tool-source-issue';
export * from './tool-registry';
export * from './native';
export * from './registry-task-tools';
export * from './device/registry-device-tool-requests';
