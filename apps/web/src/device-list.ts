import type { DeviceEvent, DeviceInfo } from './api-types.js';
import { formatMs, h, plural } from './dom.js';

/** The phones the gateway knows, kept current from `GET /api/devices/events`. */
export class DeviceDirectory {
  private readonly devices = new Map<string, DeviceInfo>();

  /** Replaces everything with a full list (the stream's first `devices` event). */
  reset(devices: DeviceInfo[]): void {
    this.devices.clear();
    for (const device of devices) this.devices.set(device.deviceId, device);
  }

  /** Applies one device event; returns false when it changes nothing the page shows. */
  apply(event: DeviceEvent): boolean {
    const current = this.devices.get(event.deviceId);
    switch (event.type) {
      case 'device.connected':
        this.devices.set(event.deviceId, event.device);
        return true;
      case 'device.disconnected':
        if (!current) return false;
        this.devices.set(event.deviceId, { ...current, status: 'offline', disconnectedAt: event.at, queueLength: 0 });
        return true;
      case 'device.status':
        if (!current) return false;
        this.devices.set(event.deviceId, { ...current, status: event.status, queueLength: event.queueLength, lastSeenAt: event.at });
        return true;
      case 'device.heartbeat':
        if (!current) return false;
        this.devices.set(event.deviceId, { ...current, rttMs: event.rttMs, lastSeenAt: event.at });
        return true;
      case 'device.event': {
        const screen = event.data['screen'] as DeviceInfo['screen'] | undefined;
        if (!current || !screen) return false;
        this.devices.set(event.deviceId, { ...current, screen });
        return true;
      }
      case 'device.updated':
        this.devices.set(event.deviceId, event.device);
        return true;
      case 'device.replaced':
        return false;
      case 'device.controller': {
        if (!current) return false;
        const next = { ...current };
        if (event.controller) next.controller = event.controller;
        else delete next.controller;
        this.devices.set(event.deviceId, next);
        return true;
      }
    }
  }

  /**
   * Every phone: the connected ones (online or busy) by id — a stable order, a status change between
   * them does not move a phone — then the offline ones, the most recently seen first.
   */
  list(): DeviceInfo[] {
    const connected = [...this.devices.values()].filter((d) => d.status !== 'offline').sort((a, b) => a.deviceId.localeCompare(b.deviceId));
    const offline = [...this.devices.values()].filter((d) => d.status === 'offline').sort((a, b) => lastSeen(b) - lastSeen(a) || a.deviceId.localeCompare(b.deviceId));
    return [...connected, ...offline];
  }
}

/** When the phone was last heard from, in epoch ms (0 when unknown). */
function lastSeen(d: DeviceInfo): number {
  const at = Date.parse(d.disconnectedAt ?? d.lastSeenAt);
  return Number.isFinite(at) ? at : 0;
}

/** Offline phones listed (the most recently seen); the rest are only counted. */
export const OFFLINE_SHOWN_MAX = 20;
/** Offline phones not seen for longer than this (ms) are only counted, not listed. */
export const OFFLINE_SHOWN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What the phone list can tell besides the phones themselves. */
export interface DeviceListState {
  /**
   * True while the device stream is not live (or is live but has not sent its fresh `devices` list
   * yet): the last known statuses and RTTs may be wrong, so they are shown as unknown.
   */
  stale: boolean;
  /** Why the gateway cannot list phones (e.g. an API token is needed); replaces the empty-list text. */
  unavailable?: string;
  /** The phone the user picked in the form; kept selected whenever it is listed and not offline. */
  preferredDeviceId?: string;
}

function renderDevice(d: DeviceInfo, stale: boolean): HTMLLIElement {
  const meta = [d.model, d.android ? `Android ${d.android}` : undefined, d.screen ? `${d.screen.width}×${d.screen.height}` : undefined].filter(Boolean).join(' · ');
  return h(
    'li',
    { class: stale ? 'device device-stale' : 'device', 'data-device-id': d.deviceId, 'data-status': stale ? 'unknown' : d.status },
    h('span', { class: 'device-name' }, d.deviceId),
    stale ? h('span', { class: 'badge device-unknown' }, 'unknown') : h('span', { class: `badge device-${d.status}` }, d.status),
    !stale && d.controller ? h('span', { class: 'badge device-held', title: `${d.controller.holder} took ${d.deviceId} over; tasks on it wait` }, `held by ${d.controller.holder}`) : null,
    h('span', { class: 'device-meta muted' }, meta),
    !stale && d.status === 'offline' && d.statusReason ? h('span', { class: 'device-reason' }, d.statusReason) : null,
    stale
      ? h('span', { class: 'device-rtt muted' }, 'status unknown — reconnecting')
      : h('span', { class: 'device-rtt', title: 'heartbeat round-trip' }, d.rttMs !== undefined ? `RTT ${formatMs(d.rttMs)}` : 'RTT measuring…'),
    !stale && d.queueLength ? h('span', { class: 'muted' }, ` · ${plural(d.queueLength, 'command')} queued`) : null,
  );
}

/**
 * Renders the phone list (`ul`) and keeps the form's phone `select` in step: the user's preferred
 * phone stays selected while it is listed and not offline; otherwise the first phone not offline.
 */
export function renderDevices(list: HTMLElement, select: HTMLSelectElement, devices: DeviceInfo[], state: DeviceListState, now = Date.now()): void {
  const placeholder = state.unavailable ?? (state.stale ? 'Connecting to the gateway…' : 'No phone has connected yet.');
  // While the stream is not live every status is unknown: one flat list. Otherwise the connected
  // phones, then the offline ones folded away, so that hundreds of short-lived phones never push
  // the form down.
  const connected = state.stale ? devices : devices.filter((d) => d.status !== 'offline');
  const offline = state.stale ? [] : devices.filter((d) => d.status === 'offline');
  const recent = offline.filter((d) => now - lastSeen(d) <= OFFLINE_SHOWN_MAX_AGE_MS).slice(0, OFFLINE_SHOWN_MAX);
  const items: HTMLElement[] = connected.map((d) => renderDevice(d, state.stale));
  if (offline.length > 0) {
    const hidden = offline.length - recent.length;
    items.push(
      h(
        'li',
        { class: 'device-offline-group' },
        h(
          'details',
          {},
          h('summary', { class: 'muted' }, `${plural(offline.length, 'phone')} offline`),
          h('ul', { class: 'devices' }, ...recent.map((d) => renderDevice(d, false))),
          hidden > 0 ? h('p', { class: 'muted' }, `and ${hidden} more not seen in the last 24 h`) : null,
        ),
      ),
    );
  }
  list.replaceChildren(...(devices.length === 0 ? [h('li', { class: state.unavailable ? 'muted device-unavailable' : 'muted' }, placeholder)] : items));
  const chosen = state.preferredDeviceId ?? select.value;
  // Only phones a task can start on are offered (all of them while their status is unknown).
  select.replaceChildren(...connected.map((d) => h('option', { value: d.deviceId }, `${d.deviceId} (${state.stale ? 'status unknown' : d.status})`)));
  const keep = connected.find((d) => d.deviceId === chosen) ?? connected[0];
  if (keep) select.value = keep.deviceId;
}
