#!/bin/bash
# The man pages: for every command, the options 'flierd CMD --help'
# lists are exactly those its section of flierd(1) lists; and each page
# formats without a warning.
# usage: test_man.sh FLIERD MANDIR
set -u
flierd=$1 mandir=$2
fail=0
page=$mandir/flierd.1

# options in a text: --long-names, and -x single letters standing alone
opts() {
    grep -oE '(^|[^A-Za-z0-9-])--?[a-z][a-z0-9-]*' |
        sed -E 's/^[^-]*//' | grep -vxE -- '--help|--version|-[a-z][a-z0-9]+-?.*' |
        grep -E -- '^(--[a-z][a-z0-9-]*|-[a-z])$' | sort -u
}

# the text of a command's .SS section, its roff \- made plain -
section() {
    awk -v cmd="$1" '
        /^\.S[HS] / { on = ($1 == ".SS" && $2 == cmd); next }
        on' "$page" | sed 's/\\-/-/g'
}

cmds=$("$flierd" --help | awk '/^commands:/ {c = 1; next}
                               c && /^  [a-z]/ {print $1}')
[ -n "$cmds" ] || { echo "FAIL: no commands in 'flierd --help'"; exit 1; }
for cmd in $cmds; do
    help=$("$flierd" "$cmd" --help 2>&1)
    if ! grep -q "^\.SS $cmd\$" "$page"; then
        echo "FAIL: flierd(1) has no section for '$cmd'"; fail=1; continue
    fi
    in_help=$(printf '%s\n' "$help" | opts)
    in_man=$(section "$cmd" | opts)
    if [ "$in_help" != "$in_man" ]; then
        echo "FAIL: '$cmd': options differ (< --help, > flierd(1)):"
        diff <(printf '%s\n' "$in_help") <(printf '%s\n' "$in_man")
        fail=1
    fi
done

# every expansion the simulator takes (its --help lists the registry's)
# is in flierd(1)'s simulate section
units=$("$flierd" simulate --help | awk '/--expansions/ {e = 1; next}
                                        e && /^  --/ {e = 0}
                                        e && /^                 [a-z]/ {print $1}')
[ -n "$units" ] || { echo "FAIL: no expansions in 'flierd simulate --help'"; fail=1; }
for u in $units; do
    if ! section simulate | grep -qE "^\.BR $u( |,|\.|$)"; then
        echo "FAIL: flierd(1) simulate --expansions does not list '$u'"; fail=1
    fi
done

# formatting: no warning from the formatter
for p in "$mandir"/*.[1-9]; do
    if command -v groff >/dev/null; then
        w=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
    elif command -v mandoc >/dev/null; then
        w=$(mandoc -T lint -W warning "$p" 2>&1)
    else
        w=$(MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
    fi
    if [ -n "$w" ]; then
        echo "FAIL: $(basename "$p"):"; echo "$w"; fail=1
    fi
done
[ "$fail" = 0 ] && echo "ok: man pages match --help ($(echo $cmds | wc -w) commands) and format cleanly"
exit $fail
