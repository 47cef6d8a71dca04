#!/usr/bin/env bash
# test_copy.sh - `flierd copy` end to end, run by ctest:
#   test_copy.sh FLIERD SAMPLES_DIR
# Database A (an SQLite file) gets every sample (forged ones included), a
# game of an expansion not audited yet, an HTTP upload and games recorded
# live (in progress, finished, and two alike). A is copied to B and B to
# a new C: `flierd check` finds each whole, and `flierd export` of each
# lists the same games in the same order (SHA-256, format, status,
# verdict, name, source, upload time, live flag; ids are the copy's
# own). A copy run again, and one into a database that holds some of the
# games, count the games they skip as duplicates. Refusals: the same
# database twice, a FROM that cannot be opened, missing arguments.
#
# FLIERD_TEST_DB, when set, is B: for instance the postgresql:// URI of
# an empty database, to copy from SQLite into it and back. Unset, B is an
# SQLite file like the others. With FLIERD_TEST_FRESH_DB=1 too, it is the
# URI of a server's "postgres" database (the tests' throwaway cluster):
# the test makes a database of its own there (psql) and drops it after.
# Needs bash, curl and sed.
set -u

FLIERD=${1:?usage: test_copy.sh FLIERD SAMPLES_DIR}
SAMPLES=${2:?usage: test_copy.sh FLIERD SAMPLES_DIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flierd-copy.XXXXXX") || exit 1
daemon=
fresh=
cleanup() {
    [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
    [ -n "$fresh" ] &&
        psql "$server" -qc "DROP DATABASE IF EXISTS $fresh" >/dev/null 2>&1
    rm -rf "$TMP"
}
trap cleanup EXIT

if [ -n "${FLIERD_TEST_DB:-}" ] && [ "${FLIERD_TEST_FRESH_DB:-}" = 1 ]; then
    server=$FLIERD_TEST_DB
    case $server in
    */postgres\?*) ;;
    *) echo "FLIERD_TEST_FRESH_DB wants the URI of a postgres database" >&2
       exit 1 ;;
    esac
    psql "$server" -qc "CREATE DATABASE flierd_copy_$$" || exit 1
    fresh=flierd_copy_$$
    FLIERD_TEST_DB=${server/\/postgres\?/\/$fresh?}
fi

A=$TMP/a.db
B=${FLIERD_TEST_DB:-$TMP/b.db}
C=$TMP/c.db
D=$TMP/d.db

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run NAME ARGS... : runs flierd, keeping stdout, stderr and the status
run() {
    local name=$1
    shift
    "$FLIERD" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
    echo $? >"$TMP/$name.rc"
}

expect_rc() { # NAME WANT
    local got
    got=$(cat "$TMP/$1.rc")
    [ "$got" = "$2" ] || fail "$1: exit status $got, want $2 (stdout: $(tail -c 300 "$TMP/$1.out"); stderr: $(head -c 300 "$TMP/$1.err"))"
}

expect_out() { # NAME FIXED-STRING
    grep -qF -- "$2" "$TMP/$1.out" || fail "$1: stdout lacks '$2': $(tail -c 400 "$TMP/$1.out")"
}

expect_err() { # NAME FIXED-STRING
    grep -qF -- "$2" "$TMP/$1.err" || fail "$1: stderr lacks '$2': $(head -c 300 "$TMP/$1.err")"
}

# index NAME DB: the index of `flierd export` of DB without the id and
# the file name (the copy numbers the games itself), in id order
index() {
    run "export_$1" export --db "$2" "$TMP/export_$1"
    expect_rc "export_$1" 0
    sed -E 's/^\{"id": [0-9]+, "file": "([^"\\]|\\.)*", /{/' \
        "$TMP/export_$1/index.ndjson" >"$TMP/$1.index" 2>/dev/null
}

same_games() { # WHAT INDEX INDEX
    cmp -s "$TMP/$2.index" "$TMP/$3.index" || {
        fail "$1: the exports differ (< $2, > $3):"
        diff "$TMP/$2.index" "$TMP/$3.index" | head -20 >&2
    }
}

checked() { # NAME DB
    run "check_$1" check --db "$2"
    expect_rc "check_$1" 0
    expect_out "check_$1" ": 0 problems"
}

[ -x "$FLIERD" ] || { echo "FAIL: $FLIERD is not executable" >&2; exit 1; }
command -v curl >/dev/null || { echo "FAIL: no curl (apt-get install curl)" >&2; exit 1; }

# B is to start empty, as the counts below are those of a first copy (a
# database that cannot be read yet is new: the copy creates it)
if [ -n "${FLIERD_TEST_DB:-}" ] &&
    "$FLIERD" export --db "$B" --quiet "$TMP/export_b0" >/dev/null 2>&1 &&
    [ -n "$(head -c 1 "$TMP/export_b0/index.ndjson")" ]; then
    echo "FAIL: FLIERD_TEST_DB ($B) holds games: give an empty database" >&2
    exit 1
fi

# ---- A: samples, an unsupported game, an upload, live games ------------

run ingest_a ingest --db "$A" "$SAMPLES"
expect_rc ingest_a 0
printf '%s\n' '{"format": "flierlog/1", "edition": "C2", "sets": {"catapult:1": 1}, "players": [{"name": "A"}]}' \
    >"$TMP/mage.flierlog"
run ingest_mage ingest --db "$A" "$TMP/mage.flierlog"
expect_rc ingest_mage 0
expect_out ingest_mage "1 unsupported"

