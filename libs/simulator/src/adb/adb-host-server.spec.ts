import { once } from 'node:events';
import net from 'node:net';
import { PhoneUi } from '../phone-ui';
import { AdbHostServer, AdbServerError } from './adb-host-server';
import { ByteReader } from './byte-reader';
import { encodeRequest } from './smart-socket';
import { parseSyncHeader, syncHeader } from './sync-protocol';

/** A raw smart-socket client: write requests, read exact bytes. */
class RawClient {
  readonly reader: ByteReader;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    this.reader = new ByteReader(socket);
    socket.on('error', () => undefined);
    this.closed = once(socket, 'close').then(() => undefined);
  }

  static async open(port: number): Promise<RawClient> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawClient(socket);
  }

  send(service: string): void {
    this.socket.write(encodeRequest(service));
  }

  async text(n: number): Promise<string> {
    return (await this.reader.read(n))?.toString('utf8') ?? '<end>';
  }

  /** A 4-hex length-prefixed value. */
  async value(): Promise<string> {
    return this.text(parseInt(await this.text(4), 16));
  }

  /** Everything up to the end of the connection. */
  async rest(): Promise<string> {
    const bytes: Buffer[] = [];
    for (let byte = await this.reader.read(1); byte !== null; byte = await this.reader.read(1)) bytes.push(byte);
    return Buffer.concat(bytes).toString('utf8');
  }
}

let server: AdbHostServer;

beforeEach(async () => {
  server = new AdbHostServer();
  await server.listen();
});

afterEach(async () => {
  await server.close();
});

