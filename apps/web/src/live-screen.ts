import { h } from './dom.js';

/**
 * The live screen panel: one phone's current screen, refreshed when it changes, from the gateway's
 * live event socket (`/ws/events`, a `screens` subscription; docs/events-socket.md). The picture is
 * an `<img id="live-screen-image">` carrying `data-device-id`, `data-device-width` and
 * `data-device-height` (device px of the frame shown: the space a tap on it maps to), `data-seq` (the
 * frame's number) and `data-shown-at` (epoch ms when it was decoded and shown). Whenever there is no
 * picture the panel says why instead (no phone, waiting, phone offline, gateway unreachable, token).
 */

/** A `screen.frame` message of the socket. */
interface ScreenFrameMessage {
  type: 'screen.frame';
  deviceId: string;
  seq: number;
  at: string;
  mime: string;
  base64: string;
  width: number;
  height: number;
  deviceWidth: number;
  deviceHeight: number;
}

/** The socket's messages the panel reads; everything else is ignored. */
type PanelMessage =
  | ScreenFrameMessage
  | { type: 'screen.end'; deviceId: string; error: { code: string; message: string } }
  | { type: 'device.connected'; deviceId: string }
  | { type: 'welcome' };

/** Why the panel shows no picture (`data-reason` of the placeholder). */
export type NoPictureReason = 'no-phone' | 'waiting' | 'offline' | 'error' | 'reconnecting' | 'unauthorized';

/** Close codes after which reconnecting cannot help until the token changes (see docs/events-socket.md). */
const ACCESS_REFUSED = new Set([4401, 4403]);

export interface LiveScreenPanelOptions {
  /** The socket's URL (`ws:`/`wss:` with `access_token` when the page has one); called on every opening. */
  url: () => string;
  /** First delay before reopening a dropped socket, ms; doubles up to 10 s. Default 500. */
  minRetryMs?: number;
  /** The gateway refused the socket's token (close 4401) or the page's origin (4403): `detail` is its reason. */
  onAccessRefused?: (code: number, detail: string) => void;
}

export class LiveScreenPanel {
  /** The picture (`#live-screen-image`): one element for the panel's whole life, whatever it shows. */
  readonly image: HTMLImageElement;
  private readonly placeholder: HTMLParagraphElement;
  private socket?: WebSocket;
  private deviceId?: string;
  private retryMs: number;
  private retry?: ReturnType<typeof setTimeout>;
  /** Set while the gateway refuses access: no reconnecting until {@link reconnect}. */
  private refused = false;
  /** What the placeholder says while refused: 4401 is about the token, 4403 refuses the page's origin. */
  private refusedText = '';

  constructor(
    container: HTMLElement,
    private readonly options: LiveScreenPanelOptions,
  ) {
    this.retryMs = options.minRetryMs ?? 500;
    this.image = h('img', { id: 'live-screen-image', class: 'live-screen-image', alt: '', hidden: true });
    this.placeholder = h('p', { class: 'screen-empty', role: 'status' });
    container.replaceChildren(this.image, this.placeholder);
    this.showNoPicture('no-phone', 'No phone selected.');
  }

  /** Shows `deviceId`'s screen (undefined: none); the same phone again changes nothing. */
  show(deviceId: string | undefined): void {
    if (deviceId === this.deviceId) return;
    const previous = this.deviceId;
    this.deviceId = deviceId;
    this.clearPicture();
    if (previous !== undefined) this.send({ type: 'unsubscribe', screens: [previous], devices: [previous] });
    if (deviceId === undefined) {
      this.showNoPicture('no-phone', 'No phone selected.');
      return;
    }
    if (this.refused) return this.showNoPicture('unauthorized', this.refusedText);
    this.showNoPicture('waiting', `Waiting for ${deviceId}'s screen…`);
    if (this.socket?.readyState === WebSocket.OPEN) this.subscribe(deviceId);
    else this.open();
  }

  /** Opens a fresh socket (e.g. with a new token). */
  reconnect(): void {
    this.refused = false;
    this.closeSocket();
    this.retryMs = this.options.minRetryMs ?? 500;
    if (this.deviceId !== undefined) {
      this.showNoPicture('waiting', `Waiting for ${this.deviceId}'s screen…`);
      this.open();
    }
  }

