import type { NetworkInterfaceInfo } from 'node:os';
import type { PairingAddress } from './pairing-address';

/** DI token of the {@link PairingOptions}. */
export const PAIRING_OPTIONS = Symbol('PAIRING_OPTIONS');

/** What `GET /api/pairing` needs to know of the gateway it runs in. */
export interface PairingOptions {
  /** The device token phones authenticate with (revealed in the link: the route is behind the API token). */
  deviceToken: string;
  /** The device (TCP) port, read at each request: it is bound after the module is built (port 0 = any). */
  devicePort: () => number;
  /** The device port's bind address (`MOBILECLAW_DEVICE_HOST`); undefined = all interfaces. */
  deviceListenerHost?: string;
  /** Where phones reach the device port when the gateway knows it (`MOBILECLAW_PAIRING_ADDRESS`). */
  address?: PairingAddress;
  /** This machine's network interfaces (default `os.networkInterfaces`; replaceable in tests). */
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
}
