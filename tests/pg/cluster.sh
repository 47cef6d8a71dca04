#!/usr/bin/env bash
# cluster.sh start|stop|restart DIR - a throwaway PostgreSQL cluster for
# the tests, in DIR (keep it short: the server's socket lives there and a
# socket's path has about 100 bytes).
#
# start: initdb and pg_ctl from Debian's postgresql package (the newest
# /usr/lib/postgresql/*/bin), as the calling user, or as the postgres
# system user when called as root (the server refuses root); the server
# listens on a unix socket in DIR only (no TCP port to collide with), and
# trusts local connections (nothing but this machine's users reach DIR).
# It runs without fsync: a clean stop or restart still keeps every
# commit, and only a crash of the machine would lose one (DURABLE=1: with
# fsync, as a real server, for the benchmarks; STATEMENTS=1: with
# pg_stat_statements loaded, to see where the server's time goes: CREATE
# EXTENSION pg_stat_statements in a database, then read the view).
# Prints the connection URI of its "postgres" database. A cluster left in DIR by an
# earlier run is stopped and removed first.
# restart: pg_ctl restart (the fault tests). stop: stop it, remove DIR.
set -euo pipefail
cmd=${1:?usage: cluster.sh start|stop|restart DIR}
dir=${2:?usage: cluster.sh start|stop|restart DIR}
dir=$(realpath -m "$dir")
# the server's user may not enter the caller's folder (root's home)
cd /
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "cluster.sh: no PostgreSQL server found in /usr/lib/postgresql" \
         "(apt-get install postgresql)" >&2
    exit 1
fi
as=()
if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || {
        echo "cluster.sh: run as root, but there is no postgres user to run" \
             "the server as (apt-get install postgresql makes one)" >&2
        exit 1
    }
    as=(runuser -u postgres --)
fi
port=5432
fsync=off
[ "${DURABLE:-0}" = 1 ] && fsync=on
preload=
[ "${STATEMENTS:-0}" = 1 ] &&
    preload="-c shared_preload_libraries=pg_stat_statements"

stop() {
    if [ -f "$dir/data/postmaster.pid" ]; then
        "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop \
            >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case $cmd in
start)
    stop
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ ${#as[@]} -eq 0 ] || chown postgres: "$dir"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U flierd -A trust -E UTF8 \
        --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2
        exit 1
    }
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' \
            -c port=$port -c fsync=$fsync -c full_page_writes=$fsync \
            -c max_connections=300 -c shared_buffers=64MB $preload" start \
        >/dev/null || {
        cat "$dir/server.log" >&2
        exit 1
    }
    echo "postgresql:///postgres?host=$dir&port=$port&user=flierd"
    ;;
restart)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -m fast restart >/dev/null
    ;;
stop)
    stop
    ;;
*)
    echo "usage: cluster.sh start|stop|restart DIR" >&2
    exit 2
    ;;
esac
