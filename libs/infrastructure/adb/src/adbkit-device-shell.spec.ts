import { once } from 'node:events';
import net from 'node:net';
import Adb from '@devicefarmer/adbkit';
import { adbServerAddress, AdbkitDeviceShell } from './adbkit-device-shell';
import { AdbShellError, AdbShellTimeoutError } from './device-shell';

/**
 * Just enough of an adb server for one device: reads `host:transport:<serial>` then `exec:<command>`
 * (each a 4-hex-digit length and the text, as the host protocol frames requests) and answers from
 * `respond`: bytes then close, `hang` (stay open), or a FAIL with a message.
 */
class OneDeviceAdbServer {
  readonly server: net.Server;
  readonly requests: string[] = [];
  readonly closedByClient: Array<Promise<void>> = [];
  private readonly received = new Map<string, () => void>();

  constructor(serial: string, respond: (command: string) => Buffer | 'hang' | { fail: string }) {
    this.server = net.createServer((socket) => {
      this.closedByClient.push(once(socket, 'close').then(() => undefined));
      socket.on('error', () => undefined);
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 4) {
          const length = parseInt(buffered.toString('ascii', 0, 4), 16);
          if (buffered.length < 4 + length) return;
          const request = buffered.toString('utf8', 4, 4 + length);
          buffered = buffered.subarray(4 + length);
          this.requests.push(request);
          this.received.get(request)?.();
          if (request === `host:transport:${serial}`) socket.write('OKAY');
          else if (request.startsWith('host:transport:')) socket.end(fail(`device '${request.slice(15)}' not found`));
          else if (request.startsWith('exec:')) {
            const answer = respond(request.slice(5));
            if (answer === 'hang') socket.write('OKAY');
            else if (Buffer.isBuffer(answer)) socket.end(Buffer.concat([Buffer.from('OKAY'), answer]));
            else socket.end(fail(answer.fail));
          }
        }
      });
    });
  }

  /** Resolves once `request` (e.g. `exec:hang`) has arrived. */
  receivedRequest(request: string): Promise<void> {
    if (this.requests.includes(request)) return Promise.resolve();
    return new Promise((resolve) => this.received.set(request, resolve));
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function fail(message: string): Buffer {
  return Buffer.from(`FAIL${message.length.toString(16).padStart(4, '0')}${message}`);
}

describe('AdbkitDeviceShell over the adb host protocol', () => {
  const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x0a, 0x0d, 0x0a, 0xff]);
  let server: OneDeviceAdbServer;
  let port: number;

  beforeEach(async () => {
    server = new OneDeviceAdbServer('emulator-5554', (command) => (command === 'screencap -p' ? binary : command === 'hang' ? 'hang' : command === 'pm' ? { fail: 'closed' } : Buffer.from(`ran ${command}\n`)));
    port = await server.listen();
  });

  afterEach(() => server.close());

  function shellFor(serial: string): AdbkitDeviceShell {
    return new AdbkitDeviceShell(Adb.createClient({ host: '127.0.0.1', port }).getDevice(serial));
  }

  it('runs the command through exec: and returns its bytes unchanged (no CR/LF mangling)', async () => {
    const output = await shellFor('emulator-5554').exec('screencap -p', { timeoutMs: 5000, signal: new AbortController().signal });
    expect(output.equals(binary)).toBe(true);
    expect(server.requests).toEqual(['host:transport:emulator-5554', 'exec:screencap -p']);
  });

  it('abandons a command at its deadline: the connection is closed, the call rejects AdbShellTimeoutError', async () => {
    const call = shellFor('emulator-5554').exec('hang', { timeoutMs: 50, signal: new AbortController().signal });
    await expect(call).rejects.toBeInstanceOf(AdbShellTimeoutError);
    await expect(call).rejects.toThrow('adb shell `hang` did not finish within 50 ms; abandoned');
    await Promise.all(server.closedByClient);
  });

  it('abandons a command when its signal aborts, with the signal\'s reason', async () => {
    const controller = new AbortController();
    const call = shellFor('emulator-5554').exec('hang', { timeoutMs: 60_000, signal: controller.signal });
    await server.receivedRequest('exec:hang');
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await Promise.all(server.closedByClient);
  });

  it("turns adb's refusals into AdbShellError with its message", async () => {
    await expect(shellFor('R58M123').exec('getprop', { timeoutMs: 5000, signal: new AbortController().signal })).rejects.toThrow(new AdbShellError('getprop', "R58M123: device 'R58M123' not found"));
    await expect(shellFor('emulator-5554').exec('pm', { timeoutMs: 5000, signal: new AbortController().signal })).rejects.toThrow(new AdbShellError('pm', 'emulator-5554: closed'));
  });
});

describe('adbServerAddress (ADB_SERVER_SOCKET)', () => {
  it.each([
    [undefined, { host: '127.0.0.1', port: 5037 }],
    ['', { host: '127.0.0.1', port: 5037 }],
    ['tcp:5038', { host: '127.0.0.1', port: 5038 }],
    ['tcp:10.0.2.2:5037', { host: '10.0.2.2', port: 5037 }],
    ['tcp:adb-host.local:15037', { host: 'adb-host.local', port: 15037 }],
    ['tcp:[::1]:5037', { host: '::1', port: 5037 }],
  ])('%p → %p', (value, address) => {
    expect(adbServerAddress(value)).toEqual(address);
  });

  it.each(['localfilesystem:/tmp/adb.sock', 'tcp:', 'tcp:host:0', 'tcp:host:70000', '5037'])('refuses %p', (value) => {
    expect(() => adbServerAddress(value)).toThrow(RangeError);
  });
});
