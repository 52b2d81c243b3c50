/**
 * @mobileclaw/adb-bridge: phones reachable by adb as MobileClaw devices. {@link AdbBridge} runs one
 * `PhoneLink` per device whose executor, {@link AdbExecutor}, performs the protocol's commands
 * through the device's adb shell ({@link AdbDeviceShell}; {@link AdbkitDeviceShell} over adbkit).
 * {@link AdbDeviceWatcher} follows adb's device list and runs a bridge per phone in state `device`.
 */
export { AdbBridge, ADB_BRIDGE_CLIENT, deviceIdForSerial, type AdbBridgeOptions } from './adb-bridge';
export { AdbExecutor, ADB_COMMANDS, ADB_SHELL, ADB_KEYBOARD_IME, type AdbExecutorOptions, type AdbDeviceFacts } from './adb-executor';
export { AdbkitDeviceShell, withExitMarker, readExitMarker, adbServerAddress, DEFAULT_ADB_SERVER, type AdbServerAddress, type AdbkitDevice } from './adbkit-device-shell';
export { AdbShellError, AdbShellTimeoutError, AdbDeviceLostError, type AdbDeviceShell, type AdbExecOptions, type AdbShellResult } from './device-shell';
export { parseGetprop, parseWmSize, parseWmDensity, parseRotation, currentGeometry, type ScreenGeometry, type Size } from './device-facts';
export { canTypeWithInputText, INPUT_TEXT_CHUNK_CHARS, inputTextCommand, inputTextCommands, shellQuote } from './input-text';
export { readUiDump, UI_DUMP_COMMAND, type UiDumpOutput } from './ui-dump';
export { AdbDeviceWatcher, adbStateReason, type AdbDeviceWatcherOptions, type AdbDeviceState, type AdbServerState } from './adb-device-watcher';
export { createAdbClient, AdbServerUnreachableError } from './adb-client';
