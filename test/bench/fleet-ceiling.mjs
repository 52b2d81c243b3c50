#!/usr/bin/env node
// The ceiling a phone fleet imposes on any gateway on this machine: a "gateway" that does no work at
// all (it never parses a reply, it only counts '\n' bytes; phones answer in order, so the k-th line
// of a phone answers its k-th action). Driven like the others: N requests, C in flight, round-robin.
// If a real gateway is close to this figure, the fleet, not the gateway, is the bottleneck.
//
//   node test/bench/fleet-ceiling.mjs --port 7430 --devices 10 --requests 2000 --concurrency 8 --command screenshot &
//   node ../shared/bench/phone-fleet.mjs --port 7430 --devices 10
import net from 'node:net';

const a = {};
for (let i = 2; i + 1 < process.argv.length; i += 2) a[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const port = Number(a.port ?? 7430);
const want = Number(a.devices ?? 10);
const n = Number(a.requests ?? 2000);
const conc = Number(a.concurrency ?? 8);
const command = a.command ?? 'screenshot';
const maxSeconds = Number(a['max-seconds'] ?? 300);
setTimeout(() => process.exit(2), maxSeconds * 1000).unref();

const phones = [];
net
  .createServer((sock) => {
    sock.setNoDelay(true);
    const phone = { sock, waiting: [], hello: false };
    sock.on('data', (chunk) => {
      let at = -1;
      while ((at = chunk.indexOf(10, at + 1)) >= 0) {
        if (!phone.hello) {
          phone.hello = true;
          phones.push(phone);
          sock.write('{"type":"welcome","sessionId":"s","heartbeatIntervalMs":15000,"maxFrameBytes":16777216}\n');
          continue;
        }
        const done = phone.waiting.shift();
        if (done) done();
      }
    });
    sock.on('error', () => {});
  })
  .listen(port, '127.0.0.1');

let seq = 0;
const action = command === 'click' ? ',"command":"click","x":540,"y":1200}\n' : ',"command":"screenshot"}\n';
function send(phone) {
  return new Promise((resolve) => {
    phone.waiting.push(resolve);
    phone.sock.write(`{"type":"action","requestId":"${++seq}"${action}`);
  });
}

while (phones.length < want) await new Promise((r) => setTimeout(r, 20));
const lat = new Float64Array(n);
let next = 0;
const t0 = performance.now();
async function worker() {
  for (let i = next++; i < n; i = next++) {
    const s = performance.now();
    await send(phones[i % phones.length]);
    lat[i] = performance.now() - s;
  }
}
await Promise.all(Array.from({ length: conc }, worker));
const secs = (performance.now() - t0) / 1000;
lat.sort();
console.log(
  JSON.stringify({
    gateway: 'fleet-ceiling',
    command,
    devices: phones.length,
    requests: n,
    concurrency: conc,
    throughput_per_s: +(n / secs).toFixed(1),
    p50_ms: +lat[Math.floor(n / 2)].toFixed(3),
    p99_ms: +lat[Math.floor(n * 0.99)].toFixed(3),
  }),
);
process.exit(0);
