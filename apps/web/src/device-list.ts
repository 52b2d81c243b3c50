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
      case 'device.replaced':
        return false;
    }
  }

  /** Every phone, by id (a stable order: a status change does not move a phone). */
  list(): DeviceInfo[] {
    return [...this.devices.values()].sort((a, b) => a.deviceId.localeCompare(b.deviceId));
  }
}

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
    h('span', { class: 'device-meta muted' }, meta),
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
export function renderDevices(list: HTMLElement, select: HTMLSelectElement, devices: DeviceInfo[], state: DeviceListState): void {
  const placeholder = state.unavailable ?? (state.stale ? 'Connecting to the gateway…' : 'No phone has connected yet.');
  list.replaceChildren(
    ...(devices.length === 0 ? [h('li', { class: state.unavailable ? 'muted device-unavailable' : 'muted' }, placeholder)] : devices.map((d) => renderDevice(d, state.stale))),
  );
  const chosen = state.preferredDeviceId ?? select.value;
  select.replaceChildren(
    ...devices.map((d) => h('option', { value: d.deviceId, disabled: !state.stale && d.status === 'offline' }, `${d.deviceId} (${state.stale ? 'status unknown' : d.status})`)),
  );
  const usable = (d: DeviceInfo) => state.stale || d.status !== 'offline';
  const keep = devices.find((d) => d.deviceId === chosen && usable(d)) ?? devices.find(usable);
  if (keep) select.value = keep.deviceId;
}
