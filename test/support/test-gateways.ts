import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from './sse-client';

export interface TestGateways {
  /** A real gateway on free ports with a fresh data directory, logs silent; `extra` overrides the env. */
  start(extra?: Record<string, string>): Promise<RunningGateway>;
  /** A fresh temporary data directory, removed after the spec file. */
  dataDir(): string;
}

/**
 * Real gateways for a spec file: call at its top level. Gateways are closed after each test and their
 * data directories removed after the file.
 */
export function testGateways(prefix: string): TestGateways {
  const dirs: string[] = [];
  const gateways: RunningGateway[] = [];
  afterEach(async () => {
    for (const gw of gateways.splice(0)) await gw.close();
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  return {
    dataDir,
    async start(extra = {}) {
      const gw = await startGateway({ MOBILECLAW_HTTP_PORT: '0', MOBILECLAW_DEVICE_PORT: '0', MOBILECLAW_DATA_DIR: dataDir(), MOBILECLAW_LOG_LEVEL: 'silent', ...extra });
      gateways.push(gw);
      return gw;
    },
  };
}

/** `http://127.0.0.1:<port><path>` of a gateway's HTTP server. */
export const gatewayUrl = (gw: RunningGateway, path: string): string => `http://127.0.0.1:${gw.httpPort}${path}`;

/** Resolves once `deviceId` is online, watching the device event stream (no polling). */
export async function waitOnline(gw: RunningGateway, deviceId: string): Promise<void> {
  const stream = await SseClient.open(gatewayUrl(gw, '/api/devices/events'));
  try {
    await stream.next((e) => {
      const data = JSON.parse(e.data) as { deviceId?: string; devices?: { deviceId: string; status: string }[] };
      return (e.event === 'devices' && !!data.devices?.some((d) => d.deviceId === deviceId && d.status !== 'offline')) || (e.event === 'device.connected' && data.deviceId === deviceId);
    });
  } finally {
    stream.close();
  }
}
