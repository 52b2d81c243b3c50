#!/usr/bin/env bash
# Side-by-side benchmark on this machine, in one go (docs/benchmarks.md):
#   raw-node floor, Netty reference (the original Java design) and MobileClaw's adapter (--external-fleet),
#   all driven by the same shared fleet (../shared/bench/phone-fleet.mjs), for
#   click (50 phones, 20000 requests, 64 in flight) and screenshot (10 phones, 2000 requests, 8 in
#   flight, 1.5 MB base64), plus RSS per idle phone (idle-rss-ref.mjs vs ours, 10000 phones).
#
#   test/bench/compare.sh                 # one round
#   RUNS=3 test/bench/compare.sh          # three rounds (the machine is noisy: compare within a round)
#   SHARED=/path/to/shared ONLY=click test/bench/compare.sh
#
# Env: SHARED (default ../shared from the repo root), RUNS (1), BASE_PORT (7600), ONLY
# (click|screenshot|idle, default all three), SKIP_NETTY=1, SKIP_CEILING=1, IDLE_PHONES (10000), SHOT_BYTES (1500000),
# FLEET=ours: drive click/screenshot of all three gateways with test/bench/phone-fleet.mjs instead of
# the shared fleet (the references are then started directly, with the same arguments as their
# run scripts); used to see the gateways' own limits when the shared fleet is the bottleneck.
# Prints JSON lines: one per gateway and command (each with "run" and "peak_rss_mb"; for the
# references peak_rss_mb is the process's VmHWM, for ours both its own in-run sample and
# "hwm_rss_mb", the VmHWM measured the same way as the references), a "fleet-ceiling" line (the same
# fleet against test/bench/fleet-ceiling.mjs, a gateway that does nothing: the most any gateway can
# reach with that fleet on this machine), then one "ratios" line per round and command. Needs a prior build (npm run build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=$(cd "${SHARED:-$repo/../shared}" && pwd)
REF="$SHARED/bench"
BENCH="$repo/test/bench"
RUNS=${RUNS:-1}
BASE_PORT=${BASE_PORT:-7600}
ONLY=${ONLY:-click screenshot idle}
IDLE_PHONES=${IDLE_PHONES:-10000}
SHOT_BYTES=${SHOT_BYTES:-1500000}
LIMIT=600 # seconds, per measurement

