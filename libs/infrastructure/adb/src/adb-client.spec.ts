import { once } from 'node:events';
import net from 'node:net';
import { AdbServerUnreachableError, createAdbClient } from './adb-client';
import { adbStateReason } from './adb-device-watcher';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('AdbServerUnreachableError', () => {
  it("names the port in its start-server hint unless it is adb's default", () => {
    const refused = new Error('connection refused');
    expect(new AdbServerUnreachableError({ host: '127.0.0.1', port: 5037 }, refused).message).toBe('no adb server at 127.0.0.1:5037 (connection refused); start one with `adb start-server`');
    expect(new AdbServerUnreachableError({ host: '127.0.0.1', port: 15037 }, refused).message).toBe('no adb server at 127.0.0.1:15037 (connection refused); start one with `adb -P 15037 start-server`');
  });
});

describe('createAdbClient', () => {
  it('rejects AdbServerUnreachableError when no adb server listens, instead of starting one', async () => {
    const port = await closedPort();
    const error = await createAdbClient({ host: '127.0.0.1', port })
      .listDevices()
      .then(
        () => new Error('expected a rejection'),
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AdbServerUnreachableError);
    expect((error as Error).message).toBe(`no adb server at 127.0.0.1:${port} (connection refused); start one with \`adb -P ${port} start-server\``);
    // Nothing was started on the port by the attempt.
    const probe = net.connect(port, '127.0.0.1');
    const [failure] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
    expect(failure.code).toBe('ECONNREFUSED');
  });

  it('talks to an adb server that listens', async () => {
    const requests: string[] = [];
    const server = net.createServer((socket) => {
      socket.once('data', (request) => {
        requests.push(request.toString());
        socket.end('OKAY0004002a');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      expect(await createAdbClient({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port }).version()).toBe(42);
      expect(requests).toEqual(['000Chost:version']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('adbStateReason', () => {
  it("names adb's state and what to do about it", () => {
    expect(adbStateReason('unauthorized')).toBe('adb: unauthorized — accept the "Allow USB debugging?" prompt on the phone (unlock it first), or run `adb kill-server` and plug it in again');
    expect(adbStateReason('offline')).toBe('adb: offline — the phone does not answer adb; unplug and plug it in again, or run `adb reconnect offline`');
    expect(adbStateReason('recovery')).toBe('adb: recovery');
  });
});
