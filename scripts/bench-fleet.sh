#!/usr/bin/env bash
# The fleet layer's figures, all measured in one run so their ratios compare (docs/gateway-benchmarks.md):
#
#   1. sightings per wall second ONE gateway takes from a dense simulated world into SQLite and
#      into PostgreSQL, beside what the world and host deliver when nothing is stored;
#   2. what ONE PostgreSQL takes from 20 gateways at once (one `ble gateway --fleet`), beside
#      psql `\copy … from` of the same rows into the same (truncated) table;
#   3. the radio's limit, computed (not measured) for comparison;
#   4. a gateway's memory: max RSS after 60 and after 3600 simulated seconds into SQLite.
#
# Usage (from the package root, after `swift build -c release --product ble --scratch-path .build-release`):
#   scripts/bench-fleet.sh                 # prints the figures and a Markdown table at the end
#
# Knobs (environment variables), with their defaults:
#   BLE=.build-release/release/ble   the binary measured (a debug build gives other figures: say which)
#   BENCH_BEACONS=200                iBeacons in the crowd around the gateway (20 a row, 1 m apart)
#   BENCH_INTERVAL_MS=100            their advertising interval
#   BENCH_SECONDS=60                 simulated seconds of each single-gateway run
#   BENCH_FLEET=20                   gateways in the fleet run, each on its own world (own seed)
#   BENCH_FLEET_SECONDS=20           simulated seconds of the fleet run
#   BENCH_HOUR_SECONDS=3600          simulated seconds of the memory run (0 skips it)
#   BENCH_RUN_TIMEOUT=900            wall seconds any one run may take before SIGINT (it then flushes)
#   BENCH_PG_PORT=55442              the throwaway PostgreSQL's port (loopback only; must be free)
#   BENCH_PG_DURABLE=1               fsync and synchronous_commit on in that cluster (test-postgres.sh
#                                    turns them off for tests); 0 leaves them off
#   BENCH_KEEP=0                     1 keeps the work folder (logs, databases, CSV) for inspection
#
# Rates count the rows the database holds (COUNT(*)), not the summary's "stored": at --speed max the
# gateway's last write can fail with CancellationError after the database committed it (see
# docs/gateway-benchmarks.md), so the summary undercounts and leaves those rows "still spooled".
#
# How the gateways run: `ble gateway --hci sim:FILE --speed max --seconds N`. At --speed max the
# world runs on virtual time as fast as the host takes its packets (the gateway's work and the
# spool's fsync hold the world's thread; the store's async writes do not, and the scan stream then
# keeps its newest 4096 reports), so stored / wall seconds is what the gateway sustains. The world
# is generated here (a variant of Scenarios/crowd.yaml whose centre device is `host: external`, the
# device `sim:FILE` attaches the gateway's host to) into the work folder, never into git.
#
# What it touches: a work folder from mktemp under /tmp, and its own PostgreSQL cluster in
# /tmp/bench-fleet-pg-PID on 127.0.0.1:$BENCH_PG_PORT (started with scripts/test-postgres.sh),
# both removed on exit, also on failure or Ctrl-C. Everything runs under `nice -n 10`: the machine
# is shared. Times on a shared 2-core machine are noisy: read the ratios, never assert the times.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BLE="${BLE:-$ROOT/.build-release/release/ble}"
BEACONS="${BENCH_BEACONS:-200}"
INTERVAL_MS="${BENCH_INTERVAL_MS:-100}"
ONE_SECONDS="${BENCH_SECONDS:-60}"
FLEET="${BENCH_FLEET:-20}"
FLEET_SECONDS="${BENCH_FLEET_SECONDS:-20}"
HOUR_SECONDS="${BENCH_HOUR_SECONDS:-3600}"
RUN_TIMEOUT="${BENCH_RUN_TIMEOUT:-900}"
PG_PORT="${BENCH_PG_PORT:-55442}"
PG_DURABLE="${BENCH_PG_DURABLE:-1}"
KEEP="${BENCH_KEEP:-0}"

