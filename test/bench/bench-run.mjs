// What the MCP and ADB benchmarks share: integer flags, failing with the bench's name, latency figures.

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
