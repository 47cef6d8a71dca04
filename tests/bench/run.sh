#!/bin/bash
# run.sh - the benchmarks of docs/benchmarks.md, end to end.
#
#   tests/bench/run.sh [BUILD_DIR]      (default: build)
#
# Environment: GAMES (stored games for (d), default 100000), RUNS (default
# 5), SECONDS_PER (load seconds per endpoint, default 10), CONNS (default
# 8), AUDIT_FILES (files for (e), default 2585), WORK (scratch folder,
# default a new one under /tmp; kept with KEEP=1). Prints the machine and
# every figure with its ratio; asserts nothing. Needs jq for (e). (g):
# ingest as one database grows to CURVE games (default 1000000; about 8
# GB in WORK and four minutes; CURVE=0 skips it). PG=1
# adds (f): the same ingest and HTTP figures on PostgreSQL (a throwaway
# cluster with fsync on, tests/pg/cluster.sh), with one and two daemons.
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

echo "== (a) engine, (b) audit end to end, (h) replay render, (c) ingest:" \
     "1000 simulated games"
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
# The replay cache's counters, to tell hits from misses per run: over all
# $GAMES ids most requests render (misses, once the ids outnumber what
# 64 MiB holds); over 200 ids, after the first of each, all are kept.
cache() {
    curl -s "http://127.0.0.1:$PORT/metrics" |
        awk -v r="$1" '$1 == "flierd_replay_cache_requests_total{result=\"" r "\"}" {print $2}'
}
for p in /api/games "/api/games/{id}" "/api/games/{id}/replay" \
         "200:/api/games/{id}/replay" /api/stats; do
    ids=$GAMES
    case $p in 200:*) ids=200 p=${p#200:} ;; esac
    h0=$(cache hit) m0=$(cache miss)
    echo -n "[$ids ids] "
    "$BUILD/tests/load" --port "$PORT" --seconds "$SECONDS_PER" \
        --conns "$CONNS" --ids "$ids" --upload "$WORK/uploads" "$p"
    case $p in *replay) echo "  replay cache meanwhile: $(( $(cache hit) - h0 ))" \
                             "hits, $(( $(cache miss) - m0 )) misses" ;; esac
done
# peak RSS counts the database's pages mapped by SQLite (mmap_size);
# RssAnon is the daemon's own memory (heap, replay cache)
echo "daemon memory: $(awk '/^(VmHWM|RssAnon|RssFile):/ {printf "%s %s %s; ", $1, $2, $3}' "/proc/$SERVER/status")"

echo "== (e) flierd audit --json against jq -c . on the same files, one run"
mkdir -p "$WORK/audit"
if [ -z "$(ls -A "$WORK/audit")" ]; then
    shared=$(dirname "$0")/../../../shared/peer/jcz
    if [ -d "$shared" ]; then # complete JCloisterZone games, repeated
        mapfile -t src < <(find "$shared/games" "$shared/expansions" \
                             -name '*.jcz' ! -path '*forger*' | sort)
    else
        "$FLIERD" simulate --games 500 --seed 7 --out "$WORK/sim" >/dev/null
        mapfile -t src < <(find "$WORK/sim" -name '*.jcz' | sort)
    fi
    for i in $(seq 0 $(( ${AUDIT_FILES:-2585} - 1 ))); do
        cp "${src[$(( i % ${#src[@]} ))]}" "$WORK/audit/$i.jcz"
    done
fi
n=$(ls "$WORK/audit" | wc -l)
echo "$n files, $(du -sb "$WORK/audit" | cut -f1) bytes, 500 files per process"
ms() { # ms CMD...: wall milliseconds of CMD, its output dropped
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}
each() { (cd "$WORK/audit" && ls | xargs -n 500 "$@"); }
for run in $(seq "$RUNS"); do
    jq_ms=$(ms each jq -c .)
    j1_ms=$(ms each "$FLIERD" audit --json -j 1)
    jn_ms=$(ms each "$FLIERD" audit --json)
    rm -f "$WORK/ingest-e.db"*
    in_ms=$(ms "$FLIERD" ingest --quiet --db "$WORK/ingest-e.db" "$WORK/audit")
    rm -f "$WORK/ingest-e.db"*
    echo "run $run: jq $jq_ms ms; audit --json -j 1 $j1_ms ms" \
         "($(( n * 1000 / (j1_ms ? j1_ms : 1) )) games/s); default -j" \
         "($(nproc) cores) $jn_ms ms ($(( n * 1000 / (jn_ms ? jn_ms : 1) )) games/s)"
    awk -v a="$jn_ms" -v b="$j1_ms" -v q="$jq_ms" -v i="$in_ms" 'BEGIN {
        printf "  ratio to jq: default -j %.3f (target <= 0.12), -j 1 %.3f; " \
               "-j speed-up %.2f\n", a / q, b / q, b / a
        printf "  flierd ingest into a fresh database: %d ms, ratio to jq " \
               "%.3f (target <= 0.20)\n", i, i / q }'
