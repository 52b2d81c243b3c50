/**
 * @mobileclaw/simulator: a simulated Android phone speaking wire protocol v1 (docs/protocol.md).
 * {@link SimulatedPhone} is the networked device (a `PhoneLink` driving its UI); {@link PhoneUi} is its pure UI state machine.
 */
export { SimulatedPhone, CLIENT_INFO, type SimulatedPhoneOptions, type SimulatedPhoneSettings } from './simulated-phone';
// The wire side lives in @mobileclaw/phone-link; these stay importable from the simulator as before.
export {
  GatewayRefusedError,
  GatewayRequestError,
  DEFAULT_FAULTS,
  ReconnectBackoff,
  SYSTEM_RECONNECT_TIMERS,
  type FaultOptions,
  type GatewayRequestOptions,
  type ReconnectBackoffOptions,
  type ReconnectTimers,
  type ScheduledTimer,
} from '@mobileclaw/phone-link';
export {
  PhoneUi,
  FRAME_HISTORY,
  RECORDED_SCREEN,
  findNode,
  type ShownScreen,
  type PhoneUiOptions,
  type Rotation,
  type ScreenGeometry,
  type FrameGeometry,
  type UiTreeResult,
  type HitInfo,
} from './phone-ui';
export { PhoneError, type PhoneErrorCode } from './phone-error';
export { runCommand, executeCommand, COMMANDS, type CommandName, type CommandReply, type CommandRequest } from './commands';
export { renderScreenshot, type ScreenshotOptions, type ScreenshotResult } from './screenshot';
export { RASTERISER_SETTINGS } from './rasteriser-settings';
export { APPS, CONTACTS, resolveAddress, type PhoneState, type ChatMessage, type ScreenName } from './screens';
export type { UiNode, Bounds } from './view';
export * from './adb';
