#!/usr/bin/env bash
# Builds the Linux guest the BlueZ and bleak checks run in, or finds it already built, and
# prints the directory that holds it: vmlinuz, initrd.img and disk.ext4 (a Debian bookworm
# root file system with linux-image-amd64, bluez, dbus, Python 3 and bleak in /opt/bleak).
#
# The guest is cached under $SWIFTBLE_GUEST_CACHE (default ~/.cache/swiftble-linux-guest), in a
# folder named after a hash of this script and the Debian mirror, so a change to either
# builds a new one and an unchanged script costs nothing. The packages come from the same
# Debian mirror this machine's apt uses (read from /etc/apt/sources.list*); bleak's wheels
# are fetched on the host with pip. Everything else the guest runs (its init, its agent,
# our `ble`) is shared into it over 9p at boot by vm.sh, so changing those needs no rebuild.
#
# Needs root (mmdebstrap in root mode, chroot) and: mmdebstrap, mkfs.ext4 (e2fsprogs),
# python3 with pip. Exit status 0 with the directory on stdout, else non-zero with the
# reason on stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${SWIFTBLE_GUEST_CACHE:-$HOME/.cache/swiftble-linux-guest}"
bleak_version="3.1.0"
suite="bookworm"

fail() { echo "build-guest: $*" >&2; exit 1; }

# The mirror: the first Debian URI of this machine's apt sources (deb822 or one-line form).
# The URIs of the machine's Debian sources: "URIs:" lines (deb822) and "deb URI ..." lines.
debian_uris() {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | sed -nE 's/^URIs:[[:space:]]*//p; s/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/p' \
        | tr ' ' '\n' | grep -E '^https?://[^[:space:]]+/debian(-security)?/?$' || true
}
mirror="${SWIFTBLE_GUEST_MIRROR:-$(debian_uris | grep -v -- '-security' | head -n 1)}"
security="${SWIFTBLE_GUEST_SECURITY_MIRROR:-$(debian_uris | grep -- '-security' | head -n 1)}"
[ -n "$mirror" ] || mirror="http://deb.debian.org/debian"
mirror="${mirror%/}"
[ -n "$security" ] || security="${mirror%/debian}/debian-security"
security="${security%/}"

key="$( (cat "$0"; echo "$mirror $security") | sha256sum | cut -c1-16)"
out="$cache/$key"
if [ -f "$out/ready" ]; then
    echo "$out"
    exit 0
fi

[ "$(id -u)" -eq 0 ] || fail "building the guest needs root (mmdebstrap, chroot); run it as root or with sudo"
for tool in mmdebstrap mkfs.ext4 python3; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing: apt-get install mmdebstrap e2fsprogs python3"
done

started=$SECONDS
mkdir -p "$cache"
# Only one build at a time; a second caller waits and then finds the result.
exec 9>"$cache/.lock"
flock 9
if [ -f "$out/ready" ]; then
    echo "$out"
    exit 0
fi
work="$(mktemp -d "$cache/.build-XXXXXX")"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
mkdir -p "$rootfs"

echo "build-guest: fetching bleak $bleak_version wheels" >&2
python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --dest "$work/wheels" "bleak==$bleak_version" >&2 \
    || fail "pip could not download bleak $bleak_version's wheels"

echo "build-guest: debootstrapping $suite from $mirror" >&2
# The initramfs only needs to mount a virtio disk: a short module list boots faster than
# Debian's default "most". The stub init mounts the 9p share vm.sh exports and runs the
# guest's real init (Interop/linux/guest/init.sh) from there.
mmdebstrap --variant=minbase --mode=root --quiet \
    --include=linux-image-amd64,bluez,dbus,kmod,iproute2,procps,python3,python3-venv,libstdc++6,libcurl4,ca-certificates \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d"; echo MODULES=list > "$1/etc/initramfs-tools/conf.d/swiftble"' \
    --customize-hook='printf "virtio_pci\nvirtio_blk\next4\n" >> "$1/etc/initramfs-tools/modules"; chroot "$1" update-initramfs -u -k all >/dev/null' \
    --customize-hook='chroot "$1" dbus-uuidgen --ensure=/etc/machine-id' \
    --customize-hook="mkdir -p \"\$1/tmp/wheels\" && cp -a \"$work/wheels/.\" \"\$1/tmp/wheels/\"" \
    --customize-hook='chroot "$1" python3 -m venv /opt/bleak && chroot "$1" /opt/bleak/bin/pip install --quiet --disable-pip-version-check --no-index --find-links /tmp/wheels bleak && rm -rf "$1/tmp/wheels"' \
    --customize-hook='rm -rf "$1/usr/share/doc" "$1/usr/share/man" "$1/usr/share/locale" "$1/var/cache/apt" "$1/var/lib/apt/lists"' \
    "$suite" "$rootfs" \
    "deb $mirror $suite main" "deb $mirror $suite-updates main" "deb $security $suite-security main" >&2 \
    || fail "mmdebstrap failed (is $mirror reachable?)"

cat > "$rootfs/usr/local/sbin/swiftble-stub-init" <<'STUB'
#!/bin/sh
# PID 1 of the guest: mounts the share vm.sh exports as "swiftble" and hands over to its init.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
modprobe -q 9pnet_virtio; modprobe -q 9p
mkdir -p /mnt/swiftble
if mount -t 9p -o trans=virtio,version=9p2000.L,ro swiftble /mnt/swiftble && [ -x /mnt/swiftble/guest/init.sh ]; then
    exec /mnt/swiftble/guest/init.sh
fi
echo "SWIFTBLE-GUEST-FAILED: the 9p share 'swiftble' (Interop/linux) is missing" > /dev/console
echo o > /proc/sysrq-trigger
STUB
chmod 755 "$rootfs/usr/local/sbin/swiftble-stub-init"

mkdir -p "$work/out"
cp "$(readlink -f "$rootfs/vmlinuz")" "$work/out/vmlinuz"
cp "$(readlink -f "$rootfs/initrd.img")" "$work/out/initrd.img"
size_mb=$(( $(du -sm "$rootfs" | cut -f1) + 400 ))
mkfs.ext4 -q -F -L swiftble -d "$rootfs" "$work/out/disk.ext4" "${size_mb}M" || fail "mkfs.ext4 could not make the disk image"
echo "built $(date -u +%FT%TZ) in $((SECONDS - started)) s from $mirror" > "$work/out/ready"
rm -rf "$out"
mv "$work/out" "$out"
# Older guests (other keys) are of no further use.
find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name "$key" ! -name '.build-*' -exec rm -rf {} +
echo "build-guest: built in $((SECONDS - started)) s" >&2
echo "$out"
