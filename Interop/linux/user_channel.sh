#!/bin/bash
# Runs a command that opens adapter hciINDEX on the HCI user channel (`ble … --hci hci:INDEX`)
# beside a running bluetoothd, in the guest:
#   user_channel.sh INDEX COMMAND [ARGUMENTS…]
# The user channel takes only an adapter that is down. bluetoothd powers an adapter on when
# it appears (AutoEnable=true, Debian's default), and an adapter reappears to it each time a
# program closes its user channel. So wait (at most 15 s) until bluetoothd has the adapter
# powered on, then power it off (btmgmt), then run the command: no race with AutoEnable.
set -u
index="$1"
shift
for _ in $(seq 1 75); do
    if dbus-send --system --print-reply --dest=org.bluez "/org/bluez/hci$index" org.freedesktop.DBus.Properties.Get \
        string:org.bluez.Adapter1 string:Powered 2>/dev/null | grep -q "boolean true"; then
        btmgmt --index "$index" power off >/dev/null || { echo "user_channel.sh: btmgmt could not power hci$index off" >&2; exit 1; }
        exec "$@"
    fi
    sleep 0.2
done
echo "user_channel.sh: bluetoothd did not power hci$index on within 15 s" >&2
exit 1
