import { isIP } from 'node:net';
import type { NetworkInterfaceInfo } from 'node:os';
import { hostNameOf, isLoopbackHostName } from '@mobileclaw/domain';

/**
 * Where the pairing host came from: `configured` (`MOBILECLAW_PAIRING_ADDRESS`), `device-listener`
 * (the one address the device port is bound to), `request` (the Host header the page was loaded
 * with), `interface` (this machine's first LAN IPv4 address), `loopback` (nothing better: useless to a phone).
 */
export type PairingHostSource = 'configured' | 'device-listener' | 'request' | 'interface' | 'loopback';

/** The host a phone should connect to, how it was found, and what the user should know about it. */
export interface PairingHost {
  host: string;
  source: PairingHostSource;
  /** True unless the host was configured: the gateway cannot know which of its addresses a phone reaches. */
  guessed: boolean;
  /** Plain sentences for the page, e.g. why 127.0.0.1 will not work; empty when there is nothing to say. */
  warnings: string[];
}

/** What {@link resolvePairingHost} looks at. */
export interface PairingHostInputs {
  /** `MOBILECLAW_PAIRING_ADDRESS`'s host, when set. */
  configured?: string;
  /** The device port's bind address (`MOBILECLAW_DEVICE_HOST`); undefined = all interfaces. */
  deviceListenerHost?: string;
  /** The request's `Host` header (`name[:port]`, `[v6]:port`), when it has one. */
  requestHost?: string;
  /**
   * When the request came through a proxy: the forwarding header that shows it (`X-Forwarded-For`,
   * …) and the proxy's `X-Forwarded-Host`, if any. That host is taken as a hint for the link's host
   * in place of `requestHost` (a proxy may rewrite `Host`); it is never trusted for anything else.
   */
  proxy?: { header: string; forwardedHost?: string };
  /** The port the link names, for the warning a proxied request gets. */
  devicePort?: number;
  /** This machine's network interfaces, as `os.networkInterfaces()` gives them. */
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/** A host (name or address, IPv6 without brackets) normalised as a browser's URL parser does ({@link hostNameOf}). */
const normalised = (host: string): string | undefined => hostNameOf(isIP(host) === 6 ? `[${host}]` : host);

/**
 * True for `localhost` (and its subdomains), 127.0.0.0/8 and `::1` in any textual form (`127.1`,
 * `0x7f000001`, `::ffff:127.0.0.1`): addresses that mean "this machine" to whoever uses them.
 */
export function isLoopbackName(host: string): boolean {
  const name = normalised(host);
  return name !== undefined && isLoopbackHostName(name);
}

/** True for the unspecified addresses (`0.0.0.0`, `::`, in any textual form): a listener's "every interface", no place to connect to. */
export function isUnspecifiedAddress(host: string): boolean {
  const name = normalised(host);
  return name === '0.0.0.0' || name === '[::]';
}

/** True for the wildcard addresses that bind every interface. */
const isWildcard = (host: string) => host === '' || isUnspecifiedAddress(host);

/**
 * The host part of a `Host` header, normalised ({@link hostNameOf}: lowercase, IPv4 as a dotted quad):
 * `gw.local:3000` → `gw.local`, `[fe80::1]:3000` → `fe80::1`, `127.1` → `127.0.0.1`.
 * @returns undefined when malformed, longer than a DNS name may be (253 characters), or not a name
 *   the Android app accepts (letters, digits, dots and hyphens).
 */
export function hostOfHostHeader(header: string): string | undefined {
  const name = hostNameOf(header.trim());
  if (name === undefined) return undefined;
  if (name.startsWith('[')) return name.slice(1, -1);
  return /^[a-z0-9.-]+$/.test(name) ? name : undefined;
}

/**
 * This machine's first IPv4 address a phone on the same network could use: not internal (loopback),
 * not link-local (169.254/16, self-assigned), in the order the operating system lists the interfaces.
 * @returns the address and its interface's name, or undefined when there is none.
 */
export function firstLanIPv4(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): { address: string; name: string } | undefined {
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family === 'IPv4' && !info.internal && !info.address.startsWith('169.254.')) return { address: info.address, name };
    }
  }
  return undefined;
}

/**
 * Decides which host the pairing link names, in this order: the configured address; the device port's
 * own bind address when it is bound to one address; the host the page was loaded from, unless it is
 * loopback or unspecified (`0.0.0.0`, `::`) (its `X-Forwarded-Host` when the request came through a
 * proxy that sent one); this machine's first LAN IPv4 address; else 127.0.0.1, with a warning that a
 * phone cannot use it. Every guess says how to fix it (`MOBILECLAW_PAIRING_ADDRESS`). A host taken
 * from a proxied request gets a warning that the proxy does not carry the phone's raw TCP connection.
 */
export function resolvePairingHost(inputs: PairingHostInputs): PairingHost {
  if (inputs.configured) return { host: inputs.configured, source: 'configured', guessed: false, warnings: [] };
  const fix = 'set MOBILECLAW_PAIRING_ADDRESS to the address phones reach this gateway at';
  const listener = inputs.deviceListenerHost;
  if (listener !== undefined && !isWildcard(listener)) {
    if (isLoopbackName(listener)) {
      return {
        host: listener,
        source: 'device-listener',
        guessed: true,
        warnings: [`The device port listens on ${listener} only (MOBILECLAW_DEVICE_HOST): no phone can connect. Bind it to a LAN address or leave MOBILECLAW_DEVICE_HOST unset.`],
      };
    }
    return { host: listener, source: 'device-listener', guessed: true, warnings: [] };
  }
  const requested = requestedHost(inputs);
  if (requested !== undefined && !isLoopbackName(requested) && !isUnspecifiedAddress(requested)) {
    return { host: requested, source: 'request', guessed: true, warnings: inputs.proxy ? [proxiedWarning(inputs.proxy.header, requested, inputs.devicePort)] : [] };
  }
  const lan = firstLanIPv4(inputs.interfaces);
  if (lan) {
    return {
      host: lan.address,
      source: 'interface',
      guessed: true,
      warnings: [`${lan.address} is a guess (the first network address of this machine, interface ${lan.name}): the phone must be on that network; if it cannot connect, ${fix}.`],
    };
  }
  return {
    host: '127.0.0.1',
    source: 'loopback',
    guessed: true,
    warnings: [`This machine has no network address a phone could use: 127.0.0.1 is the phone itself. Connect this machine to the phone's network, or ${fix}.`],
  };
}

/** The host part of the proxy's first `X-Forwarded-Host` value (the one the client sent), else of `Host`; undefined when neither is a host. */
function requestedHost(inputs: PairingHostInputs): string | undefined {
  const forwarded = inputs.proxy?.forwardedHost?.split(',')[0];
  const hinted = forwarded === undefined ? undefined : hostOfHostHeader(forwarded);
  if (hinted !== undefined) return hinted;
  return inputs.requestHost === undefined ? undefined : hostOfHostHeader(inputs.requestHost);
}

/** Why a link built from a proxied page's host may not reach the gateway, and the fix. */
function proxiedWarning(header: string, host: string, devicePort: number | undefined): string {
  const port = devicePort ?? 'PORT';
  return (
    `This page came through a proxy (${header} header): phones connect to the device port (${port}) over raw TCP, which an HTTP proxy does not forward, ` +
    `so the link works only if ${host}:${port} reaches this gateway directly. Behind a TCP/TLS stream proxy, set MOBILECLAW_PAIRING_ADDRESS to its address (e.g. tls://${host}:${port === 'PORT' ? 443 : port}).`
  );
}
