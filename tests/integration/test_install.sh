#!/bin/bash
# `cmake --install` into a temporary root (DESTDIR, prefix /usr): the
# files are where they belong, nothing else is installed, and the
# installed daemon, started elsewhere without --web, serves the dashboard,
# the API and a game page.
# usage: test_install.sh CMAKE BUILD_DIR SAMPLES_DIR
set -u
cmake=$1 build=$2 samples=$3
tmp=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/serve.err" ] && cat "$tmp/serve.err"; exit 1; }

root=$tmp/root
DESTDIR=$root "$cmake" --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install"; }

for f in usr/bin/flierd usr/share/man/man1/flierd.1 usr/share/man/man5/flierlog.5 \
         usr/lib/systemd/system/flierd.service \
         usr/share/doc/flierd/README.md usr/share/doc/flierd/log-format.md \
         usr/share/doc/flierd/api.md usr/share/doc/flierd/flierlog.schema.json \
         usr/share/doc/flierd/samples/c2-2p.jcz; do
    [ -e "$root/$f" ] || fail "$f not installed"
done
[ -x "$root/usr/bin/flierd" ] || fail "usr/bin/flierd not executable"
# only flierd and its data: one program, nothing outside these folders
[ "$(ls "$root/usr/bin")" = flierd ] || fail "usr/bin holds $(ls "$root/usr/bin")"
extra=$(cd "$root" && find . -type f | grep -vE '^\./usr/(bin/flierd|share/man/man[15]/|share/doc/flierd/|lib/systemd/system/flierd\.service$)')
[ -z "$extra" ] || fail "unexpected files: $extra"
grep -q '^ExecStart=/usr/bin/flierd serve ' "$root/usr/lib/systemd/system/flierd.service" ||
    fail "the unit does not start /usr/bin/flierd"

# another prefix: the unit follows the binary
DESTDIR=$tmp/root2 "$cmake" --install "$build" --prefix /opt/fl >"$tmp/install2.log" 2>&1 ||
    fail "cmake --install --prefix /opt/fl"
[ -x "$tmp/root2/opt/fl/bin/flierd" ] || fail "/opt/fl/bin/flierd not installed"
grep -q '^ExecStart=/opt/fl/bin/flierd serve ' "$tmp/root2/opt/fl/lib/systemd/system/flierd.service" ||
    fail "the unit under /opt/fl does not name /opt/fl/bin/flierd"

# the installed binary, run from an empty folder, no --web
bin=$root/usr/bin/flierd
"$bin" version | grep -q '^flierd ' || fail "flierd version"
mkdir "$tmp/run" && cd "$tmp/run" || fail "mkdir"
"$bin" ingest --db "$tmp/g.db" --quiet "$samples/c2-2p.jcz" >/dev/null 2>&1 ||
    fail "flierd ingest"
"$bin" serve --db "$tmp/g.db" --listen 127.0.0.1:0 --quiet \
    >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
url=
for _ in $(seq 100); do
    url=$(grep -oE 'listening on http://[0-9.]+:[0-9]+' "$tmp/serve.out" | sed 's/listening on //')
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || fail "the daemon exited"
    sleep 0.1
done
[ -n "$url" ] || fail "no 'listening on' line"

get() { # PATH EXPECTED_TEXT
    local body
    body=$(curl -sS --max-time 10 -f "$url$1") || fail "GET $1"
    printf '%s' "$body" | grep -q -- "$2" || fail "GET $1: no '$2' in the answer"
}
get / '<html'
get /api/games '"games"'
get /games/1 '<html'

# and in a browser: the replay page of the installed dashboard draws the
# board (Chromium runs the modules and their API calls; virtual time lets
# them finish before the page is dumped)
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || fail "no Chromium at $chromium (apt-get install chromium)"
dom=$("$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
      --user-data-dir="$tmp/chromium" --virtual-time-budget=10000 \
      --dump-dom "$url/games/1" 2>/dev/null) || fail "chromium --dump-dom"
printf '%s' "$dom" | grep -q 'class="tile' ||
    fail "the replay page of the installed daemon drew no tile"

kill -TERM "$pid"
wait "$pid"; rc=$?
pid=
[ "$rc" = 0 ] || fail "the daemon exited $rc on SIGTERM"
[ -z "$(ls -A "$tmp/run")" ] || fail "the daemon wrote into its working folder: $(ls -A "$tmp/run")"
echo "ok: installed files, prefix /usr and /opt/fl, the installed daemon served /, /api/games, /games/1 (drawn in Chromium)"
