#!/bin/bash
# BlueZ pairs with a peer and reads a characteristic only an encrypted link may read, through
# one interactive bluetoothctl:
#   bluetoothctl_pair.sh ADDRESS UUID [--agent CAPABILITY] [--passkey-file FILE] [--reconnect]
# --agent registers bluetoothctl's agent with that IO capability (KeyboardDisplay,
# KeyboardOnly, DisplayOnly, DisplayYesNo, NoInputNoOutput) instead of its default. When the
# agent asks for a passkey it types the one FILE holds, waiting for FILE to appear (the host
# writes there what the peer displays); when it asks to confirm a number (Numeric Comparison)
# it says yes, and the caller compares the number printed. --reconnect then disconnects, connects again and reads
# the value once more: with the bond's key, without a new pairing.
# Prints bluetoothctl's lines as they come; exits 0 once the (last) read's value is shown,
# 1 when a step fails or takes too long (each step has its own limit).
set -u
address="$1"
uuid="$2"
shift 2
agent=()
passkey_file=""
reconnect=0
while [ $# -gt 0 ]; do
    case "$1" in
        --agent) agent=(--agent "$2"); shift 2 ;;
        --passkey-file) passkey_file="$2"; shift 2 ;;
        --reconnect) reconnect=1; shift ;;
        *) echo "bluetoothctl_pair.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
coproc BLUETOOTHCTL { exec bluetoothctl "${agent[@]}" 2>&1; }
send() { echo "$1" >&"${BLUETOOTHCTL[1]}"; }
# Reads lines until one matches $1 (an extended regular expression), which it leaves in
# $matched; fails after $2 seconds or when bluetoothctl has ended.
expect() {
    local deadline=$((SECONDS + $2)) line status
    matched=""
    while [ "$SECONDS" -lt "$deadline" ]; do
        IFS= read -r -t 1 line <&"${BLUETOOTHCTL[0]}"
        status=$?
        if [ "$status" -eq 0 ]; then
            echo "$line"
            if [[ "$line" =~ $1 ]]; then
                matched="$line"
                return 0
            fi
        elif [ "$status" -le 128 ]; then
            echo "bluetoothctl_pair.sh: bluetoothctl ended" >&2
            return 1
        fi
    done
    echo "bluetoothctl_pair.sh: no line matching '$1' within $2 s" >&2
    return 1
}
finish() { send "quit"; echo "bluetoothctl_pair.sh: finished with status $1"; exit "$1"; }
# Types the passkey $passkey_file holds once it appears (at most 60 s).
type_passkey() {
    local waited=0
    [ -n "$passkey_file" ] || { echo "bluetoothctl_pair.sh: the agent asks for a passkey: give --passkey-file" >&2; return 1; }
    while [ ! -s "$passkey_file" ]; do
        [ "$waited" -lt 600 ] || { echo "bluetoothctl_pair.sh: no passkey in $passkey_file within 60 s" >&2; return 1; }
        sleep 0.1
        waited=$((waited + 1))
    done
    echo "bluetoothctl_pair.sh: typing passkey $(cat "$passkey_file")"
    send "$(cat "$passkey_file")"
}
# Reads $uuid in the gatt menu and comes back to the main menu.
read_value() {
    send "menu gatt"
    send "select-attribute $uuid"
    send "read"
    expect "Failed to read|[0-9a-f]{2} [0-9a-f]{2} " 30 || return 1
    [[ "$matched" != *"Failed"* ]] || return 1
    send "back"
}

expect "Agent registered" 30 || finish 1
# bluetoothd forgets a device it discovered 30 s after it was last seen (TemporaryTimeout), and a
# loaded machine can take that long between the caller's scan and this line: scan in this
# session until the peer is seen (at most 60 s; pairing is tried regardless), then pair.
# bluetoothd can answer "scan on" with success while the caller's discovery is still stopping,
# and then report discovery stopped without starting this one (seen on a loaded machine: no
# Start Discovery in btmon's capture): on "Discovering: no" before the peer, ask again (3 times).
send "scan on"
seen=0
for attempt in 1 2 3; do
    expect "(NEW|CHG).*Device $address|Discovering: no" 60 || break
    if [[ "$matched" == *"Device $address"* ]]; then seen=1; break; fi
    echo "bluetoothctl_pair.sh: discovery stopped before $address was seen (attempt $attempt); scanning again"
    send "scan on"
done
[ "$seen" -eq 1 ] || echo "bluetoothctl_pair.sh: $address not seen while scanning; pairing anyway"
send "scan off"
# bluetoothd answers Pair with org.bluez.Error.InProgress while it is still busy with the
# device or the adapter (its discovery stopping, a connection of its own under way): wait
# until discovery has stopped, and when the answer is InProgress all the same, wait for
# bluetoothd to report the device settled (or 5 s) and ask again, at most 3 times.
expect "Discovering: no" 15 || echo "bluetoothctl_pair.sh: discovery not reported stopped; pairing anyway"
# bluetoothctl prints its agent's prompt again whenever other output interrupts it, so the
# prompt can be seen many times for one question: answer each question once.
answered=0
for attempt in 1 2 3; do
    send "pair $address"
    while :; do
        expect "Pairing successful|Failed to pair|Enter passkey|Confirm passkey" 90 || finish 1
        if [[ "$matched" == *"Enter passkey"* ]]; then
            [ "$answered" -eq 1 ] || { type_passkey || finish 1; answered=1; }
        elif [[ "$matched" == *"Confirm passkey"* ]]; then
            [ "$answered" -eq 1 ] || { send "yes"; answered=1; }
        else
            break
        fi
    done
    [[ "$matched" == *"InProgress"* ]] || break
    echo "bluetoothctl_pair.sh: bluetoothd is busy (attempt $attempt); asking again once it settles"
    expect "Connected: no|Paired: yes|ServicesResolved: no" 5 || true
    if [[ "$matched" == *"Paired: yes"* ]]; then
        echo "bluetoothctl_pair.sh: Pairing successful (bluetoothd finished the pairing under way)"
        matched="Pairing successful"
        break
    fi
done
[[ "$matched" == *"Pairing successful"* ]] || finish 1
read_value || finish 1
if [ "$reconnect" -eq 1 ]; then
    send "disconnect $address"
    expect "Successful disconnected|Failed to disconnect" 30 || finish 1
    [[ "$matched" == *"Successful"* ]] || finish 1
    # bluetoothd may reconnect a bonded device by itself (the kernel's auto-connect list) as
    # soon as it advertises again; our connect then fails while the kernel's attempt is under
    # way, and the services resolve all the same. A connect can also get no answer at all (the
    # kernel stops its scan for the device and starts no connection: seen once in a loaded
    # clean-clone run, with our side advertising throughout). So ask (at most 3 times) until
    # the services resolve, asking again after 40 s without an answer.
    resolved=0
    for attempt in 1 2 3; do
        send "connect $address"
        if ! expect "ServicesResolved: yes|Failed to connect" 40; then
            echo "bluetoothctl_pair.sh: no answer to connect (attempt $attempt); asking again"
            continue
        fi
        if [[ "$matched" == *"ServicesResolved: yes"* ]]; then resolved=1; break; fi
        expect "ServicesResolved: yes" 15 && { resolved=1; break; }
    done
    [ "$resolved" -eq 1 ] || finish 1
    read_value || finish 1
fi
finish 0
