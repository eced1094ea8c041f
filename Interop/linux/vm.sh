#!/usr/bin/env bash
# The Linux guest, booted once and then driven command by command:
#
#   vm.sh start              build the guest if needed (build-guest.sh), boot it, wait until ready
#   vm.sh run [-t S] CMD…    run CMD with bash in the guest; its output and exit status are ours
#   vm.sh forward PORT HOST:PORT
#                            a guest connection to 10.0.2.100:PORT (9000-9007) reaches HOST:PORT
#   vm.sh stop | status
#
# The guest has no network of its own: QEMU's user-mode network with restrict=on, plus one
# host port for its command agent and guestfwd relays to what `forward` names. Our `ble`
# ($SWIFTBLE_BLE, default the package's debug build), Swift's runtime libraries and this
# folder are shared into it read-only over 9p at the same paths. State (pid, ports, console
# log) lives in $SWIFTBLE_VM_STATE (default /tmp/swiftble-vm-$UID). Every wait has a limit:
# boot $SWIFTBLE_VM_BOOT_TIMEOUT s (default 300), a command -t S (default 300).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="${SWIFTBLE_VM_STATE:-/tmp/swiftble-vm-$(id -u)}"
forward_ports=(9000 9001 9002 9003 9004 9005 9006 9007)

