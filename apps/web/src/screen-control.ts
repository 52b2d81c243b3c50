import { ApiError, type ApiClient, type Takeover, type TakeoverAction } from './api-client.js';
import type { DeviceInfo } from './api-types.js';
import { formatTime, h } from './dom.js';
import { contentBoxOf, devicePointAt, type BoxInsets, type ImageFit } from './screen-point.js';

/** localStorage keys of this browser's holder identity: a random id (never shown) and the name others see. */
const HOLDER_ID_KEY = 'mobileclaw.holderId';
const HOLDER_NAME_KEY = 'mobileclaw.holderName';
/** A pointer that moves less than this (CSS px) between press and release taps; farther, it swipes. */
const SWIPE_MIN_CSS_PX = 8;
/** Longest swipe sent, ms (the API's limit). */
const MAX_SWIPE_MS = 60_000;

/** The id and name this browser takes phones over as; the id is created once and kept in localStorage. */
export function holderIdentity(storage: Storage = window.localStorage): { holderId: string; holder: string } {
  let holderId = storage.getItem(HOLDER_ID_KEY);
  if (!holderId || !/^[A-Za-z0-9._-]{1,128}$/.test(holderId)) {
    // getRandomValues, unlike randomUUID, also works on plain http:// (a gateway on the LAN).
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    holderId = `page-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    storage.setItem(HOLDER_ID_KEY, holderId);
  }
  return { holderId, holder: storage.getItem(HOLDER_NAME_KEY) ?? '' };
}

/** The class the live screen image carries while this page holds its phone (styles.css: crosshair, no scrolling or selecting by touch). */
export const HELD_SCREEN_CLASS = 'screen-held';

/** The border plus padding widths of `element`, CSS px. */
function insetsOf(element: HTMLElement): BoxInsets {
  const style = getComputedStyle(element);
  const side = (side: 'top' | 'right' | 'bottom' | 'left') => (parseFloat(style.getPropertyValue(`border-${side}-width`)) || 0) + (parseFloat(style.getPropertyValue(`padding-${side}`)) || 0);
  return { top: side('top'), right: side('right'), bottom: side('bottom'), left: side('left') };
}

/**
 * Turns presses on a screen image into taps and drags into swipes, in device px: the element carries
 * the screen it shows as `data-device-id`, `data-device-width`, `data-device-height` (px), read at each
 * press, so a live image that changes size or phone keeps working; without them (no picture) a press
 * does nothing. The point maps through the element's content box (its rendered box less border and
 * padding, {@link contentBoxOf}) and its CSS `object-fit` ({@link devicePointAt}); presses on a
 * letterbox bar are ignored. Returns a function that detaches the listeners.
 */
export function bindScreenGestures(element: HTMLElement, act: (deviceId: string, action: TakeoverAction) => void): () => void {
  let press: { pointerId: number; clientX: number; clientY: number; at: number } | undefined;
  const screenOf = () => {
    const deviceId = element.dataset['deviceId'];
    const width = Number(element.dataset['deviceWidth']);
    const height = Number(element.dataset['deviceHeight']);
    return deviceId && width > 0 && height > 0 ? { deviceId, size: { width, height } } : undefined;
  };
  const pointOf = (clientX: number, clientY: number) => {
    const screen = screenOf();
    if (!screen) return undefined;
    const fit: ImageFit = getComputedStyle(element).objectFit === 'fill' ? 'fill' : 'contain';
    return devicePointAt(clientX, clientY, contentBoxOf(element.getBoundingClientRect(), insetsOf(element)), screen.size, fit);
  };
  const down = (event: PointerEvent): void => {
    if (event.button !== 0) return;
    event.preventDefault();
    press = { pointerId: event.pointerId, clientX: event.clientX, clientY: event.clientY, at: performance.now() };
    element.setPointerCapture?.(event.pointerId);
  };
  const up = (event: PointerEvent): void => {
    if (!press || press.pointerId !== event.pointerId) return;
    const start = press;
    press = undefined;
    const screen = screenOf();
    const from = pointOf(start.clientX, start.clientY);
    if (!screen || !from) return;
    const moved = Math.hypot(event.clientX - start.clientX, event.clientY - start.clientY);
    if (moved < SWIPE_MIN_CSS_PX) {
      act(screen.deviceId, { type: 'tap', ...from });
      return;
    }
    const to = pointOf(event.clientX, event.clientY);
    if (!to) return;
    const durationMs = Math.min(MAX_SWIPE_MS, Math.max(1, Math.round(performance.now() - start.at)));
    act(screen.deviceId, { type: 'swipe', from, to, durationMs });
  };
  const cancel = (): void => {
    press = undefined;
  };
  // A drag on an <img> would otherwise start the browser's own drag and drop, which cancels the pointer.
  const noDrag = (event: Event): void => event.preventDefault();
  element.addEventListener('pointerdown', down);
  element.addEventListener('pointerup', up);
  element.addEventListener('pointercancel', cancel);
  element.addEventListener('dragstart', noDrag);
  return () => {
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointerup', up);
    element.removeEventListener('pointercancel', cancel);
    element.removeEventListener('dragstart', noDrag);
  };
}

/** Settings of {@link ScreenControl}. */
export interface ScreenControlOptions {
  /**
   * The live screen image of the picked phone (`#live-screen-image`, kept up to date by the live
   * screen panel with its `data-device-*` attributes): while this page holds the phone, presses on it
   * act on the phone.
   */
  screen: HTMLElement;
  /** Where the holder identity is kept. Default `window.localStorage`. */
  storage?: Storage;
}