done
txt_ms=$(ms each "$FLIERD" audit)
echo "text report (default -j): $txt_ms ms"
echo "-- peak RSS of one audit process, on 1,000 files and on all $n (-j 1)"
# (audit exits 1 when a game is invalid: the corpus has some)
(cd "$WORK/audit" && ls | head -1000 | xargs /usr/bin/time -f "$(( n < 1000 ? n : 1000 )) files: %M KB" \
    "$FLIERD" audit --json -j 1 2>&1 >/dev/null | tail -1) || true
(cd "$WORK/audit" && ls | xargs /usr/bin/time -f "$n files: %M KB" \
    "$FLIERD" audit --json -j 1 2>&1 >/dev/null | tail -1) || true

if [ "${CURVE:-1000000}" -gt 0 ]; then
    echo "== (g) ingest as the database grows to ${CURVE:-1000000} games"
    kill $SERVER 2>/dev/null || true # (d)'s daemon: the machine to (g)
    wait $SERVER 2>/dev/null || true
    rm -f "$WORK/serve.db"*
    mkdir -p "$WORK/curve"
    "$BUILD/tests/bench" --runs 1 --ingest-runs 0 \
        --curve "${CURVE:-1000000}" --dir "$WORK/curve" 2>/dev/null |
        sed -n '/^(g)/,$p'
    rm -rf "$WORK/curve"
fi

[ "${PG:-0}" = 1 ] || exit 0
echo "== (f) PostgreSQL: ingest and HTTP with $GAMES stored games"
kill $SERVER 2>/dev/null || true # (d)'s daemon: the machine to (f)
wait $SERVER 2>/dev/null || true
here=$(cd "$(dirname "$0")" && pwd)
pgdir=$(mktemp -d /tmp/flierd-pg.XXXXXX)
rmdir "$pgdir"
server=$(DURABLE=1 bash "$here/../pg/cluster.sh" start "$pgdir")
trap 'kill $SERVER 2>/dev/null || true; bash "$here/../pg/cluster.sh" stop "$pgdir"; [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"' EXIT
psql "$server" -qc "CREATE DATABASE bench"
pg=${server/\/postgres\?/\/bench?}
ms() { # ms CMD...: wall milliseconds of CMD
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
}
rm -f "$WORK/ingest.db"
sq_ms=$(ms "$FLIERD" ingest --quiet --db "$WORK/ingest.db" "$WORK/games")
pg_ms=$(ms "$FLIERD" ingest --quiet --db "$pg" "$WORK/games")
awk -v n="$GAMES" -v a="$sq_ms" -v b="$pg_ms" 'BEGIN {
    printf "flierd ingest of %d games: SQLite %d ms (%d games/s), " \
           "PostgreSQL %d ms (%d games/s); ratio %.2f\n", n, a, n * 1000 / a,
           b, n * 1000 / b, a / b }'
serve_pg() { # serve_pg PORT: a daemon on the database, in the background
    "$FLIERD" serve --db "$pg" --listen "127.0.0.1:$1" --rate-limit 0 \
        --write-rate-limit 0 > "$WORK/serve-$1.log" 2>&1 &
    echo $!
}
up() {
    for _ in $(seq 100); do
        grep -q listening "$WORK/serve-$1.log" && return
        sleep 0.1
    done
}
for daemons in 1 2; do
    p1=$((PORT + 10)) p2=$((PORT + 11))
    S1=$(serve_pg $p1); up $p1
    ports=$p1 SERVER=$S1
    if [ "$daemons" = 2 ]; then
        S2=$(serve_pg $p2); up $p2
        ports=$p1,$p2 SERVER="$S1 $S2"
    fi
    for p in /api/games "/api/games/{id}" "/api/games/{id}/replay" \
             "200:/api/games/{id}/replay" /api/stats; do
        ids=$GAMES
        case $p in 200:*) ids=200 p=${p#200:} ;; esac
        echo -n "[PostgreSQL, $daemons daemon(s), $ids ids] "
        "$BUILD/tests/load" --port "$ports" --seconds "$SECONDS_PER" \
            --conns "$CONNS" --ids "$ids" --upload "$WORK/uploads" "$p"
    done
    kill $SERVER
    wait $SERVER 2>/dev/null || true
done
SERVER=
