/**
 * `@mobileclaw/client`: call a MobileClaw gateway from a business system (Node 20, no framework
 * needed; a Nest module for Nest apps).
 */
export { MobileClawClient } from './client';
export type { AsyncInvocationOptions, BlockingInvocationOptions, Invocation, InvocationOptions, MobileClawClientOptions, StreamingInvocationOptions } from './client';
export { assertNever, isTerminalStatus, TERMINAL_STATUSES } from './events';
export type {
  CanceledEvent,
  CompletedEvent,
  FailedEvent,
  InputRequiredEvent,
  InvocationAccepted,
  InvocationAcceptedEvent,
  InvocationEvent,
  InvocationResult,
  InvocationState,
  InvocationStatus,
  PendingGatewayToolCall,
  PendingPhoneAction,
  PhoneCommand,
  ProgressUncertainEvent,
  StatusChangedEvent,
  StepOutcome,
  StepProgressEvent,
  ToolCallRequiresConfirmationEvent,
} from './events';
export { MobileClawClientError } from './errors';
export type { ClientErrorCode, MobileClawClientErrorDetails, RecoveryHint } from './errors';
export { FileInvocationStore, MemoryInvocationStore } from './invocation-store';
export type { InvocationRecord, InvocationRequest, InvocationStore } from './invocation-store';
export * from './tools';
