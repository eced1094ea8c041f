#!/usr/bin/env bash
# Runs one libFuzzer target over the BLEWire decoders.
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags...]
#   scripts/fuzz.sh --list
#
# TARGET is a file name in Fuzz/Targets without .swift (e.g. att). The target is
# compiled together with the BLEWire sources as one module with
# -sanitize=fuzzer,address, and run for SECONDS with its corpus in
# Fuzz/corpus/TARGET (seeded from Fuzz/Seeds/TARGET). Crashing inputs land in
# Fuzz/artifacts/TARGET/. Not part of CI: fuzzing is open-ended by nature.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--list" ]; then
    for f in "$root"/Fuzz/Targets/*.swift; do basename "$f" .swift; done
    exit 0
fi
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS (or --list)}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
shift 2
source_file="$root/Fuzz/Targets/$target.swift"
[ -f "$source_file" ] || { echo "no fuzz target '$target' (see scripts/fuzz.sh --list)" >&2; exit 2; }

bin="$root/Fuzz/bin/$target"
mkdir -p "$root/Fuzz/bin" "$root/Fuzz/corpus/$target" "$root/Fuzz/artifacts/$target"
if [ ! -x "$bin" ] || [ -n "$(find "$root/Sources/BLEWire" "$source_file" "$root/Fuzz/Targets/Support" -newer "$bin" -name '*.swift' 2>/dev/null | head -1)" ]; then
    echo "building $target ..." >&2
    # shellcheck disable=SC2046
    swiftc -swift-version 6 -O -sanitize=fuzzer,address -parse-as-library \
        -module-name BLEWire \
        "$source_file" "$root"/Fuzz/Targets/Support/*.swift \
        $(find "$root/Sources/BLEWire" -name '*.swift' | sort) \
        -o "$bin" 2> >(grep -v "Cannot export local symbol" >&2)
fi
if [ -d "$root/Fuzz/Seeds/$target" ]; then
    cp -n "$root/Fuzz/Seeds/$target"/* "$root/Fuzz/corpus/$target/" 2>/dev/null || true
fi
exec "$bin" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$root/Fuzz/artifacts/$target/" "$@" "$root/Fuzz/corpus/$target"