fail() { echo "vm.sh: $*" >&2; exit 1; }
# Closes every descriptor above stderr that this (sub)shell inherited, so that what it
# leaves running (QEMU, the watcher) holds no pipe or socket of whoever started vm.sh: a
# caller waiting for end of file, or Foundation's Process watching its child, would wait on.
close_inherited() {
    local fd
    for fd in $(ls /proc/$BASHPID/fd); do
        [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
    done
    return 0
}
running() { [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null; }

start() {
    mkdir -p "$state/forward"
    exec 8>"$state/.lock"
    flock 8
    if running && [ -f "$state/agent-port" ]; then
        echo "vm.sh: the guest is already running (pid $(cat "$state/pid"))" >&2
        return 0
    fi
    command -v qemu-system-x86_64 >/dev/null || fail "qemu-system-x86_64 is missing: apt-get install qemu-system-x86"
    command -v socat >/dev/null || fail "socat is missing: apt-get install socat"
    local ble="${SWIFTBLE_BLE:-$root/.build/debug/ble}"
    ble="$(readlink -f "$ble" 2>/dev/null || true)"
    [ -x "$ble" ] || fail "no ble executable at ${SWIFTBLE_BLE:-$root/.build/debug/ble}: swift build first, or set SWIFTBLE_BLE"
    local swiftlib=/opt/swift/usr/lib/swift/linux
    if command -v swift >/dev/null; then
        swiftlib="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
        swiftlib="$(readlink -f "$swiftlib")"
    fi
    [ -d "$swiftlib" ] || fail "Swift's runtime libraries are not at $swiftlib"

    local built=$SECONDS image
    image="$("$here/build-guest.sh")" || fail "the guest image could not be built (see above)"
    local build_seconds=$((SECONDS - built))

    local accel="${SWIFTBLE_VM_ACCEL:-}" cpu=max
    if [ -z "$accel" ]; then
        # Only a hardware KVM (kvm_intel, kvm_amd) runs a stock kernel fast; a nested or
        # paravirtual one (kvm_pvm) is slower than TCG, so TCG it is.
        accel=tcg
        if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qE '^(kvm_intel|kvm_amd) ' /proc/modules 2>/dev/null; then
            accel=kvm
        fi
    fi
    [ "$accel" = kvm ] && cpu=host

    local agent_port
    agent_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    local netdev="user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$agent_port-10.0.2.15:7000"
    for port in "${forward_ports[@]}"; do
        netdev+=",guestfwd=tcp:10.0.2.100:$port-cmd:/bin/sh $here/relay.sh $state $port"
    done
    local bindir
    bindir="$(dirname "$ble")"
    rm -f "$state/console.log" "$state/agent-port" "$state/forward/"*
    local booted=$SECONDS
    (close_inherited; exec setsid qemu-system-x86_64 \
        -machine "q35,accel=$accel" -cpu "$cpu" -m "${SWIFTBLE_VM_MEMORY:-1024}" -smp 2 \
        -nodefaults -display none -no-reboot -monitor none \
        -serial "file:$state/console.log" \
        -kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
        -append "console=ttyS0 root=/dev/vda rw quiet panic=-1 init=/usr/local/sbin/swiftble-stub-init swiftble.share=bin:$bindir,swiftlib:$swiftlib,interop:$here swiftble.ble=$ble" \
        -drive "file=$image/disk.ext4,format=raw,if=virtio,snapshot=on" \
        -virtfs "local,path=$here,mount_tag=swiftble,security_model=none,readonly=on" \
        -virtfs "local,path=$here,mount_tag=interop,security_model=none,readonly=on" \
        -virtfs "local,path=$bindir,mount_tag=bin,security_model=none,readonly=on" \
        -virtfs "local,path=$swiftlib,mount_tag=swiftlib,security_model=none,readonly=on" \
        -netdev "$netdev" -device virtio-net-pci,netdev=net0 \
        < /dev/null > "$state/qemu.log" 2>&1) &
    local pid=$!
    echo "$pid" > "$state/pid"
    # With --parent PID the guest ends when that process does (a test run that exits or is killed).
    if [ -n "${parent:-}" ]; then
        (close_inherited; trap '' HUP; while kill -0 "$parent" 2>/dev/null && kill -0 "$pid" 2>/dev/null; do sleep 2; done; kill -KILL "$pid" 2>/dev/null) \
            < /dev/null > /dev/null 2>&1 &
    fi
    local limit="${SWIFTBLE_VM_BOOT_TIMEOUT:-300}"
    while true; do
        if grep -q SWIFTBLE-GUEST-READY "$state/console.log" 2>/dev/null; then break; fi
        if grep -q SWIFTBLE-GUEST-FAILED "$state/console.log" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null; then
            kill -KILL "$pid" 2>/dev/null || true
            rm -f "$state/pid"
            echo "vm.sh: the guest failed to boot; QEMU said: $(tail -n 5 "$state/qemu.log" 2>/dev/null)" >&2
            echo "vm.sh: last console lines:" >&2
            tail -n 20 "$state/console.log" >&2 2>/dev/null || true
            exit 1
        fi
        if [ $((SECONDS - booted)) -ge "$limit" ]; then
            kill -KILL "$pid" 2>/dev/null || true
            rm -f "$state/pid"
            echo "vm.sh: the guest was not ready within $limit s (accel=$accel); last console lines:" >&2
            tail -n 20 "$state/console.log" >&2 2>/dev/null || true
            exit 1
        fi
        sleep 0.5
    done
    echo "$agent_port" > "$state/agent-port"
    echo "vm.sh: guest ready in $((SECONDS - booted)) s (accel=$accel, guest image ready in $build_seconds s, $(grep -o 'SWIFTBLE-GUEST-READY.*' "$state/console.log" | tr -d '\r'))" >&2
}

run() {
    local timeout=300
    if [ "${1:-}" = "-t" ]; then timeout="$2"; shift 2; fi
    [ $# -gt 0 ] || fail "usage: vm.sh run [-t SECONDS] COMMAND…"
    [ -f "$state/agent-port" ] && running || fail "the guest is not running: vm.sh start"
    exec python3 "$here/agent_client.py" "$(cat "$state/agent-port")" "$timeout" "$*"
}

forward() {
    [ $# -eq 2 ] || fail "usage: vm.sh forward GUEST_PORT HOST:PORT (GUEST_PORT one of ${forward_ports[*]})"
    [[ " ${forward_ports[*]} " == *" $1 "* ]] || fail "guest port $1 is not one of ${forward_ports[*]}"
    mkdir -p "$state/forward"
    echo "$2" > "$state/forward/$1.tmp" && mv "$state/forward/$1.tmp" "$state/forward/$1"
}

stop() {
    if running; then
        kill -KILL "$(cat "$state/pid")" 2>/dev/null || true
        echo "vm.sh: stopped the guest" >&2
    fi
    rm -f "$state/pid" "$state/agent-port"
}

command="${1:-}"
[ $# -gt 0 ] && shift
case "$command" in
    start)
        parent=""
        if [ "${1:-}" = "--parent" ]; then parent="$2"; fi
        start ;;
    run) run "$@" ;;
    forward) forward "$@" ;;
    stop) stop ;;
    status) if running; then echo "running (pid $(cat "$state/pid"), agent on 127.0.0.1:$(cat "$state/agent-port" 2>/dev/null))"; else echo "stopped"; exit 1; fi ;;
    *) echo "usage: vm.sh start [--parent PID] | run [-t SECONDS] COMMAND… | forward GUEST_PORT HOST:PORT | stop | status" >&2; exit 2 ;;
esac
