#!/usr/bin/env bash
# valgrind_cli.sh - the CLI on every sample under valgrind memcheck, run by
# ctest when valgrind is found and the build is not sanitized:
#   valgrind_cli.sh VALGRIND FLIERD SAMPLES_DIR
# `flierd audit` (--json and --explain) reads every .jcz and flierlog under
# SAMPLES_DIR; convert, whatif, ingest and copy run on some. Any memcheck
# error or a definite or indirect leak fails (valgrind exits 99). Every
# failure is printed with valgrind's report; the exit status is 1 on any.
set -u

VALGRIND=${1:?usage: valgrind_cli.sh VALGRIND FLIERD SAMPLES_DIR}
FLIERD=${2:?usage: valgrind_cli.sh VALGRIND FLIERD SAMPLES_DIR}
SAMPLES=${3:?usage: valgrind_cli.sh VALGRIND FLIERD SAMPLES_DIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flierd-vg.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

failures=0

# vg NAME "EXIT STATUSES ALLOWED" ARGS... : flierd ARGS under memcheck
vg() {
    local name=$1 allowed=$2 rc
    shift 2
    "$VALGRIND" -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect \
        --log-file="$TMP/$name.vg" \
        "$FLIERD" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
    rc=$?
    case " $allowed " in
    *" $rc "*)
        if [ -s "$TMP/$name.vg" ]; then
            echo "FAIL: $name: valgrind reported (flierd $*):" >&2
            cat "$TMP/$name.vg" >&2
            failures=$((failures + 1))
        fi
        ;;
    *)
        echo "FAIL: $name: exit status $rc, expected one of $allowed" \
             "(flierd $*)" >&2
        cat "$TMP/$name.vg" "$TMP/$name.err" >&2
        failures=$((failures + 1))
        ;;
    esac
}

mapfile -t files < <(find "$SAMPLES" -type f \
                          \( -name '*.jcz' -o -name '*.flierlog' \) | sort)
if [ "${#files[@]}" -lt 10 ]; then
    echo "FAIL: only ${#files[@]} samples under $SAMPLES" >&2
    exit 1
fi

# Forged samples are invalid games: 1. Any sample unreadable (2) fails.
vg audit-json "0 1" audit --json "${files[@]}"
lines=$(wc -l <"$TMP/audit-json.out")
if [ "$lines" -ne "${#files[@]}" ]; then
    echo "FAIL: audit --json printed $lines lines for ${#files[@]} files" >&2
    failures=$((failures + 1))
fi
vg audit-explain "0 1" audit --explain --rule tiny-city-scoring=2 \
    "${files[@]}"

vg convert-flierlog 0 convert --to flierlog "$SAMPLES/c2-5p.jcz" \
    -o "$TMP/c2-5p.flierlog"
vg convert-ndjson 0 convert --to flierlog --ndjson \
    "$SAMPLES/flier-returns.jcz" -o "$TMP/flier-returns.ndjson"
vg convert-jcz 0 convert --to jcz "$SAMPLES/disputed.flierlog" \
    -o "$TMP/disputed.jcz"
vg convert-back 0 convert --to jcz "$TMP/flier-returns.ndjson" \
    -o "$TMP/flier-returns.jcz"
vg whatif "0 1" whatif "$SAMPLES/c2-2p.jcz" --turn 5 --roll 1
vg whatif-json "0 1" whatif "$SAMPLES/c2-2p.flierlog" --turn 5 --roll 2 \
    --json
vg ingest 0 ingest --db "$TMP/games.db" "$SAMPLES"
vg copy 0 copy --from "$TMP/games.db" --to "$TMP/copy.db"

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "valgrind: ${#files[@]} samples and 9 more runs clean"
