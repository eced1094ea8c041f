#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the fleet store's tests and CI (docs/store.md).
#
# Usage:
#   eval "$(scripts/test-postgres.sh start)"   # install if needed, create, start; prints exports
#   swift test --filter BLEFleetStoreTests      # PostgreSQL tests now run instead of skipping
#   scripts/test-postgres.sh stop               # stop the server, keep the data (idempotent)
#   scripts/test-postgres.sh start              # start it again (idempotent, a second or two)
#   scripts/test-postgres.sh status             # "running" or "stopped", exit 0 or 3
#   scripts/test-postgres.sh destroy            # stop and remove the cluster
#
# `start` prints, on standard output and nothing else there:
#   export SWIFTBLE_TEST_POSTGRES=postgres://swiftble@127.0.0.1:55432/swiftble_test
#   export SWIFTBLE_TEST_POSTGRES_CTL=/abs/path/scripts/test-postgres.sh
# The tests use the first as the admin URL (each test creates and drops its own database) and
# the second to stop and start the server in the reconnection test.
#
# What it sets up:
#   - Debian's `postgresql` package, installed with apt-get when no /usr/lib/postgresql/*/bin/pg_ctl
#     is found (needs root, as on a fresh Debian 12 machine or in CI).
#   - A cluster in $SWIFTBLE_PG_DIR (default /tmp/swiftble-pg), owned by the `postgres` user:
#     initdb and postgres refuse to run as root, so root runs them through `runuser -u postgres`.
#   - Listening only on 127.0.0.1, port $SWIFTBLE_PG_PORT (default 55432), its Unix socket in the
#     cluster's directory. fsync is off: the cluster is throwaway, the tests want speed.
#   - Roles: `swiftble` (superuser, trusted: no password) and `swiftble_pw` (password
#     `right-password`, checked with scram-sha-256) for the wrong-password test; database
#     `swiftble_test` owned by `swiftble`.
set -euo pipefail

PG_DIR="${SWIFTBLE_PG_DIR:-/tmp/swiftble-pg}"
PG_PORT="${SWIFTBLE_PG_PORT:-55432}"
DATA="$PG_DIR/data"
SCRIPT="$(readlink -f "${BASH_SOURCE[0]}")"

say() { echo "test-postgres: $*" >&2; }

# The newest installed server's bin directory, or nothing.
find_bin() {
    local dir
    # Sort by the version number (the glob would put 10 before 9) and keep the highest.
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4,4n | while read -r dir; do
        if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then echo "$dir"; fi
    done | tail -n 1
}

ensure_installed() {
    BIN="$(find_bin)"
    if [ -z "$BIN" ]; then
        [ "$(id -u)" = 0 ] || { say "PostgreSQL is not installed and installing it needs root (apt-get install postgresql)"; exit 1; }
        say "installing Debian's postgresql package"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq postgresql >&2
        BIN="$(find_bin)"
        [ -n "$BIN" ] || { say "apt-get installed postgresql but no /usr/lib/postgresql/*/bin/pg_ctl appeared"; exit 1; }
    fi
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

is_running() {
    [ -n "${BIN:-}" ] && [ -f "$DATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

create_cluster() {
    say "creating a cluster in $DATA"
    mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DIR"
    chmod 700 "$PG_DIR"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 \
        || { cat "$PG_DIR/initdb.log" >&2; exit 1; }
    as_owner tee -a "$DATA/postgresql.conf" >/dev/null <<EOF
# test-postgres.sh: loopback only, our own socket directory, speed over durability.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
EOF
    # First match wins: the password role must prove its password, everyone else is trusted.
    as_owner tee "$DATA/pg_hba.conf" >/dev/null <<EOF
# TYPE  DATABASE  USER         ADDRESS        METHOD
local   all       swiftble_pw                 scram-sha-256
host    all       swiftble_pw  127.0.0.1/32   scram-sha-256
local   all       all                         trust
host    all       all          127.0.0.1/32   trust
EOF
}

psql_admin() {
    as_owner "$BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt "$@"
}

create_roles() {
    psql_admin -c "DO \$\$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'swiftble') THEN CREATE ROLE swiftble SUPERUSER LOGIN; END IF;
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'swiftble_pw') THEN CREATE ROLE swiftble_pw LOGIN PASSWORD 'right-password'; END IF;
    END \$\$;" >&2
    if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = 'swiftble_test'")" != 1 ]; then
        psql_admin -c "CREATE DATABASE swiftble_test OWNER swiftble" >&2
    fi
}

start() {
    ensure_installed
    [ -f "$DATA/PG_VERSION" ] || create_cluster
    if ! is_running; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -l "$PG_DIR/server.log" -w -t 60 -o "-p $PG_PORT" start >&2 \
            || { tail -n 20 "$PG_DIR/server.log" >&2; exit 1; }
    fi
    create_roles
    say "running on 127.0.0.1:$PG_PORT ($("$BIN/postgres" --version))"
    echo "export SWIFTBLE_TEST_POSTGRES=postgres://swiftble@127.0.0.1:$PG_PORT/swiftble_test"
    echo "export SWIFTBLE_TEST_POSTGRES_CTL=$SCRIPT"
}

stop() {
    BIN="$(find_bin)"
    if is_running; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop >&2
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status)
        BIN="$(find_bin)"
        if is_running; then echo running; else echo stopped; exit 3; fi ;;
    destroy)
        stop
        rm -rf "$PG_DIR"
        say "removed $PG_DIR" ;;
    *)
        echo "usage: $0 start|stop|status|destroy (see the comment at the top of $SCRIPT)" >&2
        exit 2 ;;
esac
