export { FileToolCallStore } from './file-tool-call-store';
export { MAX_TOOL_RESULT_BYTES, MAX_TOOL_RESULT_DEPTH } from './json-result';
export { INTERRUPTED_REASON, LocalTools, type LocalToolsOptions, type ToolCallHooks } from './local-tools';
export { InMemoryToolCallStore, ToolCallStore } from './tool-call-store';
export { ToolCallStoreError, ToolRegistrationError, type ToolCallStoreErrorCode, type ToolRegistrationErrorCode } from './tool-errors';
export { MAX_TOOL_REJECTION_LENGTH } from './rejection-reason';
export { policyAllows } from './tool-policy';
export { MAX_TOOL_DESCRIPTION_LENGTH, MAX_TOOL_SCHEMA_BYTES, TOOL_NAME_PATTERN } from './tool-schema';
export type * from './tool-types';
