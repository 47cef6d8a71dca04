#!/bin/bash
# run.sh - the benchmarks of docs/benchmarks.md, end to end.
#
#   tests/bench/run.sh [BUILD_DIR]      (default: build)
#
# Environment: GAMES (stored games for (d), default 100000), RUNS (default
# 5), SECONDS_PER (load seconds per endpoint, default 10), CONNS (default
# 8), WORK (scratch folder, default a new one under /tmp; kept with
# KEEP=1). Prints the machine and every figure; asserts nothing.
set -euo pipefail
BUILD=${1:-build}
GAMES=${GAMES:-100000}
RUNS=${RUNS:-5}
SECONDS_PER=${SECONDS_PER:-10}
CONNS=${CONNS:-8}
PORT=${PORT:-18080}
WORK=${WORK:-$(mktemp -d /tmp/flierd-bench.XXXXXX)}
FLIERD=$BUILD/flierd
mkdir -p "$WORK"

echo "== machine"
echo "nproc: $(nproc); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "memory: $(free -g | awk '/Mem:/ {print $2 " GB"}'); kernel: $(uname -r)"

echo "== (a) engine, (b) audit end to end, (c) ingest: 1000 simulated games"
"$BUILD/tests/bench" --games 1000 --runs "$RUNS"
if [ -d "$(dirname "$0")/../../../shared/peer/jcz" ]; then
    echo "-- the same on the 100 games of the development corpus"
    "$BUILD/tests/bench" --runs "$RUNS" --ingest-runs 0 \
        "$(dirname "$0")/../../../shared/peer/jcz/games" 2>/dev/null || true
fi

echo "== (d) HTTP with $GAMES stored games"
if [ ! -s "$WORK/flierd.db" ]; then
    /usr/bin/time -f "simulate: %e s" "$FLIERD" simulate --games "$GAMES" \
        --seed 42 --out "$WORK/games"
    /usr/bin/time -f "ingest: %e s" "$FLIERD" ingest --quiet \
        --db "$WORK/flierd.db" "$WORK/games"
    echo "database: $(du -b "$WORK/flierd.db" | cut -f1) bytes"
fi
rm -rf "$WORK/uploads"
"$FLIERD" simulate --games 20000 --seed 4242 --out "$WORK/uploads" >/dev/null
cp "$WORK/flierd.db" "$WORK/serve.db"
# The load clients all come from 127.0.0.1: no per-address rate limits.
"$FLIERD" serve --db "$WORK/serve.db" --listen "127.0.0.1:$PORT" \
    --rate-limit 0 --write-rate-limit 0 > "$WORK/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
    grep -q listening "$WORK/serve.log" && break
    sleep 0.1
done
for p in /api/games "/api/games/{id}" "/api/games/{id}/replay" /api/stats; do
    "$BUILD/tests/load" --port "$PORT" --seconds "$SECONDS_PER" \
        --conns "$CONNS" --ids "$GAMES" --upload "$WORK/uploads" "$p"
done
