#!/usr/bin/env bash
# test_cli.sh - the flierd binary end to end, run by ctest:
#   test_cli.sh FLIERD SAMPLES_DIR
# Checks exit codes, the text and --json reports of `flierd audit` and
# `flierd whatif` on samples/. Needs only bash, grep and sha256sum (no
# JSON tool: keys and values are matched as they are printed, on one line,
# by cJSON_PrintUnformatted). Every failed check is printed; the exit
# status is the number of failures (capped at 1).
set -u

FLIERD=${1:?usage: test_cli.sh FLIERD SAMPLES_DIR}
SAMPLES=${2:?usage: test_cli.sh FLIERD SAMPLES_DIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flierd-cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

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

# run_stdin NAME INPUT ARGS... : the same with INPUT on stdin
run_stdin() {
    local name=$1 input=$2
    shift 2
    printf '%s' "$input" | "$FLIERD" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    echo $? >"$TMP/$name.rc"
}

expect_rc() { # NAME WANT
    local got
    got=$(cat "$TMP/$1.rc")
    [ "$got" = "$2" ] || fail "$1: exit status $got, want $2 (stderr: $(head -c 300 "$TMP/$1.err"))"
}

expect_out() { # NAME FIXED-STRING
    grep -qF -- "$2" "$TMP/$1.out" || fail "$1: stdout lacks '$2'"
}

expect_err() { # NAME FIXED-STRING
    grep -qF -- "$2" "$TMP/$1.err" || fail "$1: stderr lacks '$2'"
}

expect_out_re() { # NAME EXTENDED-REGEX
    grep -qE -- "$2" "$TMP/$1.out" || fail "$1: stdout does not match /$2/"
}

expect_no_out() { # NAME FIXED-STRING
    ! grep -qF -- "$2" "$TMP/$1.out" || fail "$1: stdout has '$2'"
}

[ -x "$FLIERD" ] || { echo "FAIL: $FLIERD is not executable" >&2; exit 1; }

# ---- exit codes ----------------------------------------------------------

n=0
for f in "$SAMPLES"/*.jcz; do
    n=$((n + 1))
    run "valid$n" audit "$f"
    expect_rc "valid$n" 0
    expect_out "valid$n" ": valid, finished"
    expect_out "valid$n" "violations: none"
done
[ "$n" -ge 6 ] || fail "only $n samples in $SAMPLES"

n=0
for f in "$SAMPLES"/forged/*.jcz; do
    n=$((n + 1))
    run "forged$n" audit "$f"
    expect_rc "forged$n" 1
    expect_out "forged$n" "INVALID"
done
[ "$n" -ge 3 ] || fail "only $n forged samples"

run forged_field audit "$SAMPLES/forged/forged-flier-field.jcz"
expect_out forged_field "FLIER_FIELD"
run forged_target audit "$SAMPLES/forged/forged-wrong-target.jcz"
expect_out forged_target "FLIER_WRONG_TARGET"

# several files: the worst status wins
run mixed audit "$SAMPLES/c2-2p.jcz" "$SAMPLES/forged/forged-occupied.jcz"
expect_rc mixed 1
run mixed2 audit "$SAMPLES/forged/forged-occupied.jcz" "$TMP/missing.jcz"
expect_rc mixed2 2

run missing audit "$TMP/missing.jcz"
expect_rc missing 2
expect_err missing "missing.jcz"
expect_err missing "cannot open"

run_stdin garbage '{"version": [1, 2,, 3]}' audit -
expect_rc garbage 2
expect_err garbage "<stdin>"
expect_err garbage "byte offset 18"

run_stdin garbage_json 'not json at all' audit --json -
expect_rc garbage_json 2
expect_err garbage_json "byte offset 0"
expect_out garbage_json '"file":"<stdin>"'
expect_out garbage_json '"error":"not valid JSON at byte offset 0'

# a log of an expansion not audited yet says so, as such
run_stdin unsupported_json '{"format": "flierlog/1", "edition": "C2", "sets": {"catapult:1": 1}, "players": [{"name": "A"}]}' audit --json -
expect_rc unsupported_json 2
expect_out unsupported_json '{"file":"<stdin>","format":"flierlog","unsupported":"unsupported: The Catapult (tile set '"'"'catapult:1'"'"') is not audited yet (sets)"}'

run no_args audit
expect_rc no_args 2
run bad_rule audit --rule tiny-city-scoring=3 "$SAMPLES/c2-2p.jcz"
expect_rc bad_rule 2
expect_err bad_rule "unknown rule variant 'tiny-city-scoring=3'"

# the same file on stdin is the same game
run_stdin stdin_ok "$(cat "$SAMPLES/c2-2p.jcz")" audit -
expect_rc stdin_ok 0
expect_out stdin_ok "<stdin> (jcz): valid, finished after 79 turns"

# ---- --json ----------------------------------------------------------------

for f in "$SAMPLES"/*.jcz "$SAMPLES"/forged/*.jcz; do
    base=$(basename "$f" .jcz)
    run "json_$base" audit --json "$f"
    lines=$(wc -l <"$TMP/json_$base.out")
    [ "$lines" -eq 1 ] || fail "json_$base: $lines lines, want 1"
    expect_out_re "json_$base" '^\{.*\}$'
    sha=$(sha256sum "$f" | cut -d' ' -f1)
    expect_out "json_$base" "\"input_sha256\":\"$sha\""
    expect_out "json_$base" '"engine":"flierd '
    expect_out "json_$base" '"rules":{"sets":{'
    expect_out "json_$base" "\"file\":\"$f\""
done

J=json_c2-2p
expect_rc $J 0
expect_out $J '"format":"jcz","valid":true,"finished":true,"turns":79'
expect_out $J '"players":[{"name":"Ada","score":21},{"name":"Ben","score":25}]'
expect_out $J '"winners":["Ben"]'
expect_out $J '"violations":[]'
expect_out $J '"tiny-city-scoring":4'
expect_out $J '"receipt":"city, 2 tiles, completed: 2×2 = 4; Ada 1 knight → Ada 4"'
expect_out $J '"rolls_with_landing":3'
expect_no_out $J '"first_divergence"'   # a .jcz carries no claims

J=json_forged-flier-field
expect_rc $J 1
expect_out $J '"valid":false'
expect_out $J '"rule":"FLIER_FIELD"'
# where the offending move stands, for viewers that highlight it
expect_out $J '"move":71,"at":[3,1],"segment":"field:NL.NR.EL.WR"'

J=json_tiny-city
expect_out $J '"tiny-city-scoring":2'
# receipt refs: the city's tiles, each once
expect_out $J '"tiles_count":2,"pennants":0,"meeples":{"Ada":1},"tiles":[[0,0],[0,-1]]'
expect_out $J '"receipt":"city, 2 tiles, completed (tiny-city rule): 2×1 = 2; Ada 1 knight → Ada 2"'

# ---- --rule ----------------------------------------------------------------

run tiny2 audit --rule tiny-city-scoring=2 "$SAMPLES/c2-2p.jcz"
expect_rc tiny2 0
expect_out tiny2 "under tiny-city-scoring=2: Ada 19, Ben 23 (winner)"
expect_out tiny2 "the winner does not change (Ben)"

# tiny-city.jcz is played with the variant; without it Ada's city is 4
run tiny4 audit --rule tiny-city-scoring=4 "$SAMPLES/tiny-city.jcz"
expect_rc tiny4 0
expect_out tiny4 "scores: Ada 2, Ben 3 (winner)"
expect_out tiny4 "under tiny-city-scoring=4: Ada 4 (winner), Ben 3"
expect_out tiny4 "the winner changes: Ada (was Ben)"

run tiny4_json audit --json --rule tiny-city-scoring=4 "$SAMPLES/tiny-city.jcz"
expect_out tiny4_json '"variant":{"rule":"tiny-city-scoring=4","scores":{"Ada":4,"Ben":3},"winners":["Ada"],"winners_before":["Ben"],"winner_changes":true}'

# ---- --explain --------------------------------------------------------------

run explain audit --explain "$SAMPLES/c2-2p.jcz"
expect_rc explain 0
expect_out explain "score events: 19"
expect_out explain "  squares: (x,y) from the start tile at (0,0), x growing east, y growing south"
expect_out explain "    turn 3 (the city from (0,1) to (0,2)): city, 2 tiles, completed: 2×2 = 4; Ada 1 knight → Ada 4"
expect_out explain "    turn 29 (the road at (3,1), (3,2), (4,2) and (5,2)): road, 4 tiles, completed: 4×1 = 4; Ada 1 highwayman → Ada 4"
expect_out explain "    final (the monastery at (-2,2)): monastery, incomplete: 1 + 4 neighbours = 5; Ben 1 monk → Ben 5"
# two farmers' fields with the same receipt, told apart by where they lie
expect_out explain "    final (the field to the south of the tile at (0,2)): field touching 1 completed city [(0,1) 2 tiles]: 1×3 = 3; Ben 1 farmer → Ben 3"
expect_out explain "    final (the field to the south of the tile at (0,1)): field touching 1 completed city [(0,1) 2 tiles]: 1×3 = 3; Ben 1 farmer → Ben 3"
arrows=$(grep -c '→' "$TMP/explain.out")
[ "$arrows" -eq 19 ] || fail "explain: $arrows receipts, want 19"
# without --explain: no receipts
run plain audit "$SAMPLES/c2-2p.jcz"
expect_no_out plain "→"
expect_out plain "odds: roll 1 -> (3,1): the road on the east side, the road on the south side (Ada 1); roll 2 -> (2,0): the road on the east side, the road on the west side, the city on the north side; roll 3 -> (1,-1): the road on the east and south sides, the city on the north side (Ada 1); chance to land 3/3"
expect_out plain "turn 18: Ben's follower flew north-west from (-2,3), rolled 2 -> (-4,1): returned to supply: the target offers no valid landing"
# a forged landing says why the figure went back, and names the meeple
# and the feature as players do
run forged audit "$SAMPLES/forged/forged-wrong-target.jcz"
expect_out forged "turn 24: Ben's follower flew north-west from (4,2), rolled 2 -> (2,0): returned to supply: the logged landing breaks FLIER_WRONG_TARGET, so it was not applied"
run occupied audit "$SAMPLES/forged/forged-occupied.jcz"
expect_out occupied "turn 7, Cleo: MEEPLE_FEATURE_OCCUPIED: Cleo's follower on the road running north–south at (-5,-1): the road already holds a meeple (Ben's)"
# the fairy's point at the start of a turn is said with that turn
run fairy audit --explain "$SAMPLES/dragon-tour.flierlog"
expect_out fairy "    before turn 8: fairy beside Ben's follower: 1 at the start of Ben's turn 8 → Ben 1"

# ---- a folder ----------------------------------------------------------------

# a folder is its logs, sub-folders included, in name order (not "read
# error: Is a directory")
run folder audit --json "$SAMPLES/forged"
expect_rc folder 1
n=$(grep -c '^{' "$TMP/folder.out")
[ "$n" -eq 3 ] || fail "folder: $n JSON lines, want the 3 forged games"
expect_out_re folder '^\{"file":"[^"]*/forged/forged-flier-field.jcz"'
mkdir -p "$TMP/nologs"
run nologs audit "$TMP/nologs"
expect_rc nologs 2
expect_err nologs "nologs: a folder with no .jcz or .flierlog file in it"

# ---- compressed and cut-short files --------------------------------------

# a gzip-compressed save is read as what it holds
gzip -c "$SAMPLES/c2-2p.jcz" >"$TMP/c2-2p.jcz.gz"
run gz audit --json "$TMP/c2-2p.jcz.gz"
expect_rc gz 0
expect_out gz '"format":"jcz","valid":true,"finished":true,"turns":79'
head -c 1000 "$TMP/c2-2p.jcz.gz" >"$TMP/cut.jcz.gz"
run gz_cut audit "$TMP/cut.jcz.gz"
expect_rc gz_cut 2
expect_err gz_cut "cut.jcz.gz: the compressed (gzip) file ends early at byte 1000: it was cut short"
# a log cut short says so, not where the JSON parser gave up
head -c 5000 "$SAMPLES/c2-2p.jcz" >"$TMP/cut.jcz"
run cut audit "$TMP/cut.jcz"
expect_rc cut 2
expect_err cut "cut.jcz: the file ends early at byte 5000 (line 1): its JSON stops before it is complete"
# a live (streaming) flierlog whose last record was cut while written
run ndjson convert --to flierlog --ndjson "$SAMPLES/c2-2p.jcz" -o "$TMP/c2.ndjson"
head -c 3000 "$TMP/c2.ndjson" >"$TMP/cut.flierlog"
run cut_nd audit "$TMP/cut.flierlog"
expect_rc cut_nd 2
expect_err cut_nd "cut.flierlog: line 26: the file ends early at byte 3000, inside this record"

# ---- errors that say what to do ----------------------------------------------

run port serve --port 18080
expect_rc port 2
expect_err port "unknown option '--port'"
expect_err port "use --listen HOST:PORT: here, --listen 127.0.0.1:18080"
# check with no database names the path it tried, whole
mkdir -p "$TMP/nodb"
(cd "$TMP/nodb" && "$FLIERD" check >"$TMP/nodb.out" 2>"$TMP/nodb.err" </dev/null; echo $? >"$TMP/nodb.rc")
expect_rc nodb 2
expect_err nodb "flierd check: no database at $(cd "$TMP/nodb" && pwd -P)/flierd.db (the default, flierd.db in the current folder); name one with --db PATH"
[ -e "$TMP/nodb/flierd.db" ] && fail "nodb: check created a database"

# ---- whatif ----------------------------------------------------------------

C2="$SAMPLES/c2-2p.jcz"
run wi whatif "$C2" --turn 24 --roll 2 --landing city:N
expect_rc wi 0
expect_out wi "what if the flier of turn 24 had rolled 2 (not 1)?"
expect_out wi "target (2,0): lands on the city on the north side (city:N)"
expect_out wi "every later move stays legal"
expect_out wi "final scores: Ada 21 -> 21 (+0), Ben 25 -> 24 (-1)"
expect_out wi "winner: Ben (unchanged)"

run wi_json whatif "$C2" --turn 24 --roll 2 --landing city:N --json
expect_rc wi_json 0
expect_out wi_json '"turn":24,"roll":2,"logged_roll":1,"target":[2,0],"options":3,"landing":"city:N","new_violations":[]'
expect_out wi_json '{"name":"Ben","before":25,"after":24,"difference":-1}'
expect_out wi_json '"winner_changes":false'

# flier-returns: Ada's flier of turn 1 landing on the start road makes
# Ben's highwayman of turn 2 illegal; the rest is replayed as logged
FR="$SAMPLES/flier-returns.jcz"
run wi_illegal whatif "$FR" --turn 1 --roll 1 --landing road:WE
expect_rc wi_illegal 0
expect_out wi_illegal "target (0,0): lands on the road running east–west (road:WE)"
expect_out wi_illegal "moves that become illegal:"
expect_out wi_illegal "turn 2, Ben: MEEPLE_FEATURE_OCCUPIED: "
expect_out wi_illegal "final scores: Ada 4 -> 6 (+2), Ben 2 -> 2 (+0)"
expect_no_out wi_illegal "every later move stays legal"
run wi_illegal_json whatif "$FR" --turn 1 --roll 1 --landing road:WE --json
expect_out wi_illegal_json '"logged_roll":2,"target":[0,0],"options":2,"landing":"road:WE","new_violations":[{"turn":2,"player":"Ben","rule":"MEEPLE_FEATURE_OCCUPIED"'

run wi_choose whatif "$C2" --turn 24 --roll 2
expect_rc wi_choose 2
expect_err wi_choose "roll 2 offers 3 landings (road:E, road:W, city:N): choose one with --landing"

run wi_bad_landing whatif "$C2" --turn 24 --roll 2 --landing monastery
expect_rc wi_bad_landing 2
expect_err wi_bad_landing "monastery is no valid landing there; valid: road:E, road:W, city:N"

run wi_noflight whatif "$C2" --turn 1 --roll 1
expect_rc wi_noflight 2
expect_err wi_noflight "turn 1 has no flight; flights are in turns 5, 18, 24 and 26"
# the logged roll again, with another landing: no "rolled 1 (not 1)"
run wi_same whatif "$C2" --turn 24 --roll 1 --landing road:S
expect_rc wi_same 0
expect_out wi_same "what if the flier of turn 24 had rolled 1, as it did?"
expect_out wi_same "target (3,1): lands on the road on the south side (road:S)"
expect_no_out wi_same "(not 1)"

run wi_roll whatif "$C2" --turn 24 --roll 4
expect_rc wi_roll 2
expect_err wi_roll "roll 4 is not a face of the die"

run wi_missing whatif "$TMP/missing.jcz" --turn 24 --roll 2
expect_rc wi_missing 2
expect_err wi_missing "cannot open"

run wi_usage whatif "$C2" --turn 24
expect_rc wi_usage 2
expect_err wi_usage "usage: flierd whatif"

# The operator's commands: --help, and no progress display on a stderr
# that is not a terminal (test_progress draws it on a pseudo-terminal).
for cmd in backup export ingest reaudit simulate; do
    run "help_$cmd" "$cmd" --help
    expect_rc "help_$cmd" 0
    expect_out "help_$cmd" "usage: flierd $cmd"
done
# An unknown option is named, whatever the command; serve's values too.
for cmd in backup check export ingest reaudit serve simulate; do
    run "bogus_$cmd" "$cmd" --bogus
    expect_rc "bogus_$cmd" 2
    expect_err "bogus_$cmd" "'--bogus'"
done
for cmd in backup check export ingest reaudit; do
    run "no_db_$cmd" "$cmd" --db
    expect_rc "no_db_$cmd" 2
    expect_err "no_db_$cmd" "flierd $cmd: --db wants a value"
done
run backup_two backup --db "$TMP/q.db" "$TMP/a" "$TMP/b"
expect_rc backup_two 2
expect_err backup_two "one OUT file only"
run serve_threads serve --threads 0
expect_rc serve_threads 2
expect_err serve_threads "bad value '0' for --threads"
run serve_no_value serve --listen
expect_rc serve_no_value 2
expect_err serve_no_value "--listen wants a value"
expect_out help_backup "--force"
expect_out help_export "index.ndjson"
run ing_quiet ingest --db "$TMP/q.db" "$SAMPLES"
expect_rc ing_quiet 0
[ ! -s "$TMP/ing_quiet.err" ] || fail "ingest wrote to a stderr that is no terminal: $(head -c 200 "$TMP/ing_quiet.err")"
run reaudit_quiet reaudit --db "$TMP/q.db"
expect_rc reaudit_quiet 0
[ ! -s "$TMP/reaudit_quiet.err" ] || fail "reaudit wrote to a stderr that is no terminal"
run export_quiet export --db "$TMP/q.db" "$TMP/q-export"
expect_rc export_quiet 0
expect_out export_quiet "index $TMP/q-export/index.ndjson"
[ ! -s "$TMP/export_quiet.err" ] || fail "export wrote to a stderr that is no terminal"
run backup_usage backup --db "$TMP/q.db"
expect_rc backup_usage 2
expect_err backup_usage "usage: flierd backup"
run export_file export --db "$TMP/q.db" "$TMP/q.db"
expect_rc export_file 2
expect_err export_file "$TMP/q.db"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "test_cli: all checks passed"
