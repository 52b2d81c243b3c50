import { Client } from '@devicefarmer/adbkit';
// adbkit keeps its connection class out of its index; the package has no `exports` map, so the path is public.
import Connection from '@devicefarmer/adbkit/dist/src/adb/connection';
import type { AdbServerAddress } from './adbkit-device-shell';

/** No adb server listens at the address (adbkit's client was told not to start one). */
export class AdbServerUnreachableError extends Error {
  constructor(
    readonly address: AdbServerAddress,
    override readonly cause: unknown,
  ) {
    // adb starts its server on 5037 unless told the port: a hint without it would start the wrong one.
    const startServer = address.port === 5037 ? 'adb start-server' : `adb -P ${address.port} start-server`;
    super(`no adb server at ${address.host}:${address.port} (${cause instanceof Error ? cause.message : String(cause)}); start one with \`${startServer}\``);
    this.name = 'AdbServerUnreachableError';
  }
}

/** A connection that reports a refused adb server instead of spawning `adb start-server` as adbkit does. */
class ExistingServerConnection extends Connection {
  constructor(private readonly address: AdbServerAddress) {
    super({ ...address, bin: 'adb' });
  }

  override startServer(): ReturnType<Connection['startServer']> {
    const refused = new Error('connection refused');
    return Promise.reject(new AdbServerUnreachableError(this.address, refused)) as unknown as ReturnType<Connection['startServer']>;
  }
}

/** adbkit's client, each of whose connections is an {@link ExistingServerConnection}. */
class ExistingServerClient extends Client {
  constructor(private readonly address: AdbServerAddress) {
    super({ ...address, bin: 'adb' });
  }

  override connection(): ReturnType<Client['connection']> {
    const connection = new ExistingServerConnection(this.address);
    // As adbkit's own client: connection errors nobody handles are re-emitted on the client.
    connection.on('error', (err: Error) => this.emit('error', err));
    return connection.connect();
  }
}

/**
 * An adbkit client for the adb server at `address` that never starts a server of its own: adbkit
 * runs `adb start-server` whenever a connection is refused, which would put a real adb server on a
 * port the caller chose for another (a test's simulated one) and, in the gateway, spawn processes
 * behind the operator's back. A refused connection rejects {@link AdbServerUnreachableError}.
 */
export function createAdbClient(address: AdbServerAddress): Client {
  return new ExistingServerClient(address);
}