describe('AdbHostServer host services', () => {
  it('answers host:version with 0029 and closes', async () => {
    const client = await RawClient.open(server.port);
    client.send('host:version');
    expect(await client.text(12)).toBe('OKAY00040029');
    await client.closed;
  });

  it('host:kill is answered and the server keeps serving (no real adb server may take the port)', async () => {
    const killed = once(server, 'kill');
    const client = await RawClient.open(server.port);
    client.send('host:kill');
    expect(await client.text(4)).toBe('OKAY');
    await killed;
    const again = await RawClient.open(server.port);
    again.send('host:version');
    expect(await again.text(12)).toBe('OKAY00040029');
  });

  it('host:tport answers the 8-byte transport id, then serves the device', async () => {
    server.attach({ serial: 'a' });
    server.attach({ serial: 'b' });
    const client = await RawClient.open(server.port);
    client.send('host:tport:serial:b');
    const answer = await client.reader.read(12);
    expect(answer?.subarray(0, 4).toString()).toBe('OKAY');
    expect(answer?.readBigUInt64LE(4)).toBe(2n);
    client.send('shell:getprop ro.serialno');
    expect(await client.text(4)).toBe('OKAY');
    expect(await client.rest()).toBe('b\n');
  });

  it('host-serial with a serial holding colons, and transport by id', async () => {
    server.attach({ serial: '10.0.0.2:5555' });
    const client = await RawClient.open(server.port);
    client.send('host-serial:10.0.0.2:5555:get-serialno');
    expect(await client.text(4)).toBe('OKAY');
    expect(await client.value()).toBe('10.0.0.2:5555');
    const byId = await RawClient.open(server.port);
    byId.send('host:transport-id:1');
    expect(await byId.text(4)).toBe('OKAY');
    const missing = await RawClient.open(server.port);
    missing.send('host:transport-id:9');
    expect(await missing.text(4)).toBe('FAIL');
    expect(await missing.value()).toBe("no device with transport id '9'");
  });

  it('refuses unknown services and closes on a malformed length prefix', async () => {
    const client = await RawClient.open(server.port);
    client.send('host:frobnicate');
    expect(await client.text(4)).toBe('FAIL');
    expect(await client.value()).toBe('unknown host service');
    const broken = await RawClient.open(server.port);
    broken.socket.write('zz!!host:version');
    await broken.closed;
    server.attach({ serial: 's' });
    const local = await RawClient.open(server.port);
    local.send('host:transport:s');
    expect(await local.text(4)).toBe('OKAY');
    local.send('reboot:');
    expect(await local.text(4)).toBe('FAIL');
    expect(await local.value()).toBe('closed');
  });

  it('track-devices pushes the list at once and after every change', async () => {
    const client = await RawClient.open(server.port);
    client.send('host:track-devices');
    expect(await client.text(4)).toBe('OKAY');
    expect(await client.value()).toBe('');
    const phone = server.attach({ serial: 'p1' });
    expect(await client.value()).toBe('p1\tdevice\n');
    phone.setState('unauthorized');
    expect(await client.value()).toBe('p1\tunauthorized\n');
    server.detach('p1');
    expect(await client.value()).toBe('');
    server.attach(phone);
    expect(await client.value()).toBe('p1\tunauthorized\n');
    expect(server.transportId('p1')).toBe(2);
  });

  it('wait-for-any-device answers OKAY, then OKAY once a phone is ready', async () => {
    const client = await RawClient.open(server.port);
    client.send('host:wait-for-any-device');
    expect(await client.text(4)).toBe('OKAY');
    const phone = server.attach({ serial: 'w', state: 'offline' });
    phone.setState('device');
    expect(await client.text(4)).toBe('OKAY');
    await client.closed;
  });

  it('unplugging a phone closes its open (hanging) services', async () => {
    const phone = server.attach({ serial: 'h' });
    phone.hang((command) => command === 'getevent');
    const client = await RawClient.open(server.port);
    client.send('host:transport:h');
    expect(await client.text(4)).toBe('OKAY');
    client.send('shell:getevent');
    expect(await client.text(4)).toBe('OKAY');
    expect(phone.received).toEqual([{ service: 'shell', command: 'getevent' }]);
    server.detach('h');
    expect(await client.rest()).toBe('');
  });

  it('sync: STAT, SEND (push), RECV (pull), LIST and QUIT', async () => {
    const phone = server.attach({ serial: 'f', ui: new PhoneUi() });
    const client = await RawClient.open(server.port);
    client.send('host:transport:f');
    client.send('sync:');
    expect(await client.text(8)).toBe('OKAYOKAY');
    const request = (id: string, arg: string): void => void client.socket.write(Buffer.concat([syncHeader(id, Buffer.byteLength(arg)), Buffer.from(arg)]));
    request('SEND', '/sdcard/note.txt,33188');
    client.socket.write(Buffer.concat([syncHeader('DATA', 5), Buffer.from('hello'), syncHeader('DONE', 1_700_000_000)]));
    expect(parseSyncHeader((await client.reader.read(8)) as Buffer).id).toBe('OKAY');
    expect(phone.files.read('/storage/emulated/0/note.txt')?.data.toString()).toBe('hello');
    request('STAT', '/sdcard/note.txt');
    const stat = (await client.reader.read(16)) as Buffer;
    expect([stat.subarray(0, 4).toString(), stat.readUInt32LE(4), stat.readUInt32LE(8)]).toEqual(['STAT', 0o100660, 5]);
    request('RECV', '/sdcard/note.txt');
    expect(parseSyncHeader((await client.reader.read(8)) as Buffer)).toEqual({ id: 'DATA', value: 5 });
    expect(await client.text(5)).toBe('hello');
    expect(parseSyncHeader((await client.reader.read(8)) as Buffer).id).toBe('DONE');
    request('LIST', '/sdcard');
    const dent = (await client.reader.read(20)) as Buffer;
    expect(dent.subarray(0, 4).toString()).toBe('DENT');
    expect(await client.text(dent.readUInt32LE(16))).toBe('note.txt');
    expect(parseSyncHeader((await client.reader.read(20)) as Buffer).id).toBe('DONE');
    request('STAT', '/sdcard/none');
    expect(((await client.reader.read(16)) as Buffer).subarray(4).equals(Buffer.alloc(12))).toBe(true);
    client.socket.write(syncHeader('QUIT', 0));
    await client.closed;
    expect(phone.received.map((r) => r.command)).toEqual(['SEND /sdcard/note.txt,33188', 'STAT /sdcard/note.txt', 'RECV /sdcard/note.txt', 'LIST /sdcard', 'STAT /sdcard/none']);
  });

  it('attach refuses a second phone with the same serial and detach an unknown one', () => {
    server.attach({ serial: 'x' });
    expect(() => server.attach({ serial: 'x' })).toThrow(expect.objectContaining({ code: 'DUPLICATE_SERIAL' }));
    expect(() => server.detach('y')).toThrow(AdbServerError);
    expect(() => server.attach({ serial: 'bad serial' })).toThrow(RangeError);
  });
});
