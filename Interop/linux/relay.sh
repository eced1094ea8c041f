#!/bin/sh
# QEMU runs this (guestfwd=…-cmd:) for each connection the guest opens to 10.0.2.100:PORT, with
# the connection on stdin and stdout: it joins it to the host address `vm.sh forward PORT`
# registered, read when the guest connects, so one boot serves any number of worlds.
state="$1"
port="$2"
target="$(cat "$state/forward/$port" 2>/dev/null)"
if [ -z "$target" ]; then
    echo "relay: nothing is forwarded for guest port $port (vm.sh forward $port HOST:PORT)" >> "$state/relay.log"
    exit 1
fi
exec socat - "TCP:$target,nodelay"
