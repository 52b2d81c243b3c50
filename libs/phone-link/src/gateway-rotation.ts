import { checkGatewayAddress, describeGatewayAddress, type GatewayAddress } from './phone-wire';

/**
 * Where a phone may reach its gateway: one address (see {@link GatewayAddress}), or `gateways`, an
 * ordered list of them (several gateway instances, or one gateway under several names), tried in turn.
 */
export type GatewayAddresses = GatewayAddress | { gateways: readonly GatewayAddress[]; host?: never; port?: never; url?: never };

/**
 * The list of addresses in `addresses`, in order, each with its defaults filled in (`host` 127.0.0.1).
 * @throws TypeError when the list is empty or an address is invalid (see `checkGatewayAddress`).
 */
export function gatewayAddressList(addresses: GatewayAddresses): GatewayAddress[] {
  const list = 'gateways' in addresses && addresses.gateways !== undefined ? [...addresses.gateways] : [addresses as GatewayAddress];
  if (list.length === 0) throw new TypeError('at least one gateway address is needed');
  return list.map((address) => {
    const filled: GatewayAddress = address.url === undefined ? { host: address.host ?? '127.0.0.1', port: address.port } : { url: address.url };
    checkGatewayAddress(filled);
    return filled;
  });
}

/** What a phone does after a connection ended: try the next address at once, or wait its backoff first. */
export type NextAttempt = 'at-once' | 'after-backoff';

/**
 * The order in which a phone tries its gateway addresses. It starts at the first; after any connection
 * ends (refused, closed before welcome, or lost after it) it moves to the next one, wrapping round.
 * Attempts go in rounds of at most one per address: a failed attempt with addresses left in the round
 * is followed at once by the next, and the phone's reconnect backoff is waited only between rounds. A
 * round ends when every address failed in turn, or when a welcomed connection ends (its gateway was up:
 * the phones it held all leave together, and the backoff's jitter spreads them over the others).
 *
 * With one address every attempt is a round of its own, so the phone behaves as with a single address.
 */
export class GatewayRotation {
  private readonly addresses: readonly GatewayAddress[];
  private index = 0;
  /** Attempts of the current round that ended without welcome. */
  private failedInRound = 0;

  /** @throws TypeError when the list is empty or an address is invalid. */
  constructor(addresses: GatewayAddresses) {
    this.addresses = gatewayAddressList(addresses);
  }

  /** The address the phone connects to next (or is connected to). */
  get current(): GatewayAddress {
    return this.addresses[this.index]!;
  }

  /** Its position in the list, from 0. */
  get currentIndex(): number {
    return this.index;
  }

  /** Every address, in order. */
  get all(): readonly GatewayAddress[] {
    return this.addresses;
  }

  /** `host:port` or the URL of every address, in order, joined with `, ` (for logs and messages). */
  describe(): string {
    return this.addresses.map(describeGatewayAddress).join(', ');
  }

  /** Back to the first address, in a fresh round (a phone that starts again). */
  reset(): void {
    this.index = 0;
    this.failedInRound = 0;
  }

  /**
   * The connection to {@link current} ended; `welcomed` when the gateway had welcomed it. Moves to the
   * next address and says whether to try it at once or after the backoff (which ends the round).
   */
  connectionEnded(welcomed: boolean): NextAttempt {
    this.index = (this.index + 1) % this.addresses.length;
    if (!welcomed && this.failedInRound + 1 < this.addresses.length) {
      this.failedInRound += 1;
      return 'at-once';
    }
    this.failedInRound = 0;
    return 'after-backoff';
  }
}
