#!/usr/bin/env bash
# test_pins.sh - `flierd audit --json` of every sample and every game of
# the shared peer data (engine tests, corpora, forgeries) is what it was
# when pinned: a refactoring of the engine changes no audit. The pins are
# SHA-256 digests of each file's JSON line (tests/pins/audit.sha256), so
# none of the peer data is copied here. After a change that is meant to
# change audits, look at what changed (the FAIL lines name the files) and
# pin again:
#   test_pins.sh FLIERD SAMPLES_DIR SHARED_DIR PINS [--update]
set -u
usage="usage: test_pins.sh FLIERD SAMPLES_DIR SHARED_DIR PINS [--update]"
FLIERD=${1:?$usage}
SAMPLES=${2:?$usage}
SHARED=${3:?$usage}
PINS=${4:?$usage}
UPDATE=${5:-}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flierd-pins.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# Names as the pins file writes them: samples/... and peer/jcz/...
names=()
while IFS= read -r -d '' f; do names+=("samples/${f#"$SAMPLES"/}"); done < <(
    find "$SAMPLES" \( -name '*.jcz' -o -name '*.flierlog' \) -print0 | sort -z)
while IFS= read -r -d '' f; do names+=("${f#"$SHARED"/}"); done < <(
    find "$SHARED/peer/jcz" \( -name '*.jcz' -o -name '*.flierlog' \) -print0 |
    sort -z)
[ "${#names[@]}" -ge 1000 ] ||
    { echo "FAIL: only ${#names[@]} logs found under $SAMPLES and $SHARED"; exit 1; }
paths=()
for n in "${names[@]}"; do
    case $n in
    samples/*) paths+=("$SAMPLES/${n#samples/}") ;;
    *) paths+=("$SHARED/$n") ;;
    esac
done

"$FLIERD" audit --json -j 2 "${paths[@]}" >"$TMP/audit.json" 2>"$TMP/audit.err"
rc=$?
[ $rc -le 2 ] || { echo "FAIL: flierd audit exited $rc"; cat "$TMP/audit.err"; exit 1; }
lines=$(wc -l <"$TMP/audit.json")
[ "$lines" -eq "${#names[@]}" ] ||
    { echo "FAIL: $lines JSON lines for ${#names[@]} files"; exit 1; }

# one "digest  name" line per file, in the order above; the line without
# what depends on where it ran (the file's path) and the version
i=0
sed -E 's/^\{"file":"([^"\\]|\\.)*"/{"file":""/; s/"engine":"flierd [^"]*"/"engine":""/' \
    "$TMP/audit.json" >"$TMP/audit.norm"
while IFS= read -r line; do
    d=$(printf '%s\n' "$line" | sha256sum)
    printf '%s  %s\n' "${d%% *}" "${names[$i]}"
    i=$((i + 1))
done <"$TMP/audit.norm" >"$TMP/now.sha256"

if [ "$UPDATE" = --update ]; then
    cp "$TMP/now.sha256" "$PINS"
    echo "pinned ${#names[@]} audits in $PINS"
    exit 0
fi
[ -f "$PINS" ] || { echo "FAIL: no pins at $PINS (run with --update)"; exit 1; }

fail=0
# every pinned file still there, and each digest the same
join -1 2 -2 2 -a 1 -a 2 -e MISSING -o 0,1.1,2.1 \
    <(sort -k2 "$PINS") <(sort -k2 "$TMP/now.sha256") >"$TMP/joined"
while read -r name pinned now; do
    if [ "$pinned" != "$now" ]; then
        if [ "$now" = MISSING ]; then
            echo "FAIL: $name: pinned, but no longer found"
        elif [ "$pinned" = MISSING ]; then
            echo "FAIL: $name: not pinned (a new file: pin again)"
        else
            echo "FAIL: $name: its audit --json changed"
        fi
        fail=$((fail + 1))
    fi
done <"$TMP/joined"
echo "pins: ${#names[@]} audits, $fail changed"
[ $fail -eq 0 ] && echo "${#names[@]} passed, 0 failed" ||
    echo "$(( ${#names[@]} - fail )) passed, $fail failed"
[ $fail -eq 0 ]
