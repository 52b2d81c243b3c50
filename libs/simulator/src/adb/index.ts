/**
 * The simulated phones over the ADB host protocol: an {@link AdbHostServer} that adb clients (the
 * `adb` binary, adbkit) talk to, {@link AdbDevice}s wrapping a {@link PhoneUi}, and the device shell
 * they run commands in.
 */
export { AdbHostServer, AdbServerError, ADB_SERVER_VERSION, type AdbHostServerOptions } from './adb-host-server';
export { AdbDevice, ADB_DEVICE_STATES, defaultProperties, type AdbDeviceOptions, type AdbDeviceState, type AdbServiceRecord } from './adb-device';
export { AdbProtocolError, encodeRequest, fail, hex4, lengthPrefixed, okay, parseHex4, MAX_REQUEST_BYTES } from './smart-socket';
export { parseSyncHeader, syncHeader, SYNC_DATA_MAX } from './sync-protocol';
export { DeviceFiles, type DeviceFile } from './device-files';
export { DeviceSettings, type SettingsNamespace } from './device-settings';
export { DeviceShell, SHELL_PATH, STATUS_NOT_FOUND, type OutputSink, type ShellCommand, type ShellCommandContext, type ShellDevice } from './shell-runtime';
export { DEVICE_COMMANDS } from './device-commands';
export { parseScript, expandWord, ShellSyntaxError, type ParsedScript } from './sh-parser';
export { decodeInputText, keyCodeFromString, KEY_CODES, LONG_PRESS_TIMEOUT_MS } from './input-command';
export { uiautomatorXml } from './uiautomator-xml';
export { DEFAULT_DUMP_PATH } from './display-commands';
