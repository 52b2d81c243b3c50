/**
 * An ADB server (the host side of adb, normally on tcp:5037) whose devices are simulated phones.
 * It speaks the smart-socket protocol to adb clients — Debian's `adb` 1.0.41, `@devicefarmer/adbkit`
 * — and runs their local services (`shell:`, `exec:`, `sync:`) on the phones directly, with no
 * adbd in between.
 *
 * Host services: `version`, `kill`, `devices`, `devices-l`, `track-devices`, `track-devices-l`,
 * `transport:`/`transport-any`/`transport-usb`/`transport-local`/`transport-id:`, their `tport:`
 * forms (which answer the 8-byte transport id), `list-forward` (always empty), and per device (with
 * `host:`, `host-serial:S:`, `host-transport-id:N:`, `host-usb:`, `host-local:`): `features`,
 * `get-state`, `get-serialno`, `get-devpath`, `wait-for-TRANSPORT-STATE`. The phones are USB
 * devices to adb (`-d` finds them, `-e` does not).
 */
import { EventEmitter } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';
import { AdbDevice, type AdbDeviceOptions } from './adb-device';
import { ByteReader } from './byte-reader';
import { AdbProtocolError, fail, hex4, lengthPrefixed, okay, parseHex4 } from './smart-socket';
import { MODE_DIRECTORY, MODE_FILE, parseSyncHeader, SYNC_DATA_MAX, SYNC_MAX_PATH, syncDent, syncFail, syncFile, syncHeader, syncListDone, syncStat } from './sync-protocol';

/** The ADB server protocol version Debian's adb 1.0.41 expects; a client kills a server reporting another. */
export const ADB_SERVER_VERSION = 41;

export interface AdbHostServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port; 0 (the default) picks a free one. adb's own default is 5037. */
  port?: number;
  /** Version answered to `host:version`. Default {@link ADB_SERVER_VERSION}. */
  version?: number;
  /**
   * Transport features answered to `features` (they decide which protocols a client uses). Default
   * none: this server implements the raw `shell:` service and sync v1, and no `shell_v2`, `cmd`,
   * `stat_v2` or `ls_v2`.
   */
  features?: readonly string[];
}

/** A misuse of the server's own API (not of the adb protocol). */
export class AdbServerError extends Error {
  constructor(
    readonly code: 'DUPLICATE_SERIAL' | 'UNKNOWN_SERIAL' | 'NOT_LISTENING',
    message: string,
  ) {
    super(message);
    this.name = 'AdbServerError';
  }
}

/** Which device a host request is about. */
type Target = { kind: 'any' | 'usb' | 'local' } | { kind: 'serial'; serial: string } | { kind: 'id'; id: number };

type Acquired = { device: AdbDevice } | { error: string; ambiguous?: boolean };

/** What adb prints for an unauthorized device (this server has no vendor keys). */
const UNAUTHORIZED_MESSAGE =
  "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.";

/** adbd's answer when it has no such service, or refuses one. */
const SERVICE_CLOSED = 'closed';

/**
 * Events: `request` (the service string) for every smart-socket request, host or local; `kill`
 * when a client sends `host:kill` (the server answers OKAY and keeps serving, so that the client's
 * next command finds it instead of starting a real adb server on the port).
 */
export class AdbHostServer extends EventEmitter {
  private readonly server: net.Server;
  private readonly options: Required<AdbHostServerOptions>;
  private readonly attached = new Map<string, { device: AdbDevice; transportId: number; onState: () => void }>();
  private readonly sockets = new Set<Socket>();
  /** Sockets running a local service on a device, closed when it is unplugged or leaves `device`. */
  private readonly serviceSockets = new Map<AdbDevice, Set<Socket>>();
  /** Called on every change of the device list or a state: track-devices pushes and wait-for checks. */
  private readonly watchers = new Set<() => void>();
  private nextTransportId = 1;
  private listening = false;

  constructor(options: AdbHostServerOptions = {}) {
    super();
    this.options = { host: options.host ?? '127.0.0.1', port: options.port ?? 0, version: options.version ?? ADB_SERVER_VERSION, features: options.features ?? [] };
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
  }

