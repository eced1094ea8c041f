#!/usr/bin/env bash
# Runs one `ble` command many times beside busy loops and says whether every run printed the
# same standard output and nothing on standard error (docs/time.md, "Under load"): a run on
# virtual time must not let a loaded machine's wall clock into what it prints.
#
#   scripts/repeat-under-load.sh [-n RUNS] [-l LOOPS] -- BLE ARGUMENTS...
#   scripts/repeat-under-load.sh -n 20 -l 2 -- .build/debug/ble sim run heart-rate-restore
#
# RUNS defaults to 20 and LOOPS (`yes > /dev/null` processes started first, stopped at the end)
# to 2. Exit status 0 when all runs agree and stayed silent on standard error, 1 otherwise, 2 on
# a usage error. The outputs are kept in a temporary folder named at the end.
set -euo pipefail
runs=20
loops=2
while getopts "n:l:" option; do
    case $option in
        n) runs=$OPTARG ;;
        l) loops=$OPTARG ;;
        *) echo "usage: $0 [-n RUNS] [-l LOOPS] -- COMMAND..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [-n RUNS] [-l LOOPS] -- COMMAND..." >&2; exit 2; }
case $runs$loops in *[!0-9]*) echo "RUNS and LOOPS are whole numbers" >&2; exit 2 ;; esac

out=$(mktemp -d)
busy=()
stop_loops() { for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_loops EXIT
for _ in $(seq 1 "$loops"); do yes > /dev/null & busy+=($!); done

failed=0
for run in $(seq 1 "$runs"); do
    if ! "$@" > "$out/$run.out" 2> "$out/$run.err"; then
        echo "run $run exited with status $?" >&2
        failed=1
    fi
done
stop_loops

distinct=$(md5sum "$out"/*.out | awk '{print $1}' | sort -u | wc -l)
noisy=$(find "$out" -name '*.err' -size +0c | wc -l)
echo "$runs runs beside $loops busy loops: $distinct distinct standard output(s), $noisy run(s) wrote to standard error ($out)"
[ "$failed" = 0 ] && [ "$distinct" = 1 ] && [ "$noisy" = 0 ]
