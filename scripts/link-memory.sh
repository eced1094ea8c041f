#!/usr/bin/env bash
# Open N links at once (100 by default), each between its own pair of our hosts in one
# simulated world, and print glibc's heap in use (malloc_stats(3), "Total (incl. mmap)") before,
# with and after the links, and what one link costs (docs/limits.md, "Memory per link").
#
# Usage:
#   scripts/link-memory.sh [PAIRS] [extra swift test arguments, e.g. --package-path DIR]
#
# The test (LinkMemoryTests) fails if a link is missing from either host's tables while it is
# up or left in one after it is closed; the memory figures are printed, not asserted. Run it
# alone: other suites in the same process would add their own memory.
set -euo pipefail
pairs="${1:-100}"
shift || true
export SWIFTBLE_LINK_PAIRS="$pairs"
# As in scripts/connection-cycles.sh: swift-testing's backtrace capture of errors the hosts'
# timers throw would otherwise add the test runner's own memory to the figures.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED="${SWT_SWIFT_ERROR_BACKTRACING_ENABLED:-0}"
output="$(swift test --filter 'LinkMemoryTests' "$@" 2>&1)" || { printf '%s\n' "$output" | tail -40; exit 1; }
printf '%s\n' "$output" | awk -v pairs="$pairs" '
    /link memory: heap/ { moment = substr($0, index($0, "heap ") + 5); next }
    /link memory:|Test run with/ { print; next }
    /Total \(incl\. mmap\)/ { total = 1; next }
    total && /in use bytes/ {
        bytes = substr($0, index($0, "=") + 1) + 0
        print "  heap in use " moment ": " bytes " B"
        if (moment == "before the links") before = bytes
        if (moment == "with the links, round 1") printf "  heap per link: %d B\n", (bytes - before) / pairs
        total = 0
    }'
