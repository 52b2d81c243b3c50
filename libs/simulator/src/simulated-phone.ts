import { EventEmitter } from 'node:events';
import {
  PHONE_LINK_EVENTS,
  PhoneLink,
  gatewayAddressList,
  type DeviceDescription,
  type GatewayAddress,
  type GatewayAddresses,
  type GatewayRequestOptions,
  type PhoneLinkEvents,
  type FaultOptions,
  type PhoneAction,
  type PhoneExecutor,
  type ReconnectBackoffOptions,
  type ReconnectTimers,
} from '@mobileclaw/phone-link';
import type { CatalogTool, ToolInvokeResult, WelcomeFrame } from '@mobileclaw/protocol';
import { type UiTreeXml } from '@mobileclaw/ui-hierarchy';
import { COMMANDS, executeCommand } from './commands';
import { PhoneUi, type Rotation } from './phone-ui';

/** Everything a {@link SimulatedPhone} is given besides where its gateway is. */
export interface SimulatedPhoneSettings {
  /** Device token sent in hello. */
  token: string;
  /** 1–128 chars of `[A-Za-z0-9._:-]`. Default 'sim-1'. */
  deviceId?: string;
  /** Default 'MobileClaw Sim'. */
  model?: string;
  /** Natural (portrait) size in px and density. Default 1080x2400 @ 420 dpi. */
  screen?: { width: number; height: number; densityDpi?: number };
  /**
   * Replay mode: show this recorded screen (from `parseUiHierarchyXml`) as a static screen; its size
   * and rotation replace `screen.width`/`height` (see `PhoneUiOptions.replay`).
   */
  replay?: UiTreeXml;
  /**
   * Reconnect after a lost connection, with exponential backoff and equal jitter (a delay in
   * [b/2, b], b = 1 s doubling to 60 s; reset after a connection welcomed and up ≥ 30 s, never by
   * one the gateway ended with `DEVICE_REPLACED`; see {@link ReconnectBackoff}). Default false.
   */
  reconnect?: boolean;
  /** Overrides of the reconnect backoff (first and largest backoff, when a connection counts as stable, the jitter's random source). */
  backoff?: ReconnectBackoffOptions;
  /** The reconnect schedule's clock and timer. Default: `performance.now()` and Node's `setTimeout`. */
  timers?: ReconnectTimers;
  faults?: Partial<FaultOptions>;
  /** Diagnostic output, one line per call. Default: none. */
  log?: (line: string) => void;
}

/**
 * A {@link SimulatedPhone}'s options: its settings and where the gateway is, over TCP (`host`,
 * default 127.0.0.1, and `port`, the gateway's device port) or over WebSocket (`url`, e.g.
 * `ws://127.0.0.1:3000/ws/device`); or `gateways`, an ordered list of such addresses that the phone
 * goes through in turn when one refuses or loses the connection (`GatewayRotation` of
 * `@mobileclaw/phone-link`: the next at once after a failed attempt, the backoff between rounds).
 */
export type SimulatedPhoneOptions = SimulatedPhoneSettings & GatewayAddresses;

export const CLIENT_INFO = { name: 'mobileclaw-sim', version: '0.1.0' } as const;

/** Performs actions on a {@link PhoneUi} and describes it as a MobileClaw Sim phone. */
class PhoneUiExecutor implements PhoneExecutor {
  constructor(
    private readonly ui: PhoneUi,
    private readonly model: string,
  ) {}

  describe(): DeviceDescription {
    const { width, height, densityDpi, rotation } = this.ui.screen;
    return {
      device: { model: this.model, manufacturer: 'MobileClaw', android: '14', screen: { width, height, densityDpi, rotation } },
      capabilities: COMMANDS,
    };
  }

  execute(action: PhoneAction): Promise<Record<string, unknown>> {
    return executeCommand(this.ui, action.frameId === undefined ? { ...action.args, command: action.command } : { ...action.args, command: action.command, frameId: action.frameId });
  }
}

/**
 * A virtual Android phone speaking wire protocol v1 over TCP or WebSocket: a {@link PhoneLink}
 * (hello, heartbeat, replies, reconnects, fault injection) performing `action`s on its {@link PhoneUi}.
 *
 * Events: `welcome` (the {@link WelcomeFrame}), `action` (every {@link ActionFrame} received,
 * before faults apply), `close` (`hadError: boolean`, whenever an established connection ends),
 * `replaced` (the gateway's message, when it ends this session because another connection claimed
 * the same device id; `close` follows), `reconnecting` (the delay in ms, whenever a reconnect is
 * scheduled after a backoff), `connecting` (the `host:port` or URL of the gateway address, at every attempt).
 */
