#!/usr/bin/env bash
# unit_names.sh - how much generic code names an expansion or its figures.
#
#   unit_names.sh SOURCE_DIR [BUDGET]
#
# Counts the lines of src/core, src/mlog, src/sim and web/ outside any
# exp/ folder (where a unit's own code lives) that name an expansion, its
# figures or its moves; comments are not counted, nor the lines of the
# X-macro registry of feature and figure classes (core/feature.h: one
# line per class is what a registry is for; everything else a unit names,
# its rule ids, score terms, elements, tile marks, moves, lives in its
# own ID.def). Prints the count per file, then the total; with BUDGET,
# fails when the total is over it, so that code that should live in a
# unit does not creep back into generic files.
set -u
SRC=${1:?usage: unit_names.sh SOURCE_DIR [BUDGET]}
BUDGET=${2:-}
cd "$SRC" || exit 2
WORDS='acrobat|ringmaster|bigtop|big.top|circus|bridge|castle|bazaar|shrine|church|darmstadt|siege|besieged|_ESCAPE|ESCAPE_|crop circle|corn-circle|CIRCLE_|\bcorn\b|\bcult\b|special-monastery|abbot_seat|tower|dragon|fairy|princess|quarter|abbey|wagon|barn|mayor|builder|pig|river|\binns?\b|cathedral|phantom|portal|ransom|captur|prisoner|volcano|goods|trader|FIG_COUNT|EXP_COUNT|\bthe count\b|"count"|winter|gq11|spiel.doch|\bking\b|robber|wind.rose|little.building|festival|tunnel|labyrinth|russian|yaga|vodyanoy|\btrap\b|\bhills?\b|sheep|shepherd|flock|\bwolf\b|vineyard|\bgold|\bmage\b|\bwitch|ferry|ferries|watchtower'
total=0
while IFS= read -r -d '' f; do
    # comments out (their newlines kept), then the registries' X(...) lines
    registry='^$'
    case $f in src/core/feature.h) registry='^[[:space:]]*X\(' ;; esac
    n=$(perl -0777 -pe 's{/\*.*?\*/}{ (my $s = $&) =~ s/[^\n]//g; $s }gse;
                        s{(^|[^:"\\])//[^\n]*}{$1}g' "$f" |
        grep -Ev "$registry" | grep -Eic "$WORDS")
    if [ "$n" -gt 0 ]; then
        printf '%5d  %s\n' "$n" "$f"
        total=$((total + n))
    fi
done < <(find src/core src/mlog src/sim web -type f \
              \( -name '*.c' -o -name '*.h' -o -name '*.js' \) \
              -not -path '*/exp/*' -print0 | sort -z)
printf '%5d  total\n' "$total"
if [ -n "$BUDGET" ] && [ "$total" -gt "$BUDGET" ]; then
    echo "FAIL: $total lines of generic code name an expansion (budget $BUDGET):" \
         "move them into the unit's exp/ files"
    exit 1
fi
exit 0
