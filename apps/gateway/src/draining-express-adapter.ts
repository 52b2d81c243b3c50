import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

/** Options of {@link DrainingExpressAdapter}. */
export interface DrainingExpressAdapterOptions {
  /**
   * How long, in ms, requests still in progress when the server closes may take to finish before
   * their connections are cut. Default {@link HTTP_DRAIN_MS}.
   */
  drainMs?: number;
}

/** Default of {@link DrainingExpressAdapterOptions.drainMs}: 2 s. */
export const HTTP_DRAIN_MS = 2_000;

/**
 * Nest's Express adapter with a bounded drain on close. Closing the HTTP server (the last step of the
 * app's close, after the shutdown hooks have ended the tasks, failed waiting commands and ended the
 * event streams):
 *
 * - stops accepting connections and closes the idle keep-alive ones at once;
 * - lets each request in progress finish and write its answer (a command failed `SHUTTING_DOWN`, the
 *   last event of a stream), then closes its connection — answers started meanwhile say
 *   `Connection: close`;
 * - cuts every connection still open `drainMs` later (a request whose body never comes, a client
 *   that reopened an event stream meanwhile, a WebSocket nobody closed), so that a client can never
 *   hold the close for ever.
 *
 * Resolves `close()` once the server has no connection left.
 * @throws RangeError from the constructor when `drainMs` is not an integer from 0 to 600,000.
 */
export class DrainingExpressAdapter extends ExpressAdapter {
  private readonly drainMs: number;
  private readonly sockets = new Set<Socket>();
  /** Answers being written or awaited. */
  private readonly responses = new Set<ServerResponse>();
  private closing = false;

  constructor(options: DrainingExpressAdapterOptions = {}) {
    super();
    this.drainMs = options.drainMs ?? HTTP_DRAIN_MS;
    if (!Number.isInteger(this.drainMs) || this.drainMs < 0 || this.drainMs > 600_000) {
      throw new RangeError(`drainMs must be an integer from 0 to 600000, got ${this.drainMs}`);
    }
  }

  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    const server = this.getHttpServer() as Server;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.responses.add(response);
      if (this.closing) closeAfter(response);
      response.once('close', () => this.responses.delete(response));
      // A keep-alive connection whose last answer is out is idle: closed now rather than at the cut.
      response.once('finish', () => {
        this.responses.delete(response);
        if (this.closing) setImmediate(() => server.closeIdleConnections());
      });
    });
  }

  override async close(): Promise<void> {
    const server = this.getHttpServer() as Server | undefined;
    if (!server) return;
    this.closing = true;
    for (const response of this.responses) closeAfter(response);
    // Closing also closes the idle connections (Node ≥ 19); the callback runs once none is left.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const cut = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, this.drainMs);
    try {
      await closed;
    } finally {
      clearTimeout(cut);
    }
  }
}

/** Tells the client the connection ends with this answer, when its head is not out yet. */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}