export class SimulatedPhone extends EventEmitter {
  readonly deviceId: string;
  readonly ui: PhoneUi;
  private readonly link: PhoneLink;

  constructor(options: SimulatedPhoneOptions) {
    super();
    this.deviceId = options.deviceId ?? 'sim-1';
    const screen = options.screen ?? { width: 1080, height: 2400 };
    this.ui = new PhoneUi({ width: screen.width, height: screen.height, densityDpi: screen.densityDpi ?? 420, ...(options.replay ? { replay: options.replay } : {}) });
    this.link = new PhoneLink({
      executor: new PhoneUiExecutor(this.ui, options.model ?? 'MobileClaw Sim'),
      gateways: gatewayAddressList(options),
      token: options.token,
      deviceId: this.deviceId,
      client: { ...CLIENT_INFO },
      ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
      ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
      ...(options.timers === undefined ? {} : { timers: options.timers }),
      ...(options.faults === undefined ? {} : { faults: options.faults }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    // The link's events are this phone's own.
    for (const event of PHONE_LINK_EVENTS) this.link.on(event, (...args: unknown[]) => this.emit(event, ...args));
  }

  /** Fault injection; tests may change it at any time (read when each action arrives). */
  get faults(): FaultOptions {
    return this.link.faults;
  }

  set faults(faults: FaultOptions) {
    this.link.faults = faults;
  }

  /** `host:port` or the URL of the gateway address in use: connected to, being tried, or tried next. */
  get gatewayAddress(): string {
    return this.link.gatewayAddress;
  }

  /** Every gateway address, in the order they are tried. */
  get gatewayAddresses(): readonly GatewayAddress[] {
    return this.link.gatewayAddresses;
  }

  /** The session id from the last welcome. */
  get sessionId(): string | undefined {
    return this.link.sessionId;
  }

  /** The last welcome frame (heartbeat interval, frame limit). */
  get lastWelcome(): WelcomeFrame | undefined {
    return this.link.lastWelcome;
  }

  /** True while welcomed on an open connection. */
  get connected(): boolean {
    return this.link.connected;
  }

  /**
   * Connects, says hello and resolves on welcome. Rejects with `GatewayRefusedError` (its
   * message contains the gateway's code, e.g. `UNAUTHORIZED`) when the gateway answers an error
   * frame; without `reconnect` it also rejects when the connection fails or closes first (with
   * `reconnect` it keeps trying until welcomed).
   */
  start(): Promise<void> {
    return this.link.start();
  }

  /** Closes the connection for good (no reconnect); resolves once it is closed. */
  stop(): Promise<void> {
    return this.link.stop();
  }

  /**
   * The tools the gateway lets this phone call (`tools.catalog`, docs/protocol.md §7). Rejects with
   * `GatewayRequestError`: the gateway's failure, `TIMEOUT` (default deadline 120 s), or
   * `DEVICE_DISCONNECTED` at once while not connected or when the connection drops first.
   */
  toolsCatalog(options?: GatewayRequestOptions): Promise<CatalogTool[]> {
    return this.link.toolsCatalog(options);
  }

  /**
   * Has the gateway call the tool `name` with `args` (`tools.invoke`) and resolves with its result
   * `{content, text, verified?}`; the tool's failure rejects as `GatewayRequestError` with its code
   * (e.g. `TOOL_NOT_FOUND`), like {@link toolsCatalog}'s.
   */
  invokeTool(name: string, args: Record<string, unknown> = {}, options?: GatewayRequestOptions & { toolCallId?: string }): Promise<ToolInvokeResult> {
    return this.link.invokeTool(name, args, options);
  }

  /**
   * Rotates the screen (1 and 3 swap width and height; the layout is recomputed and older frame
   * ids become stale). A connected phone reports it with an `event` frame `screen_changed`.
   */
  rotate(rotation: Rotation): void {
    this.ui.rotate(rotation);
    const { width, height, densityDpi, rotation: r } = this.ui.screen;
    this.link.sendEvent('screen_changed', { screen: { width, height, densityDpi, rotation: r } });
  }

  override on<E extends keyof PhoneLinkEvents>(event: E, listener: PhoneLinkEvents[E]): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own listener type
  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    return super.on(event, listener);
  }
}
