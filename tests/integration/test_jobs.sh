#!/usr/bin/env bash
# test_jobs.sh - `flierd audit -j N` writes the bytes `-j 1` writes (stdout,
# stderr, exit status), text and --json, on every sample and every game of
# the shared corpora, with unreadable inputs among them:
#   test_jobs.sh FLIERD SAMPLES_DIR SHARED_DIR
set -u
FLIERD=${1:?usage: test_jobs.sh FLIERD SAMPLES_DIR SHARED_DIR}
SAMPLES=${2:?usage: test_jobs.sh FLIERD SAMPLES_DIR SHARED_DIR}
SHARED=${3:?usage: test_jobs.sh FLIERD SAMPLES_DIR SHARED_DIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flierd-jobs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find "$SAMPLES" "$SHARED/peer/jcz/games" "$SHARED/peer/jcz/expansions" \
         "$SHARED/peer/jcz/forgeries" \( -name '*.jcz' -o -name '*.flierlog' \) \
         -print0 2>/dev/null | sort -z)
[ "${#files[@]}" -ge 50 ] || { echo "FAIL: only ${#files[@]} logs found"; exit 1; }
# an unreadable input at the start, in the middle and at the end
mid=$(( ${#files[@]} / 2 ))
files=("$TMP/missing-1.jcz" "${files[@]:0:$mid}" "$TMP/missing-2.flierlog"
       "${files[@]:$mid}" "$TMP/missing-3.jcz")

fail=0
for mode in "--json" "--explain"; do
    "$FLIERD" audit $mode -j 1 "${files[@]}" >"$TMP/1.out" 2>"$TMP/1.err"
    rc1=$?
    [ -s "$TMP/1.out" ] || { echo "FAIL: -j 1 $mode wrote nothing"; fail=1; }
    grep -q "missing-2.flierlog" "$TMP/1.err" ||
        { echo "FAIL: -j 1 $mode: no error for a missing file"; fail=1; }
    for j in 2 3 8; do
        "$FLIERD" audit $mode -j $j "${files[@]}" >"$TMP/j.out" 2>"$TMP/j.err"
        rc=$?
        [ $rc -eq $rc1 ] ||
            { echo "FAIL: $mode -j $j exit $rc, -j 1 exit $rc1"; fail=1; }
        cmp -s "$TMP/1.out" "$TMP/j.out" ||
            { echo "FAIL: $mode -j $j: stdout differs from -j 1"; fail=1; }
        cmp -s "$TMP/1.err" "$TMP/j.err" ||
            { echo "FAIL: $mode -j $j: stderr differs from -j 1"; fail=1; }
    done
done
"$FLIERD" audit -j 0 "${files[1]}" >/dev/null 2>"$TMP/bad.err"
[ $? -eq 2 ] && grep -q "number of threads" "$TMP/bad.err" ||
    { echo "FAIL: -j 0 is not refused with a reason"; fail=1; }
[ $fail -eq 0 ] && echo "test_jobs: ${#files[@]} inputs, -j 2/3/8 == -j 1"
exit $fail
