#!/usr/bin/env node
// MobileClaw's own fleet of simulated phones for benchmarks: N phones in one process, plain node:net,
// no dependencies. Unlike ../shared/bench/phone-fleet.mjs it is protocol-correct (wire protocol v1,
// docs/protocol.md): a full hello, pong carrying the ping's ts, screenshot data with frameId.
// Every action is answered at once.
//
//   node test/bench/phone-fleet.mjs --port 7397 --devices 50 [--host 127.0.0.1] [--token T]
//        [--prefix bench-] [--shot-bytes 1500000] [--connect-burst 256]
//
// Prints "ready N" once N welcomes arrived, then runs until killed, or exits when the gateway closed
// every connection after they were all up. Connections are opened at most --connect-burst at a time
// (handshakes in progress), so that 10 000 phones do not overflow the gateway's accept backlog.
import net from 'node:net';

const args = {};
for (let i = 2; i < process.argv.length; i += 1) {
  const a = process.argv[i];
  if (!a.startsWith('--')) continue;
  const next = process.argv[i + 1];
  if (next === undefined || next.startsWith('--')) args[a.slice(2)] = 'true';
  else {
    args[a.slice(2)] = next;
    i += 1;
  }
}
const host = args.host ?? '127.0.0.1';
const port = Number(args.port ?? 7397);
const devices = Number(args.devices ?? 1);
const token = args.token ?? 'bench-token';
const prefix = args.prefix ?? 'bench-';
const shotBytes = Number(args['shot-bytes'] ?? 1_500_000);
const burst = Math.max(1, Number(args['connect-burst'] ?? 256));

// A screenshot reply is written as three pieces: the JSON head (with the requestId), the base64
// payload (one Buffer made once, never re-encoded) and the tail. Same bytes as JSON.stringify.
const SHOT_B64 = Buffer.from(Buffer.alloc(Math.ceil((shotBytes * 3) / 4), 7).toString('base64').slice(0, shotBytes), 'latin1');
let frameSeq = 0;
const SCREEN = '{"width":1080,"height":2400,"densityDpi":420,"rotation":0}';

function respond(sock, requestId, dataJson) {
  sock.write(`{"type":"response","requestId":${JSON.stringify(requestId)},"status":"success","data":${dataJson}}\n`);
}

function answer(sock, msg) {
  switch (msg.type) {
    case 'ping':
      sock.write(typeof msg.ts === 'number' ? `{"type":"pong","ts":${msg.ts}}\n` : '{"type":"pong"}\n');
      return;
    case 'action':
      break;
    default:
      return; // welcome (again), cancel, error: nothing to answer
  }
  const requestId = msg.requestId;
  switch (msg.command) {
    case 'screenshot': {
      frameSeq += 1;
      sock.cork();
      sock.write(
        `{"type":"response","requestId":${JSON.stringify(requestId)},"status":"success","data":{"mime":"image/png","width":1080,"height":2400,"frameId":"f${frameSeq}","screen":${SCREEN},"base64":"`,
      );
      sock.write(SHOT_B64);
      sock.write('"}}\n');
      sock.uncork();
      return;
    }
    case 'click':
      return respond(sock, requestId, '{"hit":null}');
    case 'ui_tree':
      frameSeq += 1;
      return respond(
        sock,
        requestId,
        `{"frameId":"f${frameSeq}","screen":${SCREEN},"nodes":[{"id":"1","class":"android.widget.FrameLayout","text":"","desc":"","resourceId":"","package":"bench","bounds":[0,0,1080,2400],"clickable":false,"focusable":false,"editable":false,"checkable":false,"checked":false,"enabled":true,"focused":false,"scrollable":false,"selected":false,"children":[]}]}`,
      );
    default:
      return respond(sock, requestId, '{}');
  }
}

let welcomed = 0;
let handshaking = 0;
let started = 0;
let open = 0;
let announced = false;

function connect(i) {
  started += 1;
  handshaking += 1;
  open += 1;
  const sock = net.connect({ host, port });
  sock.setNoDelay(true);
  let parts = [];
  let isWelcomed = false;
  let inHandshake = true;
  const endHandshake = () => {
    if (!inHandshake) return;
    inHandshake = false;
    handshaking -= 1;
    pump();
  };
  sock.on('connect', () => {
    const hello = {
      type: 'hello',
      protocolVersion: 1,
      deviceId: `${prefix}${i}`,
      token,
      device: { model: 'FleetSim', manufacturer: 'MobileClaw', android: '14', screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } },
      capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
      client: { name: 'mobileclaw-bench-fleet', version: '1' },
    };
    sock.write(JSON.stringify(hello) + '\n');
  });
  sock.on('data', (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      let line;
      if (parts.length === 0) line = chunk.subarray(start, nl);
      else {
        parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(parts);
        parts = [];
      }
      start = nl + 1;
      let end = line.length;
      if (end > 0 && line[end - 1] === 13) end -= 1;
      if (end === 0) continue;
      let msg;
      try {
        msg = JSON.parse(line.toString('utf8', 0, end));
      } catch {
        continue;
      }
      if (!isWelcomed && msg.type === 'welcome') {
        isWelcomed = true;
        welcomed += 1;
        endHandshake();
        if (!announced && welcomed >= devices) {
          announced = true;
          process.stdout.write(`ready ${welcomed}\n`);
        }
        continue;
      }
      if (msg.type === 'error' && !isWelcomed) {
        process.stderr.write(`device ${i}: refused: ${msg.code} ${msg.message ?? ''}\n`);
        continue;
      }
      answer(sock, msg);
    }
    if (start < chunk.length) parts.push(start === 0 ? chunk : chunk.subarray(start));
  });
  sock.on('error', (e) => process.stderr.write(`device ${i}: ${e.message}\n`));
  sock.on('close', () => {
    endHandshake();
    open -= 1;
    if (open === 0 && started >= devices) process.exit(announced ? 0 : 1);
  });
}

function pump() {
  while (started < devices && handshaking < burst) connect(started);
}

pump();
