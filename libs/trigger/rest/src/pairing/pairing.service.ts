import { Inject, Injectable, Optional } from '@nestjs/common';
import { networkInterfaces } from 'node:os';
import { forwardingHeaderLabel, forwardingHeaderOf, type RequestHeaders } from '@mobileclaw/domain';
import { resolvePairingHost, type PairingHostSource } from './pairing-host';
import { pairingLink } from './pairing-link';
import { qrCodeSvg } from './pairing-qr';
import { PAIRING_OPTIONS, type PairingOptions } from './pairing.options';

/** The answer of `GET /api/pairing`: everything a new phone needs, as a link, a QR code and values to type. */
export interface PairingInfo {
  /** `mobileclaw://pair?host=…&port=…&token=…` (+ `&tls=1`), what the Android app opens. */
  link: string;
  host: string;
  /** TCP port, 1–65535. */
  port: number;
  /** Always `tcp`: the Android app connects to the TCP device port (the WebSocket at `/ws/device` is for other clients). */
  transport: 'tcp';
  /** True when a TLS-terminating proxy is in front of the device port (configured as `tls://…`). */
  tls: boolean;
  deviceToken: string;
  hostSource: PairingHostSource;
  /** True unless the address was configured. */
  hostGuessed: boolean;
  /** Plain sentences to show beside the code (e.g. that 127.0.0.1 is useless to a phone); often empty. */
  warnings: string[];
  /** The link as a QR code: an SVG document, black on white, sized by its `viewBox` (modules). */
  qrSvg: string;
}

/**
 * Puts the pairing link together for one request: the host a phone should use (see
 * `resolvePairingHost`), the device port, the device token and TLS, and its QR code.
 */
@Injectable()
export class PairingService {
  constructor(@Optional() @Inject(PAIRING_OPTIONS) private readonly options?: PairingOptions) {}

  /** False when the host gave no pairing options (the route then answers 404). */
  get available(): boolean {
    return this.options !== undefined;
  }

  /**
   * @param requestHost the request's `Host` header, when it has one.
   * @param requestHeaders all of the request's headers: forwarding headers (`X-Forwarded-For`, …)
   *   show it came through a proxy, whose `X-Forwarded-Host` is then a hint for the host.
   * @throws Error when the module has no pairing options (check {@link available} first).
   */
  async describe(requestHost: string | undefined, requestHeaders: RequestHeaders = {}): Promise<PairingInfo> {
    const options = this.options;
    if (!options) throw new Error('no pairing options: GatewayApiModule.forRoot({pairing}) was not given any');
    const port = options.address?.port ?? options.devicePort();
    const proxyHeader = forwardingHeaderOf(requestHeaders);
    const forwardedHost = requestHeaders['x-forwarded-host'];
    const resolved = resolvePairingHost({
      configured: options.address?.host,
      deviceListenerHost: options.deviceListenerHost,
      requestHost,
      proxy: proxyHeader && { header: forwardingHeaderLabel(proxyHeader), forwardedHost: typeof forwardedHost === 'string' ? forwardedHost : forwardedHost?.[0] },
      devicePort: port,
      interfaces: (options.interfaces ?? networkInterfaces)(),
    });
    const tls = options.address?.tls ?? false;
    const link = pairingLink({ host: resolved.host, port, token: options.deviceToken, tls });
    return {
      link,
      host: resolved.host,
      port,
      transport: 'tcp',
      tls,
      deviceToken: options.deviceToken,
      hostSource: resolved.source,
      hostGuessed: resolved.guessed,
      warnings: resolved.warnings,
      qrSvg: await qrCodeSvg(link),
    };
  }
}