/**
 * The take-over controls of the selected phone, under its live screen: who holds it (a name and since
 * when), a Take over button, and — while this page holds it — a text box with Type, and Back, Home and
 * Hand back; the live screen image ({@link ScreenControlOptions.screen}) then takes clicks as taps and
 * drags as swipes, and carries {@link HELD_SCREEN_CLASS}. Not held, the image takes no gestures. The
 * page renews its hold every third of the lease while it is open; the hold ends when it is handed
 * back, when the page stops renewing it, or when the phone disconnects (a `device.controller` event
 * with no controller).
 *
 * The picture is only the live screen's: there is no screenshot fallback. When the live socket cannot
 * deliver, the live panel says why (gateway unreachable, token refused, phone offline), and a
 * screenshot request would fail the same way (same gateway, same token); a picture reloaded only after
 * one's own actions would also go stale as the phone changes by itself, inviting taps on what is no
 * longer there. Type, Back, Home and Hand back keep working without a picture.
 */
export class ScreenControl {
  private device: DeviceInfo | undefined;
  private held: Takeover | undefined;
  private renewal: ReturnType<typeof setInterval> | undefined;
  private message = '';
  private detachGestures: (() => void) | undefined;
  /** {@link viewKey} of the last rendering. */
  private shownKey = '';
  private readonly identity: { holderId: string; holder: string };
  private readonly screen: HTMLElement;
  private readonly storage: Storage;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: ApiClient,
    options: ScreenControlOptions,
  ) {
    this.screen = options.screen;
    this.storage = options.storage ?? window.localStorage;
    this.identity = holderIdentity(this.storage);
    this.render();
  }

  /**
   * Shows `device` (the phone picked in the form), or nothing when none is. Re-renders only when what
   * the panel shows changes (not on every status or heartbeat of the phone).
   */
  show(device: DeviceInfo | undefined): void {
    if (this.held && device?.deviceId !== this.held.deviceId) {
      // Another phone was picked: the held one goes back, and the person is told so.
      void this.handBack(`You handed ${this.held.deviceId} back when you picked another phone.`);
    }
    this.device = device;
    if (this.viewKey() !== this.shownKey) this.render();
  }

  /** A device event: the page's hold ended when its phone's controller is gone (lease ran out, phone disconnected, handed back elsewhere). */
  controllerChanged(event: { deviceId: string; controller: unknown; reason: string }): void {
    if (!this.held || event.deviceId !== this.held.deviceId || event.controller !== null) return;
    this.lost(event.reason === 'disconnected' ? 'The phone disconnected; your hold ended.' : event.reason === 'expired' ? 'Your hold ran out.' : 'Your hold ended.');
  }

  /** What the panel shows, as a comparable string. */
  private viewKey(): string {
    const device = this.device;
    return JSON.stringify([device?.deviceId, device?.status === 'offline', this.held?.deviceId ?? null, this.held ? null : (device?.controller ?? null)]);
  }

  private async takeOver(): Promise<void> {
    const device = this.device;
    if (!device) return;
    const name = this.identity.holder.trim();
    if (!name) {
      this.setMessage('Enter your name first: others see who holds the phone.');
      return;
    }
    try {
      this.held = await this.client.takeOver(device.deviceId, { holderId: this.identity.holderId, holder: name });
      this.message = '';
      this.startRenewal();
      this.render();
    } catch (err) {
      this.setMessage(problemText(err));
    }
  }

  /** Hands the held phone back; `note` (if any) is shown afterwards instead of clearing the message line. */
  private async handBack(note = ''): Promise<void> {
    const held = this.held;
    if (!held) return;
    this.stopRenewal();
    this.held = undefined;
    try {
      await this.client.handBack(held.deviceId, this.identity.holderId);
      this.message = note;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'CONTROL_NOT_HELD')) this.message = problemText(err);
    }
    this.render();
  }

  private async act(deviceId: string, action: TakeoverAction): Promise<void> {
    if (!this.held || this.held.deviceId !== deviceId) return;
    try {
      await this.client.takeoverAction(deviceId, { holderId: this.identity.holderId, ...action });
      this.setMessage('');
    } catch (err) {
      this.setMessage(problemText(err));
      if (err instanceof ApiError && (err.code === 'CONTROL_NOT_HELD' || err.code === 'DEVICE_CONTROLLED')) this.lost(problemText(err));
      return;
    }
  }

  /** The hold is gone without this page handing it back. */
  private lost(message: string): void {
    this.stopRenewal();
    this.held = undefined;
    this.message = message;
    this.render();
  }

  private startRenewal(): void {
    this.stopRenewal();
    const held = this.held;
    if (!held) return;
    this.renewal = setInterval(() => {
      this.client.takeOver(held.deviceId, { holderId: this.identity.holderId, holder: held.holder }).then(
        (renewed) => {
          if (this.held?.deviceId === renewed.deviceId) this.held = renewed;
        },
        (err: unknown) => this.lost(`Your hold ended: ${problemText(err)}`),
      );
    }, Math.max(1000, Math.floor(held.leaseMs / 3)));
  }

  private stopRenewal(): void {
    if (this.renewal !== undefined) clearInterval(this.renewal);
    this.renewal = undefined;
  }

  private setMessage(text: string): void {
    this.message = text;
    const line = this.root.querySelector('.screen-message');
    if (line) line.textContent = text;
  }

  private render(): void {
    this.shownKey = this.viewKey();
    this.detachGestures?.();
    this.detachGestures = undefined;
    const device = this.device;
    const parts: (HTMLElement | null)[] = [];
    if (!device) {
      parts.push(h('p', { class: 'muted' }, 'Pick a phone to take it over.'));
    } else if (this.held?.deviceId === device.deviceId) {
      parts.push(...this.heldView(device, this.held));
    } else {
      const controller = device.controller;
      if (controller) parts.push(h('p', { class: 'controller-note', id: 'screen-controller' }, `${controller.holder} controls ${device.deviceId} since ${formatTime(controller.since)}.`));
      const nameInput = h('input', { id: 'holder-name', maxlength: 64, autocomplete: 'nickname', value: this.identity.holder, placeholder: 'e.g. Ada' });
      nameInput.addEventListener('input', () => {
        this.identity.holder = nameInput.value;
        this.storage.setItem(HOLDER_NAME_KEY, nameInput.value);
      });
      parts.push(
        h(
          'form',
          { class: 'takeover-form', onsubmit: (event: Event) => (event.preventDefault(), void this.takeOver()) },
          h('label', { for: 'holder-name' }, 'Your name'),
          nameInput,
          h('button', { type: 'submit', id: 'take-over', disabled: device.status === 'offline' }, 'Take over'),
        ),
      );
    }
    parts.push(h('p', { class: 'error-text screen-message', role: 'alert' }, this.message));
    this.root.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
    const held = this.held !== undefined && this.held.deviceId === device?.deviceId;
    this.screen.classList.toggle(HELD_SCREEN_CLASS, held);
    if (held) {
      this.screen.title = 'Click to tap, drag to swipe';
      this.detachGestures = bindScreenGestures(this.screen, (deviceId, action) => void this.act(deviceId, action));
    } else {
      this.screen.removeAttribute('title');
    }
  }

  private heldView(device: DeviceInfo, held: Takeover): HTMLElement[] {
    const text = h('input', { id: 'takeover-text', autocomplete: 'off', placeholder: 'Text to type' });
    const type = (event: Event): void => {
      event.preventDefault();
      if (text.value === '') return;
      const value = text.value;
      text.value = '';
      void this.act(device.deviceId, { type: 'type', text: value });
    };
    return [
      h('p', { class: 'controller-note mine', id: 'screen-controller' }, `You (${held.holder}) control ${device.deviceId}${held.taskId ? '; its task waits' : ''}. Click the screen above to tap, drag to swipe.`),
      h('form', { class: 'takeover-type', onsubmit: type }, text, h('button', { type: 'submit' }, 'Type')),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', onclick: () => void this.act(device.deviceId, { type: 'back' }) }, 'Back'),
        h('button', { type: 'button', onclick: () => void this.act(device.deviceId, { type: 'home' }) }, 'Home'),
        h('button', { type: 'button', class: 'primary', id: 'hand-back', onclick: () => void this.handBack() }, 'Hand back'),
      ),
    ];
  }
}

function problemText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
