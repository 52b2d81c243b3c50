import { once } from 'node:events';
import net from 'node:net';
import Adb from '@devicefarmer/adbkit';
import { adbServerAddress, AdbkitDeviceShell, readExitMarker, withExitMarker } from './adbkit-device-shell';
import { AdbDeviceLostError, AdbShellError, AdbShellTimeoutError } from './device-shell';

/** What the fake device does with a command: print bytes and exit 0, exit with a status, print bytes and be cut off, hang, or adb refuses. */
type FakeAnswer = Buffer | { output: Buffer; exitStatus: number } | { cutOff: Buffer } | 'hang' | { fail: string };

/**
 * Just enough of an adb server for one device: reads `host:transport:<serial>` then `exec:<command>`
 * (each a 4-hex-digit length and the text, as the host protocol frames requests), runs the
 * command's exit-marker `echo` itself, and answers from `respond`; answers
 * `host-serial:<serial>:get-state` with `state` (undefined: not found).
 */
class OneDeviceAdbServer {
  readonly server: net.Server;
  readonly requests: string[] = [];
  readonly closedByClient: Array<Promise<void>> = [];
  private readonly received = new Map<string, () => void>();

  state: string | undefined = 'device';

  constructor(serial: string, respond: (command: string) => FakeAnswer) {
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
          for (const [prefix, resolve] of this.received) if (request.startsWith(prefix)) resolve();
          if (request === `host-serial:${serial}:get-state`) socket.end(this.state === undefined ? fail(`device '${serial}' not found`) : `OKAY${this.state.length.toString(16).padStart(4, '0')}${this.state}`);
          else if (request.startsWith('host-serial:')) socket.end(fail(`device '${request.split(':')[1] ?? ''}' not found`));
          else if (request === `host:transport:${serial}`) socket.write('OKAY');
          else if (request.startsWith('host:transport:')) socket.end(fail(`device '${request.slice(15)}' not found`));
          else if (request.startsWith('exec:')) {
            const marked = /^(.*); echo "(mobileclaw-exit-[0-9a-f]{16}):\$\?"$/s.exec(request.slice(5));
            if (!marked) throw new Error(`a command without its exit marker: ${request}`);
            const [, command = '', marker = ''] = marked;
            const answer = respond(command);
            const exited = (output: Buffer, status: number): Buffer => Buffer.concat([Buffer.from('OKAY'), output, Buffer.from(`${marker}:${status}\n`)]);
            if (answer === 'hang') socket.write('OKAY');
            else if (Buffer.isBuffer(answer)) socket.end(exited(answer, 0));
            else if ('exitStatus' in answer) socket.end(exited(answer.output, answer.exitStatus));
            else if ('cutOff' in answer) socket.end(Buffer.concat([Buffer.from('OKAY'), answer.cutOff]));
            else socket.end(fail(answer.fail));
          }
        }
      });
    });
  }

  /** Resolves once a request starting with `prefix` (e.g. `exec:hang;`) has arrived. */
  receivedRequest(prefix: string): Promise<void> {
    if (this.requests.some((r) => r.startsWith(prefix))) return Promise.resolve();
    return new Promise((resolve) => this.received.set(prefix, resolve));
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
    server = new OneDeviceAdbServer('emulator-5554', (command) => {
      if (command === 'screencap -p') return binary;
      if (command === 'hang') return 'hang';
      if (command === 'pm') return { fail: 'closed' };
      if (command === 'false') return { output: Buffer.from('nope\n'), exitStatus: 3 };
      if (command === 'input tap 1 2') return { cutOff: Buffer.alloc(0) };
      if (command === 'screencap -p; cut') return { cutOff: binary };
      return Buffer.from(`ran ${command}\n`);
    });
    port = await server.listen();
  });

  afterEach(() => server.close());

  function shellFor(serial: string): AdbkitDeviceShell {
    return new AdbkitDeviceShell(Adb.createClient({ host: '127.0.0.1', port }).getDevice(serial));
  }

  it('runs the command through exec: with its exit marker and returns its bytes unchanged (no CR/LF mangling), the marker line stripped', async () => {
    const { output, exitStatus } = await shellFor('emulator-5554').exec('screencap -p', { timeoutMs: 5000, signal: new AbortController().signal });
    expect(output.equals(binary)).toBe(true);
    expect(exitStatus).toBe(0);
    expect(server.requests).toEqual(['host:transport:emulator-5554', expect.stringMatching(/^exec:screencap -p; echo "mobileclaw-exit-[0-9a-f]{16}:\$\?"$/)]);
  });

  it("resolves a command's non-zero exit status with its output", async () => {
    const result = await shellFor('emulator-5554').exec('false', { timeoutMs: 5000, signal: new AbortController().signal });
    expect({ output: result.output.toString(), exitStatus: result.exitStatus }).toEqual({ output: 'nope\n', exitStatus: 3 });
  });

  it('rejects a command whose connection closed before its exit marker AdbDeviceLostError when the device is gone', async () => {
    server.state = undefined;
    const call = shellFor('emulator-5554').exec('input tap 1 2', { timeoutMs: 5000, signal: new AbortController().signal });
    await expect(call).rejects.toBeInstanceOf(AdbDeviceLostError);
    await expect(call).rejects.toThrow("adb could not run `input tap 1 2`: emulator-5554: the command was cut off: device 'emulator-5554' not found");
    expect(server.requests).toContain('host-serial:emulator-5554:get-state');
  });

  it('rejects a cut-off command AdbDeviceLostError when the device is listed in another state (offline)', async () => {
    server.state = 'offline';
    await expect(shellFor('emulator-5554').exec('input tap 1 2', { timeoutMs: 5000, signal: new AbortController().signal })).rejects.toThrow(
      new AdbDeviceLostError('input tap 1 2', 'emulator-5554: the command was cut off: the device is now offline'),
    );
  });

  it('rejects a cut-off command (even one that printed binary output) plain AdbShellError while the device is still listed', async () => {
    const call = shellFor('emulator-5554').exec('screencap -p; cut', { timeoutMs: 5000, signal: new AbortController().signal });
    await expect(call).rejects.toThrow(new AdbShellError('screencap -p; cut', 'emulator-5554: the adb connection closed before the command finished'));
    await expect(call).rejects.not.toBeInstanceOf(AdbDeviceLostError);
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
    await server.receivedRequest('exec:hang;');
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

describe('readExitMarker', () => {
  const marker = 'mobileclaw-exit-0123456789abcdef';

  it('splits the output from the exit status, keeping bytes before the marker as they are', () => {
    const result = readExitMarker(Buffer.concat([Buffer.from([0x89, 0x0a, 0x0d]), Buffer.from(`${marker}:0\n`)]), marker);
    expect(result && { output: [...result.output], exitStatus: result.exitStatus }).toEqual({ output: [0x89, 0x0a, 0x0d], exitStatus: 0 });
    expect(readExitMarker(Buffer.from(`out\r\n${marker}:127\r\n`), marker)?.exitStatus).toBe(127);
  });

  it('finds no marker in a stream cut off before it, or in the middle of the marker line', () => {
    expect(readExitMarker(Buffer.from('out\n'), marker)).toBeUndefined();
    expect(readExitMarker(Buffer.from(`out\n${marker}:`), marker)).toBeUndefined();
    expect(readExitMarker(Buffer.from(`out\n${marker.slice(0, 10)}`), marker)).toBeUndefined();
  });

  it('marks a command with an echo of its exit status', () => {
    expect(withExitMarker('input tap 1 2', marker)).toBe(`input tap 1 2; echo "${marker}:$?"`);
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
