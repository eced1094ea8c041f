#!/usr/bin/env bash
# Connect, pair, subscribe, notify and disconnect N times (1,000 by default) between two of our
# hosts on a simulated world, and print what the hosts' tables and the process's memory look like after
# the first and the last cycle (docs/limits.md, "Nothing left behind").
#
# Usage:
#   scripts/connection-cycles.sh [CYCLES] [extra swift test arguments, e.g. --package-path DIR]
#
# The test itself fails if any per-connection table of either host is not empty after the
# cycles; this script adds the process's resident memory (/proc/self/statm) and glibc's heap in
# use (malloc_stats(3), "Total (incl. mmap)"), which are printed rather than asserted: they also
# hold the test runner's, the simulated world's and the runtime's allocations.
set -euo pipefail
cycles="${1:-1000}"
shift || true
export SWIFTBLE_CONNECTION_CYCLES="$cycles"
# swift-testing keeps a backtrace for every error thrown while a test runs; the hosts' timers
# throw CancellationError each time they are re-armed (about 47 a cycle), so with the capture on
# the test runner's own table grows by ~0.9 KB a cycle and hides the hosts' figures.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED="${SWT_SWIFT_ERROR_BACKTRACING_ENABLED:-0}"
output="$(swift test --filter 'ConnectionCycleTests' "$@" 2>&1)" || { printf '%s\n' "$output" | tail -40; exit 1; }
printf '%s\n' "$output" | awk '
    /connection cycles:|Test run with/ { print; next }
    /Total \(incl\. mmap\)/ { total = 1; next }
    total && /in use bytes/ { print "  heap in use:" substr($0, index($0, "=") + 1); total = 0 }'
