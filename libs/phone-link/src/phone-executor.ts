import type { HelloFrame } from '@mobileclaw/protocol';

/** What a phone says about itself in `hello` (docs/protocol.md §3). */
export interface DeviceDescription {
  /** `device`: model, manufacturer, Android version, screen (`width`/`height` in px of the current rotation, `densityDpi`, `rotation` 0–3). */
  device: NonNullable<HelloFrame['device']>;
  /** Command names this phone performs, announced as `capabilities`. */
  capabilities: readonly string[];
}

/** One `action` as handed to an executor. */
export interface PhoneAction {
  /** The gateway's request id (opaque; for logs). */
  requestId: string;
  /** The command name, e.g. `click`. */
  command: string;
  /**
   * The command's arguments: the action frame's top-level fields other than `type`, `requestId`,
   * `command`, `timeoutMs` and `frameId` (e.g. `{x: 540, y: 1200}`), unvalidated.
   */
  args: Readonly<Record<string, unknown>>;
  /** The action's `frameId` as received (`undefined` when absent), unvalidated. */
  frameId: unknown;
  /** The time left until the gateway's deadline when the executor is called, in ms; `undefined` when the gateway sent none. */
  timeoutMs: number | undefined;
  /**
   * Aborted when the gateway cancels the request or its deadline passes (the reason is a
   * `PhoneError` with code `TIMEOUT`, or an Error saying it was cancelled). Nobody waits for the
   * reply after that: stop the work and abandon what hangs.
   */
  signal: AbortSignal;
}

/**
 * Performs the commands of one phone: what a {@link PhoneLink} hands each `action` to. The link owns
 * the wire (hello, heartbeat, replies, reconnects); the executor owns the device.
 */
export interface PhoneExecutor {
  /**
   * The facts for `hello`, read at every connection (a value, or a promise for one). A rejection
   * closes that connection before hello (with `reconnect`, the link tries again after its backoff).
   */
  describe(): DeviceDescription | Promise<DeviceDescription>;
  /**
   * Performs one action and resolves with the `data` of its success response. Throws `PhoneError`
   * for a refusal (its code and message go on the wire); any other throw is answered
   * `INTERNAL_ERROR` with its message.
   */
  execute(action: PhoneAction): Promise<Record<string, unknown>>;
}
