#!/bin/sh
# The guest's init (PID 1), run from the 9p share by the stub init baked into the image:
# mounts what Linux needs, the shares vm.sh names on the kernel command line (our `ble`,
# Swift's runtime libraries, this folder), brings up the user-mode network, loads the
# virtual HCI driver, starts D-Bus, bluetoothd and the command agent, and says so on the
# console. It never returns; `vm.sh stop` ends the machine.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
say() { echo "swiftble-guest: $*" > /dev/console; }
fail() {
    echo "SWIFTBLE-GUEST-FAILED: $*" > /dev/console
    echo o > /proc/sysrq-trigger
    sleep 60
}

mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -o remount,rw / 2>/dev/null
hostname swiftble-guest

# swiftble.share=TAG:PATH,TAG:PATH… from the kernel command line.
for word in $(cat /proc/cmdline); do
    case "$word" in
        swiftble.share=*)
            for share in $(echo "${word#swiftble.share=}" | tr ',' ' '); do
                tag="${share%%:*}"
                path="${share#*:}"
                mkdir -p "$path"
                mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=mmap,msize=512000 "$tag" "$path" \
                    || fail "could not mount the 9p share $tag at $path"
            done
            ;;
        swiftble.ble=*) ble="${word#swiftble.ble=}" ;;
    esac
done
if [ -n "${ble:-}" ]; then
    ln -sf "$ble" /usr/local/bin/ble
fi

modprobe virtio_net || fail "no virtio_net module"
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
modprobe hci_vhci || fail "no hci_vhci module: this kernel has no virtual HCI driver"

mkdir -p /run/dbus
dbus-daemon --system --fork || fail "dbus-daemon did not start"
/usr/libexec/bluetooth/bluetoothd -n > /tmp/bluetoothd.log 2>&1 &

# The agent writes SWIFTBLE-GUEST-READY to the console, which vm.sh waits for, once it listens.
/usr/bin/python3 /mnt/swiftble/guest/agent.py --port 7000 --ready /dev/console > /tmp/agent.log 2>&1 &
agent=$!
wait "$agent"
fail "the command agent exited: $(tail -n 5 /tmp/agent.log)"
