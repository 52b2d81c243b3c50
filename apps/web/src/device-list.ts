import type { DeviceEvent, DeviceInfo } from './api-types.js';
import { formatMs, h } from './dom.js';

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

  /** Online phones first, then by id. */
  list(): DeviceInfo[] {
    const rank = { online: 0, busy: 1, offline: 2 } as const;
    return [...this.devices.values()].sort((a, b) => rank[a.status] - rank[b.status] || a.deviceId.localeCompare(b.deviceId));
  }
}

/** Renders the phone list (`ul`) and keeps the form's phone `select` in step, keeping the user's choice. */
export function renderDevices(list: HTMLElement, select: HTMLSelectElement, devices: DeviceInfo[]): void {
  list.replaceChildren(
    ...(devices.length === 0
      ? [h('li', { class: 'muted' }, 'No phone has connected yet.')]
      : devices.map((d) =>
          h(
            'li',
            { class: 'device', 'data-device-id': d.deviceId, 'data-status': d.status },
            h('span', { class: 'device-name' }, d.deviceId),
            h('span', { class: `badge device-${d.status}` }, d.status),
            h(
              'span',
              { class: 'device-meta muted' },
              [d.model, d.android ? `Android ${d.android}` : undefined, d.screen ? `${d.screen.width}×${d.screen.height}` : undefined].filter(Boolean).join(' · '),
            ),
            h('span', { class: 'device-rtt', title: 'heartbeat round-trip' }, d.rttMs !== undefined ? `RTT ${formatMs(d.rttMs)}` : 'RTT —'),
            d.queueLength ? h('span', { class: 'muted' }, ` · ${d.queueLength} queued`) : null,
          ),
        )),
  );
  const chosen = select.value;
  select.replaceChildren(
    ...devices.map((d) => h('option', { value: d.deviceId, disabled: d.status === 'offline' }, `${d.deviceId} (${d.status})`)),
  );
  const keep = devices.find((d) => d.deviceId === chosen && d.status !== 'offline') ?? devices.find((d) => d.status !== 'offline');
  if (keep) select.value = keep.deviceId;
}
