import Foundation
import SimulatedTesting
import Testing

/// What every Linux guest check opens with: the booted guest, `ble sim serve --devices 2` on
/// the host, and the guest's kernel given the world's first device as an adapter by
/// `ble vhci` (hci0 unless an earlier check's number is still taken), powered on by
/// bluetoothd. Our stack drives the second device (``peerAddress``). ``close()`` stops the
/// bridge and the world; ``with(_:)`` does so whatever the check's outcome.
struct BridgedGuest {
    /// The second device's address in a `--devices 2` world: ours.
    static let peerAddress = "F0:5B:1E:00:00:02"

    let guest: LinuxGuest
    let world: ServedWorld
    let bridge: LineProcess
    /// The `ble` executable of this build.
    let ble: String

    /// `ble vhci`'s READY line in the guest: the adapter it made.
    private var ready: [String: Any]? {
        let line = bridge.output.split(separator: "\n").first { $0.hasPrefix("READY ") }.map { String($0.dropFirst(6)) } ?? ""
        return jsonLines(line).first
    }

    /// The guest's adapter's interface name (`hci0`).
    var interface: String? { ready?["interface"] as? String }

    /// The guest's adapter's index (0 for `hci0`), as `--hci hci:N` takes it.
    var adapterIndex: Int? { ready?["index"] as? Int }

    /// Boots the guest (once per test process) and bridges a new world into it.
    static func open() throws -> BridgedGuest {
        let guest = try LinuxGuest.shared.get()
        let ble = try #require(bleExecutable(), "the ble executable is not built")
        let (world, bridge) = try bridgedWorld(guest, ble: ble)
        return BridgedGuest(guest: guest, world: world, bridge: bridge, ble: ble)
    }

    /// Runs `check` on a fresh bridged guest and closes it afterwards.
    static func with<Result>(_ check: (BridgedGuest) throws -> Result) throws -> Result {
        let fixture = try open()
        defer { fixture.close() }
        return try check(fixture)
    }

    /// Stops the guest's bridge and the served world (each only if still running).
    func close() {
        bridge.stop()
        world.stop()
    }

    /// A served world whose first device is the guest's adapter (hci0 unless an earlier
    /// check's adapter number is still taken), powered on by bluetoothd; stop both when done.
    ///
    /// A bridge that prints no READY line, or an adapter bluetoothd never takes up, is given up
    /// for a fresh one, up to three times: on a loaded machine the emulated guest can be slow
    /// to start the debug `ble`, and the kernel's set-up of a new adapter (its HCI commands
    /// cross the emulated guest, QEMU's network and the served world) can miss the kernel's
    /// command timeout; an adapter whose set-up failed never reaches bluetoothd.
    static func bridgedWorld(_ guest: LinuxGuest, ble: String) throws -> (world: ServedWorld, bridge: LineProcess) {
        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        do {
            try guest.forward(guestPort: 9000, toHostPort: world.ports[0])
            // Forget what an earlier check's world left in bluetoothd about the same addresses
            // (a bond above all): bluetoothd loads an adapter's storage when it appears.
            _ = try guest.run("rm -rf /var/lib/bluetooth/*", timeoutSeconds: 30)
            var attempts: [String] = []
            for _ in 1 ... 3 {
                let bridge = try guest.start("exec ble vhci --hci tcp:10.0.2.100:9000 2>&1")
                guard let ready = bridge.waitForLine(containing: "READY", timeoutSeconds: 120),
                      let interface = jsonLines(String(ready.dropFirst(6))).first?["interface"] as? String else {
                    // Under emulation on a loaded machine the guest can take minutes to start
                    // the debug `ble` over 9p; a bridge that never got going is given up too.
                    bridge.stop()
                    attempts.append("ble vhci in the guest printed no READY line within 120 s: \(bridge.output)")
                    print("linux guest: ble vhci printed no READY line; trying a fresh bridge. \(bridge.output)")
                    continue
                }
                let powered = try guest.run(Self.poweringOn([interface]), timeoutSeconds: 200)
                if powered.status == 0 { return (world, bridge) }
                attempts.append(powered.stderr)
                print("linux guest: bluetoothd did not take up \(interface); trying a fresh adapter. \(powered.stderr)")
                // Leaving makes the served world power-cycle the device: the next bridge
                // finds its controller as after a reset.
                bridge.stop()
            }
            throw ServeError(message: "three fresh bridges failed (no READY line, or bluetoothd did not take up and power on the adapter): \(attempts.joined(separator: "\n---\n"))")
        } catch {
            world.stop()
            throw error
        }
    }

    /// A guest shell script that waits (90 s at most) until bluetoothd has registered every
    /// adapter in `interfaces` on D-Bus, then powers them on; on failure it prints what the
    /// kernel and bluetoothd said to standard error and exits 1.
    static func poweringOn(_ interfaces: [String]) -> String {
        let registered = interfaces.map { "echo \"$objects\" | grep -q '\"/org/bluez/\($0)\"'" }.joined(separator: " && ")
        // Asked again each round: bluetoothd answers Busy while it is still setting the adapter up.
        let power = interfaces.map {
            "dbus-send --system --print-reply --dest=org.bluez /org/bluez/\($0) org.freedesktop.DBus.Properties.Set "
                + "string:org.bluez.Adapter1 string:Powered variant:boolean:true >/dev/null 2>&1"
        }.joined(separator: "; ")
        let poweredOn = interfaces.map {
            "dbus-send --system --print-reply --dest=org.bluez /org/bluez/\($0) org.freedesktop.DBus.Properties.Get "
                + "string:org.bluez.Adapter1 string:Powered | grep -q 'boolean true' || ok=0"
        }.joined(separator: "; ")
        return """
            known() {
                objects=$(dbus-send --system --print-reply --dest=org.bluez / org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null)
                \(registered)
            }
            for i in $(seq 1 180); do known && break; sleep 0.5; done
            if known; then
                for i in $(seq 1 30); do \(power); ok=1; \(poweredOn); [ $ok = 1 ] && exit 0; sleep 0.5; done
            fi
            {
                echo "adapters the kernel has: $(ls /sys/class/bluetooth | tr '\\n' ' ')"
                echo "the kernel's log:"; dmesg | grep -i -E 'bluetooth|hci' | tail -n 15
                echo "bluetoothd's log:"; tail -n 15 /tmp/bluetoothd.log
            } >&2
            exit 1
            """
    }
}
