#!/usr/bin/env node
// MobileClaw's own fleet of simulated phones for benchmarks: N phones in one process, over plain
// node:net (one frame per line) or, with --url, over WebSocket (`ws`, one frame per text message).
// Unlike ../shared/bench/phone-fleet.mjs it is protocol-correct (wire protocol v1, docs/protocol.md):
// a full hello, pong carrying the ping's ts, screenshot data with frameId. Every action is answered at once.
//
//   node test/bench/phone-fleet.mjs --port 7397 --devices 50 [--host 127.0.0.1] [--token T]
//        [--prefix bench-] [--shot-bytes 1500000] [--connect-burst 256]
//   node test/bench/phone-fleet.mjs --url ws://127.0.0.1:3000/ws/device --devices 50 [--random-mask] [...]
//
// Over WebSocket a reply is one unfragmented text message, as a phone's WebSocket library sends it.
// Client frames are masked with an all-zero key, which `ws` skips on both ends: the fleet shares the
// machine's cores with the gateway and should spend none of them masking. --random-mask masks with a
// random key as RFC 6455 asks and a real phone does (the gateway then unmasks every reply; with
// bufferutil that is ~0.07 ms per 1.5 MB).
//
// Prints "ready N" once N welcomes arrived, then runs until killed, or exits when the gateway closed
// every connection after they were all up. Connections are opened at most --connect-burst at a time
// (handshakes in progress), so that 10 000 phones do not overflow the gateway's accept backlog.
import net from 'node:net';
import { WebSocket } from 'ws';

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
const url = args.url;
const randomMask = args['random-mask'] === 'true';
const zeroMask = (mask) => mask.fill(0);
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

/**
 * How a phone writes frames: `frame(text)` sends one whole frame; `pieces(head, payload, tail)` sends
 * one frame made of three parts (TCP: corked writes, never joined; WebSocket: one message).
 */
function lineWriter(sock) {
  return {
    frame: (text) => sock.write(text + '\n'),
    pieces(head, payload, tail) {
      sock.cork();
      sock.write(head);
      sock.write(payload);
      sock.write(tail + '\n');
      sock.uncork();
    },
  };
}

/** Room for a screenshot reply's JSON head in {@link messageWriter}'s buffer, in bytes. */
const HEAD_ROOM = 512;

/**
 * Over WebSocket a reply is one message, so its three parts must be one buffer. Each phone keeps one,
 * with the payload copied in once: a reply only writes its head, padded with JSON whitespace to a
 * fixed length, in front of it (the gateway sends a phone its next action only once it has read the
 * whole previous reply, so that reply has left the buffer by then).
 */
function messageWriter(ws) {
  let reply;
  return {
    frame: (text) => ws.send(text),
    pieces(head, payload, tail) {
      if (reply === undefined) {
        reply = Buffer.alloc(HEAD_ROOM + payload.length + tail.length);
        payload.copy(reply, HEAD_ROOM);
        reply.write(tail, HEAD_ROOM + payload.length, 'latin1');
      }
      const headBytes = Buffer.from(head);
      if (headBytes.length > HEAD_ROOM) throw new Error(`reply head of ${headBytes.length} bytes exceeds ${HEAD_ROOM}`);
      // `{` first, then spaces: JSON whitespace before the first key.
      reply.fill(0x20, 0, HEAD_ROOM - headBytes.length + 1);
      reply[0] = 0x7b;
      headBytes.copy(reply, HEAD_ROOM - headBytes.length + 1, 1);
      ws.send(reply, { binary: false });
    },
  };
}

function respond(out, requestId, dataJson) {
  out.frame(`{"type":"response","requestId":${JSON.stringify(requestId)},"status":"success","data":${dataJson}}`);
}

function answer(out, msg) {
  switch (msg.type) {
    case 'ping':
      out.frame(typeof msg.ts === 'number' ? `{"type":"pong","ts":${msg.ts}}` : '{"type":"pong"}');
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
      out.pieces(
        `{"type":"response","requestId":${JSON.stringify(requestId)},"status":"success","data":{"mime":"image/png","width":1080,"height":2400,"frameId":"f${frameSeq}","screen":${SCREEN},"base64":"`,
        SHOT_B64,
        '"}}',
      );
      return;
    }
    case 'click':
      return respond(out, requestId, '{"hit":null}');
    case 'ui_tree':
      frameSeq += 1;
      return respond(
        out,
        requestId,
        `{"frameId":"f${frameSeq}","screen":${SCREEN},"nodes":[{"id":"1","class":"android.widget.FrameLayout","text":"","desc":"","resourceId":"","package":"bench","bounds":[0,0,1080,2400],"clickable":false,"focusable":false,"editable":false,"checkable":false,"checked":false,"enabled":true,"focused":false,"scrollable":false,"selected":false,"children":[]}]}`,
      );
    default:
      return respond(out, requestId, '{}');
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
  let isWelcomed = false;
  let inHandshake = true;
  const endHandshake = () => {
    if (!inHandshake) return;
    inHandshake = false;
    handshaking -= 1;
    pump();
  };
  const hello = JSON.stringify({
    type: 'hello',
    protocolVersion: 1,
    deviceId: `${prefix}${i}`,
    token,
    device: { model: 'FleetSim', manufacturer: 'MobileClaw', android: '14', screen: { width: 1080, height: 2400, densityDpi: 420, rotation: 0 } },
    capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
    client: { name: 'mobileclaw-bench-fleet', version: '1' },
  });
  /** One frame from the gateway, as text. */
  const onFrame = (out, text) => {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!isWelcomed && msg.type === 'welcome') {
      isWelcomed = true;
      welcomed += 1;
      endHandshake();
      if (!announced && welcomed >= devices) {
        announced = true;
        process.stdout.write(`ready ${welcomed}\n`);
      }
      return;
    }
    if (msg.type === 'error' && !isWelcomed) {
      process.stderr.write(`device ${i}: refused: ${msg.code} ${msg.message ?? ''}\n`);
      return;
    }
    answer(out, msg);
  };
  const onError = (e) => process.stderr.write(`device ${i}: ${e.message}\n`);
  const onClose = () => {
    endHandshake();
    open -= 1;
    if (open === 0 && started >= devices) process.exit(announced ? 0 : 1);
  };

  if (url !== undefined) {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024, ...(randomMask ? {} : { generateMask: zeroMask }) });
    const out = messageWriter(ws);
    ws.on('open', () => ws.send(hello));
    ws.on('message', (data, isBinary) => {
      if (!isBinary) onFrame(out, data.toString('utf8'));
    });
    ws.on('error', onError);
    ws.on('close', onClose);
    return;
  }

  const sock = net.connect({ host, port });
  sock.setNoDelay(true);
  const out = lineWriter(sock);
  let parts = [];
  sock.on('connect', () => out.frame(hello));
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
      onFrame(out, line.toString('utf8', 0, end));
    }
    if (start < chunk.length) parts.push(start === 0 ? chunk : chunk.subarray(start));
  });
  sock.on('error', onError);
  sock.on('close', onClose);
}

function pump() {
  while (started < devices && handshaking < burst) connect(started);
}

pump();
