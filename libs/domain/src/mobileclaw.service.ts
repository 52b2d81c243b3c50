import type { Observable } from 'rxjs';
import type { Command, ExecuteOptions } from './commands';
import type { DeviceEvent, DeviceInfo } from './device';
import type { CommandResult } from './results';

/**
 * The port through which everything (REST, the agent loop, MCP) operates phones. An abstract class
 * so that it doubles as the Nest DI token; the device hub of `@mobileclaw/device` implements it: each
 * command gets a request id and the caller awaits its reply (30 s deadline by default).
 */
export abstract class MobileClawService {
  /**
   * Sends one command to a phone and resolves with its reply. Commands to one phone run one at a
   * time in FIFO order; commands to different phones never wait for each other.
   *
   * @throws MobileClawError with a `CommandErrorCode`: `DEVICE_NOT_FOUND` (no such phone
   *   online), `DEVICE_BUSY` (queue full or socket not draining), `TIMEOUT` (deadline passed, queue
   *   time included), `DEVICE_DISCONNECTED`, `DEVICE_REPLACED`, `SHUTTING_DOWN` (at once, not at the
   *   deadline), `DEVICE_ERROR` (the phone answered an error; `deviceCode` holds its code),
   *   `PROTOCOL_ERROR` (the phone's reply was malformed), `STALE_FRAME`, `PAYLOAD_TOO_LARGE` (the
   *   reply exceeded the frame limit), `ABORTED` (the signal fired), `VALIDATION_FAILED` (bad arguments).
   */
  abstract execute<T = Record<string, unknown>>(
    deviceId: string,
    command: Command,
    options?: ExecuteOptions,
  ): Promise<CommandResult<T>>;

  /**
   * Every known phone, online ones first, then recently offline ones. Asynchronous so that an adapter
   * can ask a directory shared by several gateway instances; the in-process hub answers at once.
   */
  abstract listDevices(): Promise<DeviceInfo[]>;

  /**
   * One phone's info; asynchronous for the same reason as {@link listDevices}.
   * @throws MobileClawError `DEVICE_NOT_FOUND` (as a rejection) when the gateway has never seen this
   *   phone (or forgot it).
   */
  abstract getDevice(deviceId: string): Promise<DeviceInfo>;

  /** Hot stream of device lifecycle events; never errors, completes on shutdown. */
  abstract readonly events$: Observable<DeviceEvent>;
}
