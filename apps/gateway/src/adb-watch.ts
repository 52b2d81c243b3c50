import { Logger } from '@nestjs/common';
import { AdbDeviceWatcher, adbStateReason, createAdbClient } from '@mobileclaw/adb-bridge';
import type { DeviceReachabilityReports } from '@mobileclaw/device';
import type { HostPort } from './host-port';

export interface AdbWatchOptions {
  /** The adb server to follow. */
  server: HostPort;
  /** This gateway's own device port (the bridges connect to it like any phone). */
  gateway: HostPort;
  token: string;
  /** Where phones adb lists but that cannot be bridged (`unauthorized`, `offline`, …) are reported. */
  hub: DeviceReachabilityReports;
}

/**
 * `MOBILECLAW_ADB=auto`: follows the adb server and bridges each phone in state `device` to this
 * gateway; a phone in another adb state is listed offline with that state as its `statusReason`. An
 * unreachable adb server is one warning (then retried with backoff, quietly), and again each time
 * a reachable one is lost; the gateway runs on without it.
 */
export function startAdbWatcher(options: AdbWatchOptions): AdbDeviceWatcher {
  const logger = new Logger('AdbBridge');
  const { host, port } = options.server;
  let reachable: boolean | undefined;
  const watcher = new AdbDeviceWatcher({
    client: createAdbClient(options.server),
    gateway: options.gateway,
    token: options.token,
    onServer: (server) => {
      if (server.state === 'tracking') {
        logger.log(`following the phones of the adb server at ${host}:${port}`);
        reachable = true;
      } else if (reachable !== false) {
        logger.warn(`cannot follow the adb server at ${host}:${port}: ${server.error.message}; retrying with backoff (phones plugged in appear once it answers)`);
        reachable = false;
      } else {
        logger.debug(`adb server at ${host}:${port} still unreachable; retrying in ${server.retryInMs} ms`);
      }
    },
    onDevice: ({ serial, deviceId, state }) => {
      if (state === 'device' || state === 'emulator' || state === 'gone') {
        options.hub.clearUnreachable(deviceId);
        logger.log(state === 'gone' ? `adb phone ${serial} unplugged` : `adb phone ${serial} plugged in; bridging it as device ${deviceId}`);
      } else {
        options.hub.reportUnreachable(deviceId, adbStateReason(state));
        logger.warn(`adb phone ${serial} cannot be bridged: ${adbStateReason(state)}`);
      }
    },
    onBridgeRefused: (serial, error) => logger.error(`the gateway refused the bridge of adb phone ${serial}: ${error.message}`),
    bridge: { log: (line) => logger.debug(line) },
    log: (line) => logger.debug(line),
  });
  watcher.start();
  return watcher;
}
