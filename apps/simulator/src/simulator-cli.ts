/**
 * The simulator's command line (`mobileclaw-sim`, and `mobileclaw sim`): runs N simulated phones
 * against a gateway (or, with --adb-port, as adb devices of an ADB server of their own) until
 * SIGINT/SIGTERM.
 * Exit status: 0 after a signal, 1 when the gateway refuses a phone (e.g. UNAUTHORIZED) or the adb
 * port cannot be listened on, 2 for a usage error or a missing token.
 */
import { CliUsageError, parseCli, usage, type CliConfig } from './cli-config';
import { describeGatewayAddress } from '@mobileclaw/phone-link';
import { AdbHostServer, GatewayRefusedError, PhoneUi, SimulatedPhone } from '@mobileclaw/simulator';
import { replacedNotice } from './replaced-notice';

/** Serves the phones over the ADB host protocol; their serials are their device ids. */
function serveAdb(config: CliConfig, adb: { host: string; port: number }, name: string): void {
  const server = new AdbHostServer({ host: adb.host, port: adb.port });
  const screen = config.replay ? { replay: config.replay.recording, densityDpi: config.densityDpi } : { width: config.width, height: config.height, densityDpi: config.densityDpi };
  for (let i = 1; i <= config.devices; i++) server.attach({ serial: `${config.prefix}${i}`, ui: new PhoneUi(screen) });
  if (config.verbose) server.on('request', (service: string) => process.stderr.write(`adb request: ${service}\n`));
  server.on('kill', () => process.stderr.write('an adb client sent kill-server; still serving (stop this process to stop the server)\n'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close());
  server.listen().then(
    ({ host, port }) => {
      const showing = config.replay ? `, replaying ${config.replay.file} (${config.width}x${config.height})` : '';
      process.stdout.write(`serving ${config.devices} simulated phone(s) over adb at ${host}:${port}${showing}: ${server.devices.map((d) => d.serial).join(', ')}\n`);
      process.stdout.write(`try: adb -L tcp:${host}:${port} devices -l\n`);
    },
    (err: Error) => {
      process.stderr.write(`${name}: cannot serve adb on ${adb.host}:${adb.port}: ${err.message}\n`);
      process.exitCode = 1;
    },
  );
}

function run(config: CliConfig, name: string): void {
  if (config.adb) return serveAdb(config, config.adb, name);
  const addresses = config.gateways.map(describeGatewayAddress).join(', ');
  let stopping = false;
  const log = config.verbose ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
  const phones = Array.from({ length: config.devices }, (_, i) => {
    const phone = new SimulatedPhone({
      gateways: config.gateways,
      token: config.token,
      deviceId: `${config.prefix}${i + 1}`,
      screen: { width: config.width, height: config.height, densityDpi: config.densityDpi },
      ...(config.replay ? { replay: config.replay.recording } : {}),
      reconnect: true,
      faults: { latencyMs: config.latencyMs },
      ...(log ? { log } : {}),
    });
    // Replaced by another phone with the same id: one explanation instead of the plain disconnect line.
    let replaced = false;
    // The address in use: with several gateways the one this phone got through to, or just lost.
    phone.on('welcome', (welcome) => process.stdout.write(`${phone.deviceId} connected to ${phone.gatewayAddress} (session ${welcome.sessionId})\n`));
    let replacedAt = '';
    phone.on('replaced', () => {
      replaced = true;
      replacedAt = phone.gatewayAddress;
    });
    phone.on('close', () => {
      if (!stopping && !replaced) process.stderr.write(`${phone.deviceId} disconnected from ${phone.gatewayAddress}; reconnecting\n`);
    });
    phone.on('reconnecting', (delayMs) => {
      if (replaced && !stopping) process.stderr.write(replacedNotice(phone.deviceId, replacedAt, delayMs));
      replaced = false;
    });
    return phone;
  });

  const stopAll = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await Promise.all(phones.map((p) => p.stop()));
    process.exitCode = code;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll(0));

  const showing = config.replay ? `, replaying ${config.replay.file} (${config.width}x${config.height})` : '';
  process.stdout.write(`starting ${config.devices} simulated phone(s) for ${addresses}${showing}\n`);
  for (const phone of phones) {
    phone.start().catch((err: Error) => {
      if (stopping) return;
      process.stderr.write(`${phone.deviceId}: ${err.message}\n`);
      if (err instanceof GatewayRefusedError) void stopAll(1);
    });
  }
}

/**
 * Runs the simulator's command line: `argv` are its arguments (`--devices 3`, …), `name` the command
 * that messages and the usage text call it by. Sets `process.exitCode` (see above); the phones run
 * until SIGINT or SIGTERM.
 */
export function runSimulatorCli(argv: string[], env: NodeJS.ProcessEnv, name = 'mobileclaw-sim'): void {
  let config: CliConfig | 'help';
  try {
    config = parseCli(argv, env);
  } catch (err) {
    if (!(err instanceof CliUsageError)) throw err;
    process.stderr.write(err.showUsage ? `${name}: ${err.message}\n\n${usage(name)}` : `${name}: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (config === 'help') {
    process.stdout.write(usage(name));
    return;
  }
  run(config, name);
}
