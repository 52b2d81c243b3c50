// What the benchmarks share: integer flags, failing with the bench's name, latency figures, a
// gateway on free ports with a throw-away data directory, and waiting for a phone to be online.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Parses `--flag N` pairs into a copy of `defaults` (every value a positive integer; `--warmup` may be 0).
 * @param flags flag → key of `defaults`, e.g. `{ '--taps': 'taps' }`.
 * @throws Error naming an unknown flag or a value that is not such an integer.
 */
export function parseIntegerFlags(argv, defaults, flags) {
  const args = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const key = flags[argv[i]];
    if (key === undefined) throw new Error(`unknown argument ${argv[i]} (known: ${Object.keys(flags).join(', ')})`);
    const n = Number(argv[i + 1]);
    if (!Number.isInteger(n) || n < (key === 'warmup' ? 0 : 1)) throw new Error(`${argv[i]} must be a positive integer, got ${argv[i + 1]}`);
    args[key] = n;
  }
  return args;
}

/** A `fail(message)` that writes `<bench>: <message>` to stderr and exits 1. */
export function failureOf(bench) {
  return (message) => {
    process.stderr.write(`${bench}: ${message}\n`);
    process.exit(1);
  };
}

/** A duration in ms rounded to µs. */
export const round3 = (ms) => Math.round(ms * 1000) / 1000;

/** p50, p99 (as gateway-bench.mjs: the sorted sample at ⌊n/2⌋ and ⌊0.99 n⌋) and mean of latencies in ms. */
export function latencyStats(samples) {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { p50_ms: round3(sorted[Math.floor(sorted.length / 2)]), p99_ms: round3(sorted[Math.floor(sorted.length * 0.99)]), mean_ms: round3(mean) };
}

/**
 * A gateway for a benchmark: free HTTP and device ports, silent logs, a fresh device token and a
 * temporary data directory named after `bench`; `env` adds or overrides variables.
 * @param startGateway the gateway's `startGateway` as the bench loads it (built code or sources).
 * @returns the running gateway and `close()`, which stops it and removes the data directory.
 */
export async function startBenchGateway(startGateway, bench, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `mobileclaw-${bench}-`));
  try {
    const gateway = await startGateway({
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_DEVICE_TOKEN: randomBytes(24).toString('base64url'),
      ...env,
    });
    const close = async () => {
      try {
        await gateway.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    };
    return { gateway, base: `http://127.0.0.1:${gateway.httpPort}`, close };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Resolves once `GET <base>/api/devices` lists `deviceId` as not offline (asked every 10 ms).
 * @throws Error after 500 asks without it.
 */
export async function waitOnline(base, deviceId) {
  for (let i = 0; i < 500; i++) {
    const { devices } = await (await fetch(`${base}/api/devices`)).json();
    if (devices.some((d) => d.deviceId === deviceId && d.status !== 'offline')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${deviceId} never came online`);
}
