import type { PairingInfo } from './api-types.js';
import { h } from './dom.js';

/** What the panel needs from the page: the API call, and where a failure is reported besides the panel itself. */
export interface PairingPanelDeps {
  load: () => Promise<PairingInfo>;
  /** Called with every failed load (the page opens its token settings on a 401/403). */
  onError: (err: unknown) => void;
}

/** The QR code as an image URL: an `<img>` never runs anything an SVG could carry, and keeps its own size. */
const svgImageUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * "Add a phone": a folded panel that, once opened, loads `GET /api/pairing` and shows the pairing link
 * as a QR code for the phone's camera app, the link itself (read-only, with a Copy button), the values
 * to type by hand, and the gateway's warnings about the host (e.g. that it is a guess). Nothing is
 * fetched while the panel stays closed: the link carries the device token.
 */
export class PairingPanel {
  private readonly body: HTMLElement;
  private loading = false;

  constructor(
    private readonly root: HTMLDetailsElement,
    private readonly deps: PairingPanelDeps,
  ) {
    this.body = h('div', { class: 'pairing-body' });
    root.append(this.body);
    root.addEventListener('toggle', () => {
      if (root.open) void this.reload();
    });
  }

  /** Loads the link again when the panel is open (e.g. after a new API token); does nothing when closed. */
  async reload(): Promise<void> {
    if (!this.root.open || this.loading) return;
    this.loading = true;
    this.body.replaceChildren(h('p', { class: 'muted' }, 'Loading the pairing link…'));
    try {
      this.show(await this.deps.load());
    } catch (err) {
      this.body.replaceChildren(h('p', { class: 'error-text', role: 'alert' }, `Pairing link unavailable: ${err instanceof Error ? err.message : String(err)}`), this.retryButton());
      this.deps.onError(err);
    } finally {
      this.loading = false;
    }
  }

  private show(info: PairingInfo): void {
    const copied = h('span', { class: 'muted pairing-copied', role: 'status' });
    const linkInput = h('input', { id: 'pairing-link', type: 'text', readonly: true, spellcheck: 'false', value: info.link, onfocus: () => linkInput.select() });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(info.link);
        copied.textContent = 'Copied';
      } catch {
        linkInput.select();
        copied.textContent = 'Select the link and copy it (the browser refused the clipboard)';
      }
    };
    this.body.replaceChildren(
      ...info.warnings.map((warning) => h('p', { class: 'pairing-warning', role: 'alert' }, warning)),
      h('img', { class: 'pairing-qr', src: svgImageUrl(info.qrSvg), alt: 'QR code of the pairing link', width: 220, height: 220 }),
      h('p', { class: 'hint' }, "Scan it with the phone's camera app and open the link in MobileClaw, or open the link on the phone, or paste it into the app's Pairing link field."),
      h('label', { for: 'pairing-link' }, 'Pairing link'),
      h('div', { class: 'pairing-link-row' }, linkInput, h('button', { type: 'button', onclick: () => void copy() }, 'Copy')),
      copied,
      h(
        'p',
        { class: 'muted pairing-values' },
        'By hand: host ',
        h('code', { id: 'pairing-host' }, info.host),
        ', port ',
        h('code', { id: 'pairing-port' }, info.port),
        info.tls ? ', TLS on' : '',
        ', and the device token in the link.',
      ),
      h('p', { class: 'hint' }, 'The link holds the device token: anyone with it can connect a phone to this gateway.'),
      this.retryButton('Refresh'),
    );
  }

  private retryButton(label = 'Try again'): HTMLButtonElement {
    return h('button', { type: 'button', class: 'link', onclick: () => void this.reload() }, label);
  }
}