say() { echo "bench-fleet: $*" >&2; }
die() { say "$*"; exit 1; }

[ -x "$BLE" ] || die "no $BLE: build it first (swift build -c release --product ble --scratch-path .build-release)"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (apt-get install -y time)"
command -v psql >/dev/null || die "psql is missing (apt-get install -y postgresql-client)"
command -v python3 >/dev/null || die "python3 is missing (the SQLite counts and the scenario use it)"
if ss -ltn 2>/dev/null | grep -q "[:.]$PG_PORT "; then die "port $PG_PORT is taken: set BENCH_PG_PORT to a free one"; fi

WORK="$(mktemp -d /tmp/bench-fleet.XXXXXX)"
PG_DIR="/tmp/bench-fleet-pg-$$"
PG_ADMIN="postgres://swiftble@127.0.0.1:$PG_PORT/postgres"
SAMPLER=""
pg_ctl_script() { SWIFTBLE_PG_DIR="$PG_DIR" SWIFTBLE_PG_PORT="$PG_PORT" "$ROOT/scripts/test-postgres.sh" "$@"; }
cleanup() {
    local status=$?
    [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null || true
    [ -d "$PG_DIR" ] && pg_ctl_script destroy >/dev/null 2>&1 || true
    if [ "$KEEP" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

RESULTS="$WORK/results.tsv"   # figure \t value \t command
: >"$RESULTS"
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$RESULTS"; say "$1: $2"; }

# --- The worlds ---------------------------------------------------------------------------------
# Scenarios/crowd.yaml with the visitor replaced by the gateway's own device (host: external, which
# `sim:FILE` attaches the host to; the host then scans as the gateway asks: passive, continuous).
make_world() {  # make_world FILE SEED
    python3 - "$1" "$2" "$BEACONS" "$INTERVAL_MS" <<'EOF'
import sys
path, seed, beacons, interval = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
uuid = "B9407F30-F5F8-466E-AFF9-25556B57FE6D"
columns = 20
rows = (beacons + columns - 1) // columns
lines = [f"""# bench-fleet.sh: {beacons} iBeacons every {interval} ms on a {columns}-wide grid 1 m apart under a
# 3 m ceiling (Scenarios/crowd.yaml's hall), the gateway's controller at the centre, 1.2 m up.
name: bench-crowd
seed: {seed}
timing: realistic
radio:
  referenceLossDB: 40
  pathLossExponent: 2.5
  shadowingSigmaDB: 2
  captureMarginDB: 6
devices:
  - name: gateway
    address: "F0:5B:1E:00:00:01"
    addressType: public
    position: [0, 0, 1.2]
    host: external"""]
for number in range(1, beacons + 1):
    column, row = (number - 1) % columns, (number - 1) // columns
    x, y = -(columns - 1) / 2 + column, -(rows - 1) / 2 + row
    address = f"C0:C0:00:00:{number >> 8:02X}:{number & 0xFF:02X}"
    lines.append(f'  - {{name: beacon {number:04d}, address: "{address}", addressType: random, position: [{x}, {y}, 3], '
                 f"txPower: -12, startAt: random, advertise: {{type: nonconn_ind, interval: {interval}, "
                 f"iBeacon: {{uuid: {uuid}, major: 1, minor: {number}, measuredPower: -52}}}}}}")
open(path, "w").write("\n".join(lines) + "\n")
EOF
}
WORLD="$WORK/crowd-$BEACONS.yaml"
make_world "$WORLD" 200

# --- Running a gateway and reading what it says ---------------------------------------------------
# run_gateway LABEL ARGS…: runs `ble gateway ARGS…` niced, under /usr/bin/time -v and a timeout;
# leaves LABEL.out (the summary lines), LABEL.err (the log) and LABEL.time (time -v).
run_gateway() {
    local label="$1"; shift
    local status=0
    nice -n 10 /usr/bin/time -v -o "$WORK/$label.time" timeout -s INT -k 60 "$RUN_TIMEOUT" \
        "$BLE" gateway --spool "$WORK/spool-$label" "$@" >"$WORK/$label.out" 2>"$WORK/$label.err" || status=$?
    if [ "$status" = 124 ]; then say "$label: stopped by the $RUN_TIMEOUT s timeout (figures cover what it did)"; fi
    if [ "$status" != 0 ] && [ "$status" != 124 ]; then
        say "$label: ble gateway exited $status"; tail -n 5 "$WORK/$label.err" >&2; return 1
    fi
}
# The summary lines summed: advertisements kept stored spooled dropped.
summary() {
    sed -nE 's/^gateway ".*": ([0-9]+) advertisements, ([0-9]+) sightings kept, ([0-9]+) stored, ([0-9]+) still spooled, ([0-9]+) dropped$/\1 \2 \3 \4 \5/p' \
        "$WORK/$1.out" | awk '{a+=$1; k+=$2; s+=$3; p+=$4; d+=$5; n++} END {if (n == 0) exit 1; print a, k, s, p, d}'
}
# Wall seconds, max RSS (KiB) and CPU seconds (user + system) from time -v.
wall() { awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$WORK/$1.time"; }
rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/$1.time"; }
cpu() { awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$WORK/$1.time"; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.0f", a / b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
sqlite_count() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM sightings").fetchone()[0])' "$1"; }
pg() { psql "postgres://swiftble@127.0.0.1:$PG_PORT/$1" -v ON_ERROR_STOP=1 -qAt "${@:2}"; }

GW_ARGS=(--speed max --seed 200)
# CPU seconds the cluster used so far: the postmaster and its live children, plus what its exited
# children (backends of closed connections) left in its cutime and cstime (proc(5), fields 14-17).
pg_cpu() {
    local master ticks
    master="$(head -n 1 "$PG_DIR/data/postmaster.pid")"
    ticks="$(getconf CLK_TCK)"
    { awk '{print $14 + $15 + $16 + $17}' "/proc/$master/stat"
      for child in $(pgrep -P "$master"); do awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || true; done
    } | awk -v t="$ticks" '{s += $1} END {printf "%.2f", s / t}'
}

# --- The throwaway PostgreSQL ---------------------------------------------------------------------
say "starting PostgreSQL in $PG_DIR on 127.0.0.1:$PG_PORT"
nice -n 10 env SWIFTBLE_PG_DIR="$PG_DIR" SWIFTBLE_PG_PORT="$PG_PORT" "$ROOT/scripts/test-postgres.sh" start >/dev/null
if [ "$PG_DURABLE" = 1 ]; then
    psql "$PG_ADMIN" -qAt -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = on" \
        -c "ALTER SYSTEM SET full_page_writes = on" -c "SELECT pg_reload_conf()" >/dev/null
fi
PG_SETTINGS="$(psql "$PG_ADMIN" -qAt -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers')")"
PG_VERSION="$(psql "$PG_ADMIN" -qAt -c "SHOW server_version")"
say "PostgreSQL $PG_VERSION: $PG_SETTINGS"
for db in bench_one bench_fleet; do psql "$PG_ADMIN" -qAt -c "CREATE DATABASE $db" >/dev/null; done

# --- 1. One gateway ----------------------------------------------------------------------------------
CMD_WORLD="ble gateway --hci sim:crowd-$BEACONS.yaml --speed max --seed 200 --seconds $ONE_SECONDS --ibeacon 00000000-0000-0000-0000-000000000000 --database sqlite:none.sqlite"
say "world and host alone (a filter that keeps nothing), $ONE_SECONDS simulated s"
run_gateway world --hci "sim:$WORLD" "${GW_ARGS[@]}" --seconds "$ONE_SECONDS" --name world \
    --ibeacon 00000000-0000-0000-0000-000000000000 --database "sqlite:$WORK/none.sqlite"
read -r W_ADV _ <<<"$(summary world)"
W_WALL="$(wall world)"
record "world+host alone: advertisements / wall s (nothing kept)" "$(div "$W_ADV" "$W_WALL") ($W_ADV in ${W_WALL} s; $(div "$W_ADV" "$ONE_SECONDS") per simulated s)" "$CMD_WORLD"

CMD_SQLITE="ble gateway --hci sim:crowd-$BEACONS.yaml --speed max --seed 200 --seconds $ONE_SECONDS --database sqlite:one.sqlite"
say "one gateway into SQLite, $ONE_SECONDS simulated s"
run_gateway sqlite --hci "sim:$WORLD" "${GW_ARGS[@]}" --seconds "$ONE_SECONDS" --name one --database "sqlite:$WORK/one.sqlite"
read -r S_ADV S_KEPT S_STORED S_SPOOLED S_DROPPED <<<"$(summary sqlite)"
S_WALL="$(wall sqlite)"; S_COUNT="$(sqlite_count "$WORK/one.sqlite")"
[ "$S_COUNT" = "$S_STORED" ] || say "WARNING: SQLite holds $S_COUNT rows but the gateway says $S_STORED stored"
record "one gateway → SQLite: sightings stored / wall s" "$(div "$S_COUNT" "$S_WALL") (COUNT(*) $S_COUNT, the gateway says $S_STORED stored; in ${S_WALL} s; kept $S_KEPT of $S_ADV adverts, $(div "$S_KEPT" "$ONE_SECONDS") per simulated s; spooled $S_SPOOLED, dropped $S_DROPPED; CPU $(cpu sqlite) s)" "$CMD_SQLITE"

CMD_PG="ble gateway --hci sim:crowd-$BEACONS.yaml --speed max --seed 200 --seconds $ONE_SECONDS --database postgres://swiftble@127.0.0.1:$PG_PORT/bench_one"
say "one gateway into PostgreSQL, $ONE_SECONDS simulated s"
run_gateway postgres --hci "sim:$WORLD" "${GW_ARGS[@]}" --seconds "$ONE_SECONDS" --name one \
    --database "postgres://swiftble@127.0.0.1:$PG_PORT/bench_one"
read -r P_ADV P_KEPT P_STORED P_SPOOLED P_DROPPED <<<"$(summary postgres)"
P_WALL="$(wall postgres)"; P_COUNT="$(pg bench_one -c "SELECT COUNT(*) FROM sightings")"
[ "$P_COUNT" = "$P_STORED" ] || say "WARNING: PostgreSQL holds $P_COUNT rows but the gateway says $P_STORED stored"
record "one gateway → PostgreSQL: sightings stored / wall s" "$(div "$P_COUNT" "$P_WALL") (COUNT(*) $P_COUNT, the gateway says $P_STORED stored; in ${P_WALL} s; kept $P_KEPT of $P_ADV adverts; spooled $P_SPOOLED, dropped $P_DROPPED; CPU $(cpu postgres) s)" "$CMD_PG"
record "store cost per sighting (µs of wall time beyond the world's)" "SQLite $(awk -v s="$S_COUNT" -v sw="$S_WALL" -v a="$W_ADV" -v ww="$W_WALL" 'BEGIN {printf "%.0f", 1e6 * (sw / s - ww / a)}'), PostgreSQL $(awk -v s="$P_COUNT" -v sw="$P_WALL" -v a="$W_ADV" -v ww="$W_WALL" 'BEGIN {printf "%.0f", 1e6 * (sw / s - ww / a)}')" "1e6 × (wall/rows − world wall/advertisements), from the three rows above"
record "ratio PostgreSQL / SQLite (one gateway)" "$(ratio "$(div "$P_COUNT" "$P_WALL")" "$(div "$S_COUNT" "$S_WALL")")" "(the two rows above)"

# --- 2. Twenty gateways into one PostgreSQL, beside COPY ---------------------------------------------
FLEET_FILE="$WORK/fleet.yaml"
echo "gateways:" >"$FLEET_FILE"
for i in $(seq 1 "$FLEET"); do
    make_world "$WORK/world-$i.yaml" $((1000 + i))
    printf '  - {name: gw%02d, hci: "sim:%s", zone: hall%02d}\n' "$i" "$WORK/world-$i.yaml" "$i" >>"$FLEET_FILE"
done
CMD_FLEET="ble gateway --fleet fleet.yaml ($FLEET × sim:crowd-$BEACONS, own seeds) --speed max --seconds $FLEET_SECONDS --database postgres://…/bench_fleet"
say "$FLEET gateways (one --fleet process) into one PostgreSQL, $FLEET_SECONDS simulated s"
PG_CPU_BEFORE="$(pg_cpu)"
run_gateway fleet --fleet "$FLEET_FILE" --speed max --seconds "$FLEET_SECONDS" \
    --database "postgres://swiftble@127.0.0.1:$PG_PORT/bench_fleet"
read -r F_ADV F_KEPT F_STORED F_SPOOLED F_DROPPED <<<"$(summary fleet)"
F_WALL="$(wall fleet)"; F_COUNT="$(pg bench_fleet -c "SELECT COUNT(*) FROM sightings")"
[ "$F_COUNT" = "$F_STORED" ] || say "WARNING: PostgreSQL holds $F_COUNT rows but the gateways say $F_STORED stored"
F_RATE="$(div "$F_COUNT" "$F_WALL")"
F_PG_CPU="$(awk -v a="$PG_CPU_BEFORE" -v b="$(pg_cpu)" 'BEGIN {printf "%.1f", b - a}')"
record "$FLEET gateways → one PostgreSQL: rows / wall s" "$F_RATE (COUNT(*) $F_COUNT, the gateways say $F_STORED stored; in ${F_WALL} s; kept $F_KEPT of $F_ADV adverts; spooled $F_SPOOLED, dropped $F_DROPPED; max RSS $(rss fleet) KiB; CPU: gateways $(cpu fleet) s, PostgreSQL $F_PG_CPU s)" "$CMD_FLEET"

COLS="gateway, run, sequence, identity, address, address_random, time_us, rssi, tx_power, frame"
CSV="$WORK/sightings.csv"
say "exporting the fleet's rows and copying them back with \\copy"
pg bench_fleet -c "\\copy (SELECT $COLS FROM sightings) TO '$CSV' CSV"
# The same table, emptied: its day partitions and indexes stay, as the gateways found them.
pg bench_fleet -c "TRUNCATE sightings"
PG_CPU_BEFORE="$(pg_cpu)"
C_START="$(date +%s.%N)"
nice -n 10 psql "postgres://swiftble@127.0.0.1:$PG_PORT/bench_fleet" -v ON_ERROR_STOP=1 -qAt \
    -c "\\copy sightings ($COLS) FROM '$CSV' CSV"
C_END="$(date +%s.%N)"
C_WALL="$(awk -v a="$C_START" -v b="$C_END" 'BEGIN { printf "%.2f", b - a }')"
C_PG_CPU="$(awk -v a="$PG_CPU_BEFORE" -v b="$(pg_cpu)" 'BEGIN {printf "%.1f", b - a}')"
C_COUNT="$(pg bench_fleet -c "SELECT COUNT(*) FROM sightings")"
C_RATE="$(div "$C_COUNT" "$C_WALL")"
record "psql \\copy of the same rows → same table: rows / wall s" "$C_RATE ($C_COUNT rows in ${C_WALL} s; PostgreSQL CPU $C_PG_CPU s; CSV $(du -k "$CSV" | cut -f1) KiB)" "psql -c \"\\copy sightings ($COLS) FROM 'sightings.csv' CSV\" after TRUNCATE"
record "ratio $FLEET gateways / COPY" "$(ratio "$F_RATE" "$C_RATE")" "(the two rows above)"

# --- 3. The radio's limit (computed) ---------------------------------------------------------------
# LE 1M: 1 µs an octet-bit; a 31-octet ADV_IND is preamble 1 + access address 4 + header 2 + AdvA 6
# + data 31 + CRC 3 = 47 octets = 376 µs. Back to back that is 1e6 / 376 = 2,659 PDUs/s on one
# channel; with T_IFS (150 µs) after each, 1e6 / 526 = 1,901. One scanner listens on one channel at
# a time, so this is also one gateway's ceiling; a gateway on three radios could triple it.
record "radio limit, one channel (computed, not measured)" "2659 PDUs/s back to back (1e6/376 µs); 1901/s with T_IFS 150 µs after each" "(Core 5.4, Vol 6, Part B, §2.1 and §4.1.1; LE 1M)"

# --- 4. Memory after an hour of simulated traffic ---------------------------------------------------
if [ "$HOUR_SECONDS" != 0 ]; then
    CMD_HOUR="ble gateway --hci sim:crowd-$BEACONS.yaml --speed max --seed 200 --seconds $HOUR_SECONDS --database sqlite:hour.sqlite"
    say "one gateway for $HOUR_SECONDS simulated s into SQLite (RSS sampled every 5 wall s)"
    run_gateway hour --hci "sim:$WORLD" "${GW_ARGS[@]}" --seconds "$HOUR_SECONDS" --name hour --database "sqlite:$WORK/hour.sqlite" &
    HOUR_JOB=$!
    (   # The ble process is the grandchild of time (time → timeout → ble).
        while kill -0 "$HOUR_JOB" 2>/dev/null; do
            sleep 5
            for t in $(pgrep -P "$HOUR_JOB" 2>/dev/null); do for m in $(pgrep -P "$t" 2>/dev/null); do for b in $(pgrep -P "$m" 2>/dev/null); do
                awk -v t="$SECONDS" '/VmRSS/ {print t, $2}' "/proc/$b/status" 2>/dev/null || true
            done; done; done
        done
    ) >"$WORK/hour.rss" &
    SAMPLER=$!
    wait "$HOUR_JOB"
    kill "$SAMPLER" 2>/dev/null || true; SAMPLER=""
    read -r H_ADV H_KEPT H_STORED H_SPOOLED H_DROPPED <<<"$(summary hour)"
    H_WALL="$(wall hour)"; H_COUNT="$(sqlite_count "$WORK/hour.sqlite")"
    H_SIZE="$(du -k "$WORK/hour.sqlite" | cut -f1)"
    SAMPLES="$(awk 'NR == 1 {f = $2} {l = $2; if ($2 > m) m = $2; n++} END {if (n) printf "%d samples: first %d KiB, last %d KiB, max %d KiB", n, f, l, m; else print "no samples"}' "$WORK/hour.rss")"
    record "gateway max RSS after $ONE_SECONDS simulated s (SQLite run above)" "$(rss sqlite) KiB" "$CMD_SQLITE"
    record "gateway max RSS after $HOUR_SECONDS simulated s" "$(rss hour) KiB (COUNT(*) $H_COUNT, the gateway says $H_STORED stored, in ${H_WALL} s wall, $(div "$H_COUNT" "$H_WALL")/s; spooled $H_SPOOLED, dropped $H_DROPPED; database $H_SIZE KiB; RSS sampled every 5 wall s: $SAMPLES)" "$CMD_HOUR"
    record "ratio max RSS $HOUR_SECONDS s / $ONE_SECONDS s" "$(ratio "$(rss hour)" "$(rss sqlite)")" "(the two rows above)"
fi

# --- The table ---------------------------------------------------------------------------------------
echo
echo "Fleet benchmarks, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(uname -m)), $(basename "$BLE") at $BLE, PostgreSQL $PG_VERSION ($PG_SETTINGS)"
echo "Load average at the end: $(cut -d" " -f1-3 /proc/loadavg) (shared machine)."
echo "World: $BEACONS iBeacons every $INTERVAL_MS ms around the gateway (crowd geometry), --speed max."
echo
echo "| figure | value | command |"
echo "| --- | --- | --- |"
while IFS=$'\t' read -r figure value command; do
    printf '| %s | %s | `%s` |\n' "$figure" "$value" "${command//|/\\|}"
done <"$RESULTS"
