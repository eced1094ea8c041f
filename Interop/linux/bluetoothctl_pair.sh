#!/bin/bash
# BlueZ pairs with a peer and reads a characteristic only an encrypted link may read, through
# one interactive bluetoothctl (its default agent, NoInputNoOutput, accepts Just Works):
#   bluetoothctl_pair.sh ADDRESS UUID
# Prints bluetoothctl's lines as they come; exits 0 once the read's value is shown, 1 when a
# step fails or takes too long (each step has its own limit).
set -u
address="$1"
uuid="$2"
coproc BLUETOOTHCTL { exec bluetoothctl 2>&1; }
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
finish() { send "quit"; exit "$1"; }

expect "Agent registered" 30 || finish 1
send "pair $address"
expect "Pairing successful|Failed to pair" 90 || finish 1
[[ "$matched" == *"Pairing successful"* ]] || finish 1
send "menu gatt"
send "select-attribute $uuid"
send "read"
expect "Failed to read|[0-9a-f]{2} [0-9a-f]{2} " 30 || finish 1
[[ "$matched" != *"Failed"* ]] || finish 1
finish 0