tmp=$(mktemp -d)
cleanup() {
  # only this script's own background jobs that are still running
  for p in $(jobs -p); do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# 10 000 phones need 10 000 sockets in the gateway and in the fleet.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

[ -e "$repo/libs/infrastructure/tcp/dist/index.js" ] || (cd "$repo" && npx tsc -b libs/infrastructure/tcp/tsconfig.lib.json)

results="$tmp/results.jsonl"
: >"$results"
emit() { echo "$1" | tee -a "$results"; }

# merge JSON_LINE WATCH_FILE RUN [KEY] -> JSON_LINE with "run" and the watcher's peak RSS as KEY
merge() {
  node -e '
    const [line, watchFile, run, key] = process.argv.slice(1);
    const r = JSON.parse(line);
    let w = {};
    try { w = JSON.parse(require("fs").readFileSync(watchFile, "utf8")); } catch {}
    const out = { run: Number(run), ...r };
    if (w.peak_rss_mb != null) out[key] = w.peak_rss_mb;
    console.log(JSON.stringify(out));
  ' "$1" "$2" "$3" "${4:-peak_rss_mb}"
}

# waits until a TCP port on 127.0.0.1 accepts connections (max 20 s)
wait_port() {
  for _ in $(seq 1 200); do
    if node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1");s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1))' "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "port $1 never opened" >&2
  return 1
}

FLEET=${FLEET:-shared}
if [ "$FLEET" = ours ]; then FLEET_JS="$BENCH/phone-fleet.mjs"; else FLEET_JS="$REF/phone-fleet.mjs"; fi

# direct RUN PORT DEVICES KEY GATEWAY_CMD... : runs a gateway process that prints one JSON line,
# watches its RSS, drives it with $FLEET_JS, prints the merged line.
direct() {
  local run=$1 port=$2 devices=$3 key=$4
  shift 4
  "$@" >"$tmp/gw.json" 2>"$tmp/gw.err" &
  local gw=$!
  (sleep "$LIMIT" && kill "$gw" 2>/dev/null) &
  local dog=$!
  node "$BENCH/proc-watch.mjs" --pid "$gw" >"$tmp/watch.json" 2>/dev/null &
  local w=$!
  wait_port "$port"
  node "$FLEET_JS" --port "$port" --devices "$devices" --token bench-token --shot-bytes "$SHOT_BYTES" >"$tmp/fleet.log" 2>&1 &
  local fleet=$!
  wait "$gw" || true
  kill "$fleet" "$dog" 2>/dev/null || true
  wait "$w" 2>/dev/null || true
  local line
  line=$(tail -n 1 "$tmp/gw.json")
  if [ -z "$line" ]; then
    echo "{\"run\":$run,\"gateway\":\"$(basename "$2")\",\"error\":\"no result\"}" | tee -a "$results"
    sed 's/^/  /' "$tmp/gw.err" >&2 || true
    return 0
  fi
  emit "$(merge "$line" "$tmp/watch.json" "$run" "$key")"
}

netty_cp=""
netty_build() {
  [ -n "$netty_cp" ] && return 0
  if [ ! -e /usr/share/java/netty-transport.jar ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnetty-java libjackson2-databind-java >/dev/null
  fi
  mkdir -p "$tmp/netty"
  netty_cp=$(ls /usr/share/java/netty-{common,buffer,transport,codec,handler,resolver}.jar /usr/share/java/jackson-{databind,core,annotations}.jar | tr '\n' ':')
  javac -d "$tmp/netty" -cp "$netty_cp" "$REF/netty-ref/NettyRefGateway.java"
}

# reference RUN PORT DEVICES REQUESTS CONCURRENCY COMMAND SCRIPT MATCH
reference() {
  local run=$1 port=$2 devices=$3 requests=$4 conc=$5 command=$6 script=$7 match=$8
  if [ "$FLEET" = ours ]; then
    local args=(--port "$port" --devices "$devices" --requests "$requests" --concurrency "$conc" --command "$command")
    if [ "$match" = NettyRefGateway ]; then
      netty_build
      direct "$run" "$port" "$devices" peak_rss_mb java -cp "$netty_cp$tmp/netty" NettyRefGateway "${args[@]}"
    else
      direct "$run" "$port" "$devices" peak_rss_mb node "$REF/raw-node-ref.mjs" "${args[@]}"
    fi
    return 0
  fi
  node "$BENCH/proc-watch.mjs" --match "$match --port $port" --wait-seconds 180 >"$tmp/watch.json" 2>/dev/null &
  local w=$!
  local line
  line=$(timeout "$LIMIT" "$script" "$port" "$devices" "$requests" "$conc" "$command" 2>"$tmp/ref.err" | tail -n 1) || true
  wait "$w" 2>/dev/null || true
  if [ -z "$line" ]; then
    echo "{\"run\":$run,\"gateway\":\"$(basename "$script")\",\"command\":\"$command\",\"error\":\"no result\"}" | tee -a "$results"
    sed 's/^/  /' "$tmp/ref.err" >&2 || true
    return 0
  fi
  emit "$(merge "$line" "$tmp/watch.json" "$run")"
}

# ours RUN PORT DEVICES REQUESTS CONCURRENCY COMMAND
ours() {
  local run=$1 port=$2 devices=$3 requests=$4 conc=$5 command=$6
  node "$BENCH/gateway-bench.mjs" --external-fleet --port "$port" --token bench-token --command "$command" \
    --devices "$devices" --requests "$requests" --concurrency "$conc" --max-seconds "$LIMIT" >"$tmp/ours.json" 2>"$tmp/ours.err" &
  local gw=$!
  node "$BENCH/proc-watch.mjs" --pid "$gw" >"$tmp/watch.json" 2>/dev/null &
  local w=$!
  wait_port "$port"
  node "$FLEET_JS" --port "$port" --devices "$devices" --token bench-token --shot-bytes "$SHOT_BYTES" >"$tmp/fleet.log" 2>&1 &
  local fleet=$!
  wait "$gw" || true
  kill "$fleet" 2>/dev/null || true
  wait "$w" 2>/dev/null || true
  local line
  line=$(tail -n 1 "$tmp/ours.json")
  if [ -z "$line" ]; then
    echo "{\"run\":$run,\"gateway\":\"mobileclaw\",\"command\":\"$command\",\"error\":\"no result\"}" | tee -a "$results"
    sed 's/^/  /' "$tmp/ours.err" >&2 || true
    return 0
  fi
  emit "$(merge "$line" "$tmp/watch.json" "$run" hwm_rss_mb)"
}

idle() {
  local run=$1 port=$2
  # idle-rss-ref.mjs always listens on 7420.
  if node -e 'const s=require("net").connect(7420,"127.0.0.1");s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1))' 2>/dev/null; then
    echo "port 7420 is busy; skipping idle-rss-ref" >&2
  else
    (cd "$REF" && timeout "$LIMIT" node --expose-gc idle-rss-ref.mjs "$IDLE_PHONES" >"$tmp/idle-ref.json" 2>"$tmp/idle-ref.err") &
    local r=$!
    wait_port 7420
    node "$REF/phone-fleet.mjs" --port 7420 --devices "$IDLE_PHONES" >"$tmp/fleet.log" 2>&1 &
    local fleet=$!
    wait "$r" || true
    kill "$fleet" 2>/dev/null || true
    local line
    line=$(tail -n 1 "$tmp/idle-ref.json")
    [ -n "$line" ] && emit "$(node -e 'const r=JSON.parse(process.argv[1]);console.log(JSON.stringify({run:+process.argv[2],gateway:"idle-rss-ref",idle_phones:r.conns,...r}))' "$line" "$run")"
  fi
  node "$BENCH/gateway-bench.mjs" --idle "$IDLE_PHONES" --external-fleet --port "$port" --token bench-token --max-seconds "$LIMIT" >"$tmp/idle-ours.json" 2>"$tmp/idle-ours.err" &
  local gw=$!
  wait_port "$port"
  node "$REF/phone-fleet.mjs" --port "$port" --devices "$IDLE_PHONES" --token bench-token >"$tmp/fleet.log" 2>&1 &
  local fleet=$!
  wait "$gw" || true
  kill "$fleet" 2>/dev/null || true
  local line
  line=$(tail -n 1 "$tmp/idle-ours.json")
  if [ -n "$line" ]; then emit "$(node -e 'console.log(JSON.stringify({run:+process.argv[2],...JSON.parse(process.argv[1])}))' "$line" "$run")"; else sed 's/^/  /' "$tmp/idle-ours.err" >&2; fi
}

echo "# $(date -u +%FT%TZ) nproc=$(nproc) node=$(node -v) java=$(java -version 2>&1 | head -n 1 | tr -d '"') runs=$RUNS fleet=$FLEET repo=$repo" >&2
for run in $(seq 1 "$RUNS"); do
  p=$((BASE_PORT + run * 10))
  for what in $ONLY; do
    case $what in
      click | screenshot)
        if [ "$what" = click ]; then set -- 50 20000 64; else set -- 10 2000 8; fi
        reference "$run" "$p" "$@" "$what" "$REF/run-raw-node.sh" raw-node-ref.mjs
        [ "${SKIP_NETTY:-}" = 1 ] || reference "$run" $((p + 1)) "$@" "$what" "$REF/netty-ref/run.sh" NettyRefGateway
        ours "$run" $((p + 2)) "$@" "$what"
        # The same fleet against a gateway that does nothing: what any gateway could reach here.
        [ "${SKIP_CEILING:-}" = 1 ] || direct "$run" $((p + 3)) "$1" peak_rss_mb node "$BENCH/fleet-ceiling.mjs" --port $((p + 3)) \
          --devices "$1" --requests "$2" --concurrency "$3" --command "$what"
        p=$((p + 4))
        ;;
      idle) idle "$run" $((p + 5)) ;;
      *) echo "unknown ONLY entry $what" >&2 ;;
    esac
  done
