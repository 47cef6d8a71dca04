#!/bin/bash
# The Debian package end to end, as root on a Debian machine where flierd
# is not installed: cpack -G DEB in the build folder, dpkg -i, the
# installed binary against a fresh database (flierd serve, the API, check),
# dpkg -r (state kept), dpkg -P (state and token gone).
# Not part of ctest: it changes the machine's package set.
# usage: tests/package/test_deb.sh BUILD_DIR
set -u
build=${1:?usage: test_deb.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root (dpkg -i)"
if dpkg-query -W -f '${Status}' flierd 2>/dev/null | grep -q installed; then
    fail "flierd is installed already; this test would replace it"
fi
tmp=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$tmp"
    dpkg-query -W flierd >/dev/null 2>&1 && dpkg -P flierd >/dev/null 2>&1
}
trap cleanup EXIT

(cd "$build" && rm -f flierd_*.deb && cpack -G DEB >"$tmp/cpack.log" 2>&1) ||
    { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$build"/flierd_*.deb) || fail "no package built"
dpkg -i "$deb" || fail "dpkg -i"
[ -x /usr/bin/flierd ] || fail "/usr/bin/flierd not installed"
[ -f /usr/lib/systemd/system/flierd.service ] || fail "the unit not installed"
grep -q '^ExecStart=/usr/bin/flierd serve ' /usr/lib/systemd/system/flierd.service ||
    fail "the unit does not start /usr/bin/flierd"
[ -s /etc/flierd/token ] || fail "postinst made no token"
[ "$(stat -c %a /etc/flierd/token)" = 600 ] || fail "the token is not 0600"
man -w flierd >/dev/null 2>&1 || [ -f /usr/share/man/man1/flierd.1.gz ] ||
    [ -f /usr/share/man/man1/flierd.1 ] || fail "flierd(1) not installed"
/usr/bin/flierd version || fail "flierd version"

# the installed binary on a fresh database, from an empty folder
mkdir "$tmp/run" && cd "$tmp/run" || fail mkdir
/usr/bin/flierd ingest --db "$tmp/g.db" --quiet /usr/share/doc/flierd/samples/c2-2p.jcz \
    >/dev/null 2>&1 || fail "flierd ingest"
/usr/bin/flierd serve --db "$tmp/g.db" --listen 127.0.0.1:0 --quiet \
    --token-file /etc/flierd/token >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
url=
for _ in $(seq 100); do
    url=$(grep -oE 'http://[0-9.]+:[0-9]+' "$tmp/serve.out")
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve.err"; fail "the daemon exited"; }
    sleep 0.1
done
[ -n "$url" ] || fail "no 'listening on' line"
curl -sSf --max-time 10 "$url/" | grep -q '<html' || fail "GET /"
curl -sSf --max-time 10 "$url/api/games" | grep -q '"games"' || fail "GET /api/games"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST \
       --data-binary @/usr/share/doc/flierd/samples/tiny-city.jcz "$url/api/games")
[ "$code" = 401 ] || fail "an upload without the token answered $code, not 401"
kill -TERM "$pid"; wait "$pid" || fail "the daemon did not exit 0 on SIGTERM"
pid=
/usr/bin/flierd check --db "$tmp/g.db" --quiet || fail "flierd check"
cd / || fail cd

# remove: the binary goes, the configuration (token) and state stay
mkdir -p /var/lib/flierd && touch /var/lib/flierd/.test_deb
dpkg -r flierd || fail "dpkg -r"
[ ! -e /usr/bin/flierd ] || fail "/usr/bin/flierd still there after dpkg -r"
[ -e /etc/flierd/token ] || fail "dpkg -r removed the token"
[ -e /var/lib/flierd/.test_deb ] || fail "dpkg -r removed the state"
# purge: the state and the token go
dpkg -P flierd || fail "dpkg -P"
[ ! -e /etc/flierd ] || fail "/etc/flierd still there after dpkg -P"
[ ! -e /var/lib/flierd ] || fail "/var/lib/flierd still there after dpkg -P"
dpkg-query -W flierd >/dev/null 2>&1 && fail "flierd still known to dpkg"
echo "ok: built, installed, served, removed and purged $(basename "$deb")"
