import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one new connection:
 * - `forward`: pipes it both ways to the target;
 * - `refuse`: destroys it at once (the client sees a reset; nothing reaches the target);
 * - `swallow-response`: forwards the request, but destroys the connection as soon as the target
 *   answers, so the target acted and the client never learns it.
 */
export type ConnectionTreatment = 'forward' | 'refuse' | 'swallow-response';

/**
 * A TCP proxy in front of a test's gateway, to break the network between client and gateway on cue:
 * cut every connection, refuse new ones, or lose an answer.
 */
export class TcpProxy {
  /** Treatments of the next connections, in order; once empty, `refusing` decides. */
  readonly plan: ConnectionTreatment[] = [];
  /** While true, every new connection not planned otherwise is refused. */
  refusing = false;
  /** Treatments given so far, in order. */
  readonly treated: ConnectionTreatment[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly targetPort: number,
  ) {}

  /** Listens on a free port of 127.0.0.1, forwarding to `127.0.0.1:targetPort`. */
  static async start(targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, targetPort);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Destroys every open connection, both sides. */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const treatment = this.plan.shift() ?? (this.refusing ? 'refuse' : 'forward');
    this.treated.push(treatment);
    if (treatment === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.track(client);
    this.track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    if (treatment === 'swallow-response') {
      upstream.once('data', () => {
        upstream.destroy();
        client.destroy();
      });
    } else upstream.pipe(client);
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