done

# Ratios against the targets, within each round (same machine, same minutes).
node -e '
  const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const r3 = (x) => (Number.isFinite(x) ? +x.toFixed(2) : null);
  const runs = [...new Set(rows.map((r) => r.run))];
  for (const run of runs) {
    for (const command of ["click", "screenshot"]) {
      const pick = (g) => rows.find((r) => r.run === run && r.command === command && r.gateway === g && !r.error);
      const ours = pick("mobileclaw"), raw = pick("raw-node"), netty = pick("netty-ref"), ceiling = pick("fleet-ceiling");
      if (!ours) continue;
      console.log(JSON.stringify({ run, ratios: command,
        throughput_vs_raw_node: raw ? r3(ours.throughput_per_s / raw.throughput_per_s) : null, target_vs_raw_node: 0.8,
        throughput_vs_netty: netty ? r3(ours.throughput_per_s / netty.throughput_per_s) : null, target_vs_netty: 2,
        p99_vs_raw_node: raw ? r3(ours.p99_ms / raw.p99_ms) : null, target_p99_vs_raw_node: 1.5,
        ours_vs_fleet_ceiling: ceiling ? r3(ours.throughput_per_s / ceiling.throughput_per_s) : null,
        fleet_ceiling_vs_netty: ceiling && netty ? r3(ceiling.throughput_per_s / netty.throughput_per_s) : null }));
    }
    const idle = rows.find((r) => r.run === run && r.gateway === "mobileclaw" && r.idle_phones);
    const ref = rows.find((r) => r.run === run && r.gateway === "idle-rss-ref");
    if (idle) console.log(JSON.stringify({ run, ratios: "idle", per_conn_kb: idle.per_conn_kb, target_kb: 12, floor_per_conn_kb: ref ? ref.per_conn_kb : null }));
  }
' "$results"
