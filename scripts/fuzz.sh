#!/usr/bin/env bash
# Runs one libFuzzer target: a BLEWire decoder or a stateful core (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags...]
#   scripts/fuzz.sh --merge TARGET     (stateful targets: minimize into the committed corpus)
#   scripts/fuzz.sh --list
#
# A decoder TARGET is a file name in Fuzz/Targets without .swift (e.g. att): it is
# compiled together with the BLEWire sources as one module with
# -sanitize=fuzzer,address, and run for SECONDS with its corpus in
# Fuzz/corpus/TARGET (seeded from Fuzz/Seeds/TARGET). A stateful TARGET (gatt-server,
# l2cap, ...) runs in the Fuzz/Stateful package's one executable, built by SwiftPM with
# the same sanitizers, its corpus seeded from Fuzz/Stateful/Corpus/TARGET. Crashing
# inputs land in Fuzz/artifacts/TARGET/. Not part of CI: fuzzing is open-ended by nature
# (the committed stateful corpora are replayed by `swift test`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stateful_targets="gatt-server l2cap smp-pairing hci-driver att-client controller"
stateful_package="$root/Fuzz/Stateful"
if [ "${1:-}" = "--list" ]; then
    for f in "$root"/Fuzz/Targets/*.swift; do basename "$f" .swift; done
    for t in $stateful_targets; do echo "$t"; done
    exit 0
fi

# Builds the stateful fuzz executable when a source it compiles is newer than it.
build_stateful() {
    stateful_bin="$stateful_package/.build/release/StatefulFuzz"
    if [ ! -x "$stateful_bin" ] || [ -n "$(find -L "$stateful_package/Sources" "$stateful_package/Package.swift" -newer "$stateful_bin" \( -name '*.swift' -o -name Package.swift \) 2>/dev/null | head -1)" ]; then
        echo "building the stateful fuzz targets ..." >&2
        (cd "$stateful_package" && swift build -c release --product StatefulFuzz \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld >&2)
    fi
}

is_stateful() { case " $stateful_targets " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if [ "${1:-}" = "--merge" ]; then
    target=${2:?usage: scripts/fuzz.sh --merge TARGET}
    is_stateful "$target" || { echo "'$target' is not a stateful target" >&2; exit 2; }
    build_stateful
    merged=$(mktemp -d)
    SWIFTBLE_FUZZ_TARGET="$target" SWIFT_DETERMINISTIC_HASHING=1 "$stateful_bin" -set_cover_merge=1 "$merged" \
        "$root/Fuzz/corpus/$target" "$stateful_package/Corpus/$target"
    rm -rf "$stateful_package/Corpus/$target"
    mkdir -p "$stateful_package/Corpus"
    mv "$merged" "$stateful_package/Corpus/$target"
    chmod 755 "$stateful_package/Corpus/$target"
    echo "$(ls "$stateful_package/Corpus/$target" | wc -l) inputs in Fuzz/Stateful/Corpus/$target" >&2
    exit 0
fi

target=${1:?usage: scripts/fuzz.sh TARGET SECONDS (or --list)}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
shift 2
if is_stateful "$target"; then
    build_stateful
    mkdir -p "$root/Fuzz/corpus/$target" "$root/Fuzz/artifacts/$target"
    if [ -d "$stateful_package/Corpus/$target" ]; then
        cp -n "$stateful_package/Corpus/$target"/* "$root/Fuzz/corpus/$target/" 2>/dev/null || true
    fi
    SWIFTBLE_FUZZ_TARGET="$target" SWIFT_DETERMINISTIC_HASHING=1 exec "$stateful_bin" -max_total_time="$seconds" \
        -print_final_stats=1 -artifact_prefix="$root/Fuzz/artifacts/$target/" "$@" "$root/Fuzz/corpus/$target"
fi
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
