import { Logger } from '@nestjs/common';
import { SimulatedPhone } from '@mobileclaw/simulator';
import type { RunningGateway } from '../gateway-app';

/**
 * `mobileclaw start --sim <n>`: the gateway embeds `sim-1`; this attaches `sim-2` … `sim-<n>` to
 * its device port with its device token (reconnecting like any simulated phone), logs them, and
 * stops them on SIGINT/SIGTERM beside the gateway's own shutdown.
 * @returns the phones, once each was welcomed.
 */
export async function attachSimulatedPhones(gateway: RunningGateway, count: number): Promise<SimulatedPhone[]> {
  const phones = Array.from(
    { length: count - 1 },
    (_, i) => new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: `sim-${i + 2}`, reconnect: true }),
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void Promise.all(phones.map((phone) => phone.stop())));
  await Promise.all(phones.map((phone) => phone.start()));
  new Logger('MobileClaw').log(`simulated phone${phones.length === 1 ? '' : 's'} ${phones.map((phone) => phone.deviceId).join(', ')} attached`);
  return phones;
}
