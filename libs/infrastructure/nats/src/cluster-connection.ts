import { Logger, type LoggerService } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';

/** How to reach the cluster's NATS server. */
export interface ClusterConnectionOptions {
  /**
   * NATS server URL(s), e.g. `nats://127.0.0.1:4222`; several separated by commas. `tls://` URLs
   * (all of them, or none) make TLS required: the server's certificate is verified against Node's
   * trusted CAs (`NODE_EXTRA_CA_CERTS` adds one) and a server without TLS is refused.
   */
  url: string;
  /** This gateway instance's id (unique in the cluster); the connection's name unless {@link name} is given. */
  instanceId: string;
  /** The connection's name as the server shows it. Default `mobileclaw-<instanceId>`. */
  name?: string;
  /** Wait between reconnect attempts, in ms. Default 500. */
  reconnectTimeWaitMs?: number;
  /** Where link changes are logged. Default: Nest's `Logger` with context `ClusterConnection`. */
  logger?: LoggerService;
}

/** Whether the link to the NATS server is up. */
export type ClusterLinkState = 'up' | 'down';

/** One instance's NATS connection and the state of its link. */
export interface ClusterConnection {
  readonly nc: NatsConnection;
  readonly instanceId: string;
  /** True while the link to the server is up (false from a disconnect until the reconnect and a round trip after it). */
  readonly linkUp: boolean;
  /** The link's state now and at every change (replays the current one to each subscriber). */
  readonly link$: Observable<ClusterLinkState>;
  /** Flushes and closes the connection; the link goes `down` for good. Idempotent. */
  close(): Promise<void>;
}

/**
 * Whether the server list `url` asks for TLS: true when every entry is `tls://…`, false when none is.
 * @throws Error when some are `tls://` and others not (the NATS client takes TLS per connection, and a
 *   plain fallback would defeat it).
 */
export function requiresTls(url: string): boolean {
  const entries = url.split(',').map((s) => s.trim());
  const tls = entries.filter((entry) => /^tls:\/\//i.test(entry)).length;
  if (tls !== 0 && tls !== entries.length) throw new Error('the NATS server list mixes tls:// and plain URLs: use tls:// for all of them or for none');
  return tls !== 0;
}

/**
 * Connects to the cluster's NATS server with reconnection forever (`maxReconnectAttempts: -1`: a
 * restarted server is found again without a new connection), logging each disconnect, reconnect and
 * server error. TLS is required when the URLs are `tls://` (see {@link requiresTls}).
 * @throws Error (from `@nats-io/transport-node`) when the first connection fails (`server does not
 *   support 'tls'` for a `tls://` URL of a server without TLS), or when the URLs mix `tls://` and others.
 */
export async function connectCluster(options: ClusterConnectionOptions): Promise<ClusterConnection> {
  const logger = options.logger ?? new Logger('ClusterConnection');
  const nc = await connect({
    servers: serversWithoutCredentials(options.url).split(', '),
    ...natsCredentials(options.url),
    name: options.name ?? `mobileclaw-${options.instanceId}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 500,
    ...(requiresTls(options.url) ? { tls: {} } : {}),
  });
  const link = new BehaviorSubject<ClusterLinkState>('up');
  logger.log(`instance ${options.instanceId} connected to NATS at ${nc.getServer()}`);
  void (async () => {
    for await (const status of nc.status()) {
      switch (status.type) {
        case 'disconnect':
          logger.warn(`the cluster link (NATS ${status.server}) is down; reconnecting`);
          link.next('down');
          break;
        case 'reconnect':
          // Up once a round trip proves the server has this connection's subscriptions again (they are
          // re-sent on reconnect, before the ping): a request routed here from then on finds them. The
          // log line says so only then, so that an operator (or a test) reading it can rely on the link.
          nc.flush().then(
            () => {
              logger.log(`the cluster link (NATS ${status.server}) is back`);
              link.next('up');
            },
            () => undefined, // down again: the next reconnect tries anew
          );
          break;
        case 'error':
          logger.error(`the NATS server reported: ${status.error.message}`);
          break;
        default:
          break;
      }
    }
  })();
  let closing: Promise<void> | undefined;
  return {
    nc,
    instanceId: options.instanceId,
    get linkUp() {
      return link.value === 'up';
    },
    link$: link.pipe(distinctUntilChanged()),
    close: () => {
      closing ??= (async () => {
        // Draining needs the server; with the link down there is nothing left to flush.
        if (link.value === 'up') await nc.drain().catch(() => nc.close());
        else await nc.close();
        link.next('down');
        link.complete();
      })();
      return closing;
    },
  };
}

/**
 * The login the server list carries, as the NATS client's options: `nats://user:password@host:4222`
 * → `{user, pass}`, `nats://token@host:4222` → `{token}` (the client reads neither from a URL); the
 * first entry with credentials counts. `{}` when none has any.
 */
export function natsCredentials(url: string): { user?: string; pass?: string; token?: string } {
  for (const entry of url.split(',').map((part) => part.trim())) {
    let parsed: URL;
    try {
      parsed = new URL(/^[a-z]+:\/\//i.test(entry) ? entry : `nats://${entry}`);
    } catch {
      continue;
    }
    if (parsed.username === '') continue;
    const user = decodeURIComponent(parsed.username);
    return parsed.password === '' ? { token: user } : { user, pass: decodeURIComponent(parsed.password) };
  }
  return {};
}

/** The server list of a NATS URL with any user, password or token left out, e.g. `nats://nats-1:4222, nats://nats-2:4222`. */
export function serversWithoutCredentials(natsUrl: string): string {
  return natsUrl
    .split(',')
    .map((entry) => {
      const trimmed = entry.trim();
      try {
        const url = new URL(/^[a-z]+:\/\//i.test(trimmed) ? trimmed : `nats://${trimmed}`);
        return `${url.protocol}//${url.host}`;
      } catch {
        return '(unreadable)';
      }
    })
    .join(', ');
}