# a game new to A (the simulator's), and a live table's lines
run simulate simulate --games 1 --seed 16 --out "$TMP/sim"
expect_rc simulate 0
run ndjson convert --to flierlog --ndjson "$SAMPLES/c2-2p.jcz" -o "$TMP/live.ndjson"
expect_rc ndjson 0
mapfile -t lines <"$TMP/live.ndjson"

# the daemon on A, on a free port; its first line says where
coproc SERVE { exec "$FLIERD" serve --db "$A" --listen 127.0.0.1:0 --quiet 2>"$TMP/serve.err"; }
daemon=$SERVE_PID
url= ready=
if read -r -t 30 ready <&"${SERVE[0]}"; then
    url=${ready#listening on }
fi
[ -n "$url" ] && [ "$url" != "$ready" ] ||
    { echo "FAIL: no 'listening on' line: $(cat "$TMP/serve.err")" >&2; exit 1; }

post() { # PATH BODY-FILE : prints the reply, fails on an error status
    curl -sS --max-time 10 -f --data-binary @"$2" "$url$1" ||
        fail "POST $1 ($2)"
}
id_of() { sed -nE 's/^\{"id": ?([0-9]+).*/\1/p'; }

sim=$(ls "$TMP"/sim/*.jcz "$TMP"/sim/*.flierlog 2>/dev/null | head -1)
post "/api/games?name=upload.jcz" "$sim" >/dev/null
printf '%s\n' "${lines[0]}" >"$TMP/header"
live_ids=()
for _ in 1 2 3 4; do # 1 and 2 stay alike; 3 moves on; 4 moves and ends
    live_ids+=("$(post /api/live "$TMP/header" | id_of)")
done
for i in 1 2 3; do
    printf '%s\n' "${lines[$i]}" >"$TMP/turn"
    post "/api/live/${live_ids[2]}/moves" "$TMP/turn" >/dev/null
    post "/api/live/${live_ids[3]}/moves" "$TMP/turn" >/dev/null
done
: >"$TMP/empty"
post "/api/live/${live_ids[3]}/finish" "$TMP/empty" >/dev/null
kill "$daemon" && wait "$daemon" 2>/dev/null
daemon=

checked a "$A"
index a "$A"
n=$(wc -l <"$TMP/a.index")
[ "$(grep -c '"source": "live"' "$TMP/a.index")" = 4 ] ||
    fail "A does not hold the 4 live games: $(grep -c '"source": "live"' "$TMP/a.index")"
[ "$(grep -c '"live": true' "$TMP/a.index")" = 3 ] ||
    fail "A does not hold 3 games in progress"
grep -qF '"source": "http"' "$TMP/a.index" || fail "A holds no HTTP upload"
grep -qF '"verdict": "invalid"' "$TMP/a.index" || fail "A holds no forged game"
grep -qF '"status": "unsupported"' "$TMP/a.index" || fail "A holds no unsupported game"

# ---- A to B, B to a new C: the same games ------------------------------

run copy_ab copy --from "$A" --to "$B"
expect_rc copy_ab 0
expect_out copy_ab "copied $n games from $A to $B ("
expect_out copy_ab "1 unsupported), duplicates skipped 0, failed 0"
expect_out copy_ab "mage.flierlog): unsupported: The Catapult"
[ "$(tail -n 1 "$TMP/copy_ab.out" | cut -c1-7)" = "copied " ] ||
    fail "copy_ab: the summary is not the last line"
[ ! -s "$TMP/copy_ab.err" ] ||
    fail "copy wrote to a stderr that is no terminal: $(head -c 200 "$TMP/copy_ab.err")"
checked b "$B"
index b "$B"
same_games "A to B" a b

run copy_bc copy --from "$B" --to "$C" --quiet
expect_rc copy_bc 0
expect_out copy_bc "copied $n games from $B to $C ("
checked c "$C"
index c "$C"
same_games "B to C" a c

# ---- again, and into a database that holds some of the games -----------

run copy_again copy --from "$A" --to "$B"
expect_rc copy_again 0
expect_out copy_again "copied 0 games from $A to $B (0 valid, 0 invalid, 0 unsupported), duplicates skipped $n, failed 0"
checked b2 "$B"
index b2 "$B"
same_games "A to B twice" a b2

run ingest_d ingest --db "$D" "$SAMPLES/c2-2p.jcz" "$SAMPLES/tiny-city.jcz" \
    "$SAMPLES/forged/forged-occupied.jcz"
expect_rc ingest_d 0
run copy_ad copy --from "$A" --to "$D"
expect_rc copy_ad 0
expect_out copy_ad "copied $((n - 3)) games from $A to $D ("
expect_out copy_ad "duplicates skipped 3, failed 0"
checked d "$D"
index d "$D"
[ "$(wc -l <"$TMP/d.index")" = "$n" ] || fail "D holds $(wc -l <"$TMP/d.index") games, not $n"

# ---- refusals -----------------------------------------------------------

run same copy --from "$A" --to "$A"
expect_rc same 2
expect_err same "same database"
run same_file copy --from "$A" --to "$TMP/./a.db"
expect_rc same_file 2
expect_err same_file "are one file"
run missing copy --from "$TMP/missing.db" --to "$TMP/e.db"
expect_rc missing 2
expect_err missing "$TMP/missing.db"
[ ! -e "$TMP/e.db" ] || fail "a FROM that cannot be opened left a new TO behind"
run no_to copy --from "$A"
expect_rc no_to 2
expect_err no_to "usage: flierd copy"
run help copy --help
expect_rc help 0
expect_out help "ids are not kept"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "test_copy: $n games from $A to $B and on to $C, the same; duplicates counted"