  private open(): void {
    if (this.socket || this.refused) return;
    clearTimeout(this.retry);
    const socket = new WebSocket(this.options.url());
    this.socket = socket;
    socket.addEventListener('message', (event) => {
      if (this.socket === socket && typeof event.data === 'string') this.onMessage(JSON.parse(event.data) as PanelMessage);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.onClose(event.code, event.reason);
    });
  }

  private closeSocket(): void {
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  private onClose(code: number, reason: string): void {
    if (ACCESS_REFUSED.has(code)) {
      this.refused = true;
      this.refusedText = code === 4403 ? 'No picture: the gateway refuses this page.' : 'No picture: the gateway needs a valid API token.';
      this.clearPicture();
      this.showNoPicture('unauthorized', this.refusedText);
      this.options.onAccessRefused?.(code, reason);
      return;
    }
    if (this.deviceId === undefined) return;
    this.clearPicture();
    this.showNoPicture('reconnecting', 'No picture: the gateway cannot be reached — reconnecting…');
    this.retry = setTimeout(() => this.open(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }

  private onMessage(message: PanelMessage): void {
    switch (message.type) {
      case 'welcome':
        this.retryMs = this.options.minRetryMs ?? 500;
        if (this.deviceId !== undefined) this.subscribe(this.deviceId);
        return;
      case 'screen.frame':
        if (message.deviceId === this.deviceId) void this.showFrame(message);
        return;
      case 'screen.end':
        if (message.deviceId !== this.deviceId) return;
        this.clearPicture();
        if (message.error.code === 'DEVICE_DISCONNECTED') this.showNoPicture('offline', `No picture: ${message.deviceId} is offline. It shows again when the phone reconnects.`);
        else this.showNoPicture('error', `No picture: ${message.error.message}`);
        return;
      case 'device.connected':
        // Back online after a screen.end: watch again (a subscription that still runs is left as is).
        if (message.deviceId === this.deviceId && this.placeholder.dataset['reason'] === 'offline') {
          this.showNoPicture('waiting', `Waiting for ${message.deviceId}'s screen…`);
          this.subscribe(message.deviceId);
        }
        return;
    }
  }

  /** Watches the phone's screen and its connection (to watch again once it reconnects). */
  private subscribe(deviceId: string): void {
    this.send({ type: 'subscribe', screens: [deviceId], devices: [deviceId] });
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Decodes the frame before showing it, so that the picture never flickers or shows half. */
  private async showFrame(frame: ScreenFrameMessage): Promise<void> {
    const next = new Image();
    next.src = `data:${frame.mime};base64,${frame.base64}`;
    try {
      await next.decode();
    } catch {
      return;
    }
    // Another phone was chosen meanwhile, or a newer frame of this one is already shown.
    if (frame.deviceId !== this.deviceId) return;
    if (this.image.dataset['deviceId'] === frame.deviceId && frame.seq <= Number(this.image.dataset['seq'])) return;
    this.image.src = next.src;
    this.image.alt = `Screen of ${frame.deviceId}`;
    this.image.width = frame.width;
    this.image.height = frame.height;
    Object.assign(this.image.dataset, {
      deviceId: frame.deviceId,
      deviceWidth: String(frame.deviceWidth),
      deviceHeight: String(frame.deviceHeight),
      seq: String(frame.seq),
      shownAt: String(Math.round(performance.timeOrigin + performance.now())),
    });
    this.image.hidden = false;
    this.placeholder.hidden = true;
    this.placeholder.textContent = '';
    delete this.placeholder.dataset['reason'];
  }

  private clearPicture(): void {
    this.image.hidden = true;
    this.image.removeAttribute('src');
    for (const key of ['deviceId', 'deviceWidth', 'deviceHeight', 'seq', 'shownAt']) delete this.image.dataset[key];
  }

  private showNoPicture(reason: NoPictureReason, text: string): void {
    this.placeholder.hidden = false;
    this.placeholder.dataset['reason'] = reason;
    this.placeholder.textContent = text;
  }
}