  /** Starts listening; resolves with the address (the port chosen when 0 was asked). Rejects with the listen error (e.g. EADDRINUSE). */
  listen(): Promise<{ host: string; port: number }> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        this.listening = true;
        resolve({ host: this.options.host, port: this.port });
      });
    });
  }

  /** The TCP port listened on. @throws AdbServerError NOT_LISTENING before {@link listen} resolved. */
  get port(): number {
    const address = this.server.address() as AddressInfo | null;
    if (!address) throw new AdbServerError('NOT_LISTENING', 'the ADB server is not listening');
    return address.port;
  }

  /** Attached devices, in the order `adb devices` lists them. */
  get devices(): AdbDevice[] {
    return [...this.attached.values()].map((entry) => entry.device);
  }

  device(serial: string): AdbDevice | undefined {
    return this.attached.get(serial)?.device;
  }

  /** The transport id adb gave the attached device (`transport_id:` in `devices -l`), or undefined. */
  transportId(serial: string): number | undefined {
    return this.attached.get(serial)?.transportId;
  }

  /**
   * Plugs a phone in (a new {@link AdbDevice} from options, or one made before, e.g. re-attached
   * after {@link detach}); it gets the next transport id and track-devices clients see it.
   * @throws AdbServerError DUPLICATE_SERIAL when a device with that serial is attached; RangeError for bad options.
   */
  attach(device: AdbDevice | AdbDeviceOptions): AdbDevice {
    const phone = device instanceof AdbDevice ? device : new AdbDevice(device);
    if (this.attached.has(phone.serial)) throw new AdbServerError('DUPLICATE_SERIAL', `a device with serial ${JSON.stringify(phone.serial)} is already attached`);
    const onState = (): void => {
      if (phone.state !== 'device') this.dropServices(phone);
      this.changed();
    };
    phone.on('state', onState);
    this.attached.set(phone.serial, { device: phone, transportId: this.nextTransportId++, onState });
    this.changed();
    return phone;
  }

  /** Unplugs a phone: its open services close and track-devices clients see it go. @throws AdbServerError UNKNOWN_SERIAL. */
  detach(serial: string): AdbDevice {
    const entry = this.attached.get(serial);
    if (!entry) throw new AdbServerError('UNKNOWN_SERIAL', `no device with serial ${JSON.stringify(serial)} is attached`);
    entry.device.off('state', entry.onState);
    this.attached.delete(serial);
    this.dropServices(entry.device);
    this.changed();
    return entry.device;
  }

  /** Stops listening and closes every connection (hanging services included). */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (!this.listening) return;
    this.listening = false;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private changed(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  private dropServices(device: AdbDevice): void {
    for (const socket of this.serviceSockets.get(device) ?? []) socket.destroy();
    this.serviceSockets.delete(device);
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    this.serve(socket).catch((err: unknown) => {
      // A framing error or a failure inside a service ends only this connection, as in adb.
      if (!(err instanceof AdbProtocolError)) this.emit('error', err);
      socket.destroy();
    });
  }

  private async serve(socket: Socket): Promise<void> {
    const reader = new ByteReader(socket);
    let transport: AdbDevice | null = null;
    for (;;) {
      const request = await readRequest(reader);
      if (request === null) {
        socket.end();
        return;
      }
      this.emit('request', request);
      if (transport) return this.local(socket, reader, transport, request);
      const switched = this.host(socket, request);
      if (switched === null) return;
      transport = switched;
    }
  }

  /** Answers a host request; returns the device when the connection switched to its transport, else null (answered). */
  private host(socket: Socket, request: string): AdbDevice | null {
    const global = this.global(socket, request);
    if (global !== undefined) return global;
    const parsed = this.splitTarget(request);
    if (!parsed) {
      socket.end(fail('unknown host service'));
      return null;
    }
    const { target, service } = parsed;
    const answer = (value: string): void => void socket.end(okay(value));
    if (service === 'features' || service === 'host-features') {
      const acquired = this.acquire(target, true);
      if ('error' in acquired) socket.end(fail(acquired.error));
      else answer(this.options.features.join(','));
      return null;
    }
    if (service === 'get-state' || service === 'get-serialno' || service === 'get-devpath') {
      const acquired = this.acquire(target, false);
      if ('error' in acquired) socket.end(fail(acquired.error));
      else if (service === 'get-state') answer(acquired.device.state);
      else if (service === 'get-serialno') answer(acquired.device.serial);
      else answer(this.devpath(acquired.device));
      return null;
    }
    const wait = /^wait-for-(usb|local|any)-(device|recovery|rescue|sideload|bootloader|any|disconnect)$/.exec(service);
    if (wait) {
      this.waitFor(socket, target.kind === 'any' && wait[1] !== 'any' ? { kind: wait[1] as 'usb' | 'local' } : target, wait[2] as string);
      return null;
    }
    socket.end(fail('unknown host service'));
    return null;
  }

  /** `host:` services that are not about one device; undefined when `request` is none of them. */
  private global(socket: Socket, request: string): AdbDevice | null | undefined {
    switch (request) {
      case 'host:version':
        socket.end(okay(hex4(this.options.version)));
        return null;
      case 'host:kill':
        socket.end(okay());
        this.emit('kill');
        return null;
      case 'host:devices':
      case 'host:devices-l':
        socket.end(okay(this.deviceList(request.endsWith('-l'))));
        return null;
      case 'host:track-devices':
      case 'host:track-devices-l':
        this.track(socket, request.endsWith('-l'));
        return null;
      case 'host:list-forward':
        socket.end(okay(''));
        return null;
    }
    const transport = /^host:(?:transport([-:].*)|tport:(.*))$/s.exec(request);
    if (!transport) return undefined;
    const form = transport[1] === undefined ? 'tport' : 'transport';
    const target = transportTarget(form, transport[1] ?? transport[2] ?? '');
    if (!target) {
      socket.end(fail('unknown host service'));
      return null;
    }
    const acquired = this.acquire(target, true);
    if ('error' in acquired) {
      socket.end(fail(acquired.error));
      return null;
    }
    if (form === 'tport') {
      const id = Buffer.alloc(8);
      id.writeBigUInt64LE(BigInt(this.transportId(acquired.device.serial) ?? 0));
      socket.write(Buffer.concat([okay(), id]));
    } else {
      socket.write(okay());
    }
    return acquired.device;
  }

  /** `host-serial:S:REQ`, `host-transport-id:N:REQ`, `host-usb:REQ`, `host-local:REQ`, `host:REQ`. */
  private splitTarget(request: string): { target: Target; service: string } | null {
    if (request.startsWith('host-serial:')) {
      const rest = request.slice('host-serial:'.length);
      // A serial may hold colons (`10.0.0.2:5555`): prefer an attached serial, then adb's own rule.
      const known = [...this.attached.keys()].filter((s) => rest.startsWith(`${s}:`)).sort((a, b) => b.length - a.length)[0];
      const serial = known ?? /^((?:tcp:|udp:)?[^:]*(?::\d+(?=:))?)/.exec(rest)?.[1] ?? '';
      return { target: { kind: 'serial', serial }, service: rest.slice(serial.length + 1) };
    }
    const byId = /^host-transport-id:(\d+):(.*)$/.exec(request);
    if (byId) return { target: { kind: 'id', id: Number(byId[1]) }, service: byId[2] as string };
    for (const kind of ['usb', 'local'] as const) if (request.startsWith(`host-${kind}:`)) return { target: { kind }, service: request.slice(kind.length + 6) };
    if (request.startsWith('host:')) return { target: { kind: 'any' }, service: request.slice(5) };
    return null;
  }

  /** Finds the device a request is about; with `active`, it must be in state `device` (adb's messages otherwise). */
  private acquire(target: Target, active: boolean): Acquired {
    const devices = this.devices;
    let device: AdbDevice | undefined;
    if (target.kind === 'serial') {
      device = devices.find((d) => d.serial === target.serial);
      if (!device) return { error: `device '${target.serial}' not found` };
    } else if (target.kind === 'id') {
      device = devices.find((d) => this.transportId(d.serial) === target.id);
      if (!device) return { error: `no device with transport id '${target.id}'` };
    } else {
      // Every simulated phone is a USB device: `-e` (local) finds none.
      const candidates = target.kind === 'local' ? [] : devices;
      const what = target.kind === 'any' ? 'devices/emulators' : target.kind === 'usb' ? 'devices' : 'emulators';
      if (candidates.length === 0) return { error: `no ${what} found` };
      if (candidates.length > 1) return { error: `more than one ${target.kind === 'any' ? 'device/emulator' : target.kind === 'usb' ? 'device' : 'emulator'}`, ambiguous: true };
      device = candidates[0] as AdbDevice;
    }
    if (active && device.state === 'unauthorized') return { error: UNAUTHORIZED_MESSAGE };
    if (active && device.state === 'offline') return { error: 'device offline' };
    return { device };
  }

  private devpath(device: AdbDevice): string {
    return `usb:1-${this.transportId(device.serial) ?? 0}`;
  }

  /** `host:devices` text: `serial\tstate` lines; with `long`, adb's `%-22s %s` columns, the device path, product, model, device and transport id. */
  private deviceList(long: boolean): string {
    return this.devices
      .map((d) => {
        if (!long) return `${d.serial}\t${d.state}\n`;
        const info = d.state === 'device' ? ` product:${d.properties['ro.product.name'] ?? ''} model:${(d.properties['ro.product.model'] ?? '').replace(/[^A-Za-z0-9_.-]/g, '_')} device:${d.properties['ro.product.device'] ?? ''}` : '';
        return `${d.serial.padEnd(22)} ${d.state} ${this.devpath(d)}${info} transport_id:${this.transportId(d.serial) ?? 0}\n`;
      })
      .join('');
  }

  /** `host:track-devices[-l]`: OKAY, the list now, and the list again after every change, until the client leaves. */
  private track(socket: Socket, long: boolean): void {
    let last = this.deviceList(long);
    socket.write(Buffer.concat([okay(), lengthPrefixed(last)]));
    const push = (): void => {
      const list = this.deviceList(long);
      if (list === last) return;
      last = list;
      socket.write(lengthPrefixed(list));
    };
    this.watchers.add(push);
    socket.on('close', () => this.watchers.delete(push));
    socket.on('end', () => socket.end());
  }

  /** `wait-for-T-STATE`: OKAY now, then OKAY when a matching device is in STATE (FAIL when ambiguous), then close. */
  private waitFor(socket: Socket, target: Target, state: string): void {
    socket.write(okay());
    const check = (): void => {
      const acquired = this.acquire(target, false);
      let done = false;
      if ('error' in acquired) {
        if (acquired.ambiguous) {
          socket.end(fail(acquired.error));
          done = true;
        } else if (state === 'disconnect') {
          socket.end(okay());
          done = true;
        }
      } else if (state === 'any' || acquired.device.state === state) {
        socket.end(okay());
        done = true;
      }
      if (done) this.watchers.delete(check);
    };
    this.watchers.add(check);
    socket.on('close', () => this.watchers.delete(check));
    check();
  }

  /** A local service on `device`, after the transport switch. */
  private async local(socket: Socket, reader: ByteReader, device: AdbDevice, request: string): Promise<void> {
    const services = this.serviceSockets.get(device) ?? new Set<Socket>();
    this.serviceSockets.set(device, services);
    services.add(socket);
    socket.on('close', () => services.delete(socket));
    const shell = /^(shell|exec):(.*)$/s.exec(request);
    if (shell) return this.shell(socket, device, shell[1] as 'shell' | 'exec', shell[2] as string);
    if (request === 'sync:') {
      socket.write(okay());
      return this.sync(socket, reader, device);
    }
    socket.end(fail(SERVICE_CLOSED));
  }

  private async shell(socket: Socket, device: AdbDevice, service: 'shell' | 'exec', command: string): Promise<void> {
    device.record({ service, command });
    if (command.trim() === '') {
      socket.end(fail('interactive shells are not simulated; pass a command'));
      return;
    }
    socket.write(okay());
    // A hanging command: the service is open and never says anything more.
    if (device.shouldHang(command)) return;
    const terminal = { write: (data: string | Buffer) => void (socket.destroyed || socket.write(data)) };
    await device.runShell(command, terminal);
    socket.end();
  }

  /** The sync protocol: STAT, LIST, RECV, SEND, QUIT (v1 only, as advertised). */
  private async sync(socket: Socket, reader: ByteReader, device: AdbDevice): Promise<void> {
    for (;;) {
      const header = await reader.read(8);
      if (header === null) return void socket.end();
      const { id, value } = parseSyncHeader(header);
      if (id === 'QUIT') return void socket.end();
      if (!['STAT', 'LIST', 'RECV', 'SEND'].includes(id) || value > SYNC_MAX_PATH) {
        socket.end(syncFail(value > SYNC_MAX_PATH ? 'path too long' : `unknown command ${JSON.stringify(id)}`));
        return;
      }
      const pathBytes = await reader.read(value);
      if (pathBytes === null) return void socket.end();
      const path = pathBytes.toString('utf8');
      device.record({ service: 'sync', command: `${id} ${path}` });
      if (device.shouldHang(`${id} ${path}`)) return;
      const files = device.files;
      if (id === 'STAT') {
        const file = files.read(path);
        socket.write(file ? syncStat(MODE_FILE, file.data.length, file.mtimeS) : files.isDirectory(path) ? syncStat(MODE_DIRECTORY, 4096, 0) : syncStat(0, 0, 0));
      } else if (id === 'LIST') {
        const entries = files.isDirectory(path) ? files.list(path) : [];
        socket.write(Buffer.concat([...entries.map((e) => (e.file ? syncDent(MODE_FILE, e.file.data.length, e.file.mtimeS, e.name) : syncDent(MODE_DIRECTORY, 4096, 0, e.name))), syncListDone()]));
      } else if (id === 'RECV') {
        const file = files.read(path);
        if (file) socket.write(syncFile(file.data));
        else socket.write(syncFail(`open failed: ${files.isDirectory(path) ? 'Is a directory' : 'No such file or directory'}`));
      } else if (!(await this.receiveFile(socket, reader, device, path))) {
        return;
      }
    }
  }

  /** SEND `path,mode`: DATA chunks then DONE; answers OKAY, or FAIL when the path is not writable. False when the connection ended. */
  private async receiveFile(socket: Socket, reader: ByteReader, device: AdbDevice, spec: string): Promise<boolean> {
    const comma = spec.lastIndexOf(',');
    const path = comma < 0 ? spec : spec.slice(0, comma);
    const chunks: Buffer[] = [];
    for (;;) {
      const header = await reader.read(8);
      if (header === null) return false;
      const { id, value } = parseSyncHeader(header);
      if (id === 'DONE') break;
      if (id !== 'DATA' || value > SYNC_DATA_MAX) {
        socket.end(syncFail(id === 'DATA' ? 'data chunk too large' : `expected DATA or DONE, got ${JSON.stringify(id)}`));
        return false;
      }
      const chunk = await reader.read(value);
      if (chunk === null) return false;
      chunks.push(chunk);
    }
    if (!device.files.writable(path)) {
      socket.write(syncFail(`couldn't create file: Permission denied`));
      return true;
    }
    device.files.write(path, Buffer.concat(chunks));
    socket.write(syncHeader('OKAY', 0));
    return true;
  }
}

/** The target of `host:transport…` / `host:tport:…`, or null when the form is unknown. */
function transportTarget(form: 'transport' | 'tport', spec: string): Target | null {
  if (form === 'transport') {
    if (spec.startsWith(':')) return { kind: 'serial', serial: spec.slice(1) };
    if (spec === '-any') return { kind: 'any' };
    if (spec === '-usb') return { kind: 'usb' };
    if (spec === '-local') return { kind: 'local' };
    const id = /^-id:(\d+)$/.exec(spec);
    return id ? { kind: 'id', id: Number(id[1]) } : null;
  }
  if (spec.startsWith('serial:')) return { kind: 'serial', serial: spec.slice('serial:'.length) };
  if (spec === 'any' || spec === 'usb' || spec === 'local') return { kind: spec };
  const id = /^transport-id:(\d+)$/.exec(spec);
  return id ? { kind: 'id', id: Number(id[1]) } : null;
}

/** One smart-socket request, or null when the client closed first. @throws AdbProtocolError for a bad length prefix. */
async function readRequest(reader: ByteReader): Promise<string | null> {
  const prefix = await reader.read(4);
  if (prefix === null) return null;
  const body = await reader.read(parseHex4(prefix));
  return body === null ? null : body.toString('utf8');
}
