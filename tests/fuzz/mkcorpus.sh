#!/usr/bin/env bash
# Writes the seed corpora of the two log targets from samples/: the small
# samples as they are, and the first turns of the longer ones in every
# form the readers take (.jcz, flierlog document, streaming flierlog), so
# each seed stays a few kilobytes and a mutation still reaches the
# auditor quickly. The HTTP seeds (tests/fuzz/corpus/http) are written by
# hand; regression inputs (crash-*, leak-*) are kept.
#
#   tests/fuzz/mkcorpus.sh BUILD_DIR     (needs BUILD_DIR/flierd)
set -euo pipefail
cd "$(dirname "$0")/../.."
flierd=$(realpath "${1:?usage: tests/fuzz/mkcorpus.sh BUILD_DIR}")/flierd
jcz=tests/fuzz/corpus/jcz
fl=tests/fuzz/corpus/flierlog
mkdir -p "$jcz" "$fl"
rm -f "$jcz"/seed-* "$fl"/seed-*
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in tiny-city flier-returns flier-lands-on-shared-monastery; do
    cp "samples/$f.jcz" "$jcz/seed-$f.jcz"
    "$flierd" convert --to flierlog --ndjson "samples/$f.jcz" \
        -o "$fl/seed-$f.ndjson"
done
for f in samples/rules/*.flierlog; do
    cp "$f" "$fl/seed-$(basename "$f")"
done

# cut SAMPLE TURNS: the sample's setup and first TURNS turns, unfinished
cut() {
    local name
    name=$(basename "${1%.*}")-$2t
    "$flierd" convert --to flierlog --ndjson "$1" -o "$tmp/all.ndjson"
    head -n "$(($2 + 1))" "$tmp/all.ndjson" >"$fl/seed-$name.ndjson"
    "$flierd" convert --to flierlog "$fl/seed-$name.ndjson" \
        -o "$fl/seed-$name.flierlog"
    "$flierd" convert --to jcz "$fl/seed-$name.ndjson" \
        -o "$jcz/seed-$name.jcz"
}
cut samples/c2-2p.jcz 12
cut samples/c2-5p.jcz 10
cut samples/c3-4p-abbots.jcz 14
cut samples/disputed.flierlog 10
cut samples/forged/forged-occupied.jcz 30
cut samples/forged/forged-wrong-target.jcz 25
cut samples/forged/forged-flier-field.jcz 30
ls -l "$jcz" "$fl"
