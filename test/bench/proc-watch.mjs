#!/usr/bin/env node
// Watches one process from outside (Linux /proc) until it exits and prints one JSON line with its
// peak RSS (VmHWM) and CPU time, so that gateways that do not report their own memory (the shared
// reference gateways) are measured the same way as ours.
//
//   node test/bench/proc-watch.mjs --pid 1234 [--label x]
//   node test/bench/proc-watch.mjs --match 'NettyRefGateway --port 7400' [--wait-seconds 60]
//   -> {"label":"x","pid":1234,"peak_rss_mb":123.4,"cpu_user_s":1.2,"cpu_sys_s":0.3}
//
// With --match it waits for a process whose command line contains the string (not itself).
import fs from 'node:fs';

const args = {};
for (let i = 2; i + 1 < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const intervalMs = Number(args['interval-ms'] ?? 50);
const waitSeconds = Number(args['wait-seconds'] ?? 120);
const CLK_TCK = 100; // Linux USER_HZ

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function findByCmdline(needle) {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(needle)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function sample(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    if (/^State:\s+[ZX]/m.test(status)) return undefined; // exited, not yet reaped
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    // Fields after the ")" that closes the command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { hwm, utime: Number(fields[11]) / CLK_TCK, stime: Number(fields[12]) / CLK_TCK };
  } catch {
    return undefined;
  }
}

let pid = args.pid ? Number(args.pid) : undefined;
if (pid === undefined) {
  if (!args.match) {
    process.stderr.write('proc-watch: --pid or --match required\n');
    process.exit(2);
  }
  const until = Date.now() + waitSeconds * 1000;
  while ((pid = findByCmdline(args.match)) === undefined) {
    if (Date.now() > until) {
      process.stderr.write(`proc-watch: no process matching ${JSON.stringify(args.match)}\n`);
      process.exit(1);
    }
    await sleep(20);
  }
}
// VmHWM only grows, but keep the largest seen anyway (a sample taken while the process is being
// exec'd or torn down can read 0).
let last = sample(pid);
let peak = last?.hwm ?? 0;
for (;;) {
  await sleep(intervalMs);
  const s = sample(pid);
  if (s === undefined) break;
  last = s;
  if (s.hwm > peak) peak = s.hwm;
}
const out = { label: args.label, pid, peak_rss_mb: peak > 0 ? +(peak / 1e6).toFixed(1) : null, cpu_user_s: last?.utime ?? null, cpu_sys_s: last?.stime ?? null };
process.stdout.write(JSON.stringify(out) + '\n');
