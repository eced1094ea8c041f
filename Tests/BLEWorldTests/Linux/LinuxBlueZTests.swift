import Foundation
import Glibc
import SimulatedTesting
import Testing

/// BlueZ, the Linux kernel's Bluetooth host and bleak as peers of our stack. The host runs
/// `ble sim serve --devices 2`; the guest attaches the first device to its kernel with
/// `ble vhci --hci tcp:10.0.2.100:9000` (hci0), and our stack drives the second one, so the
/// two meet over the world's simulated air. docs/linux.md says what each check proves. The
/// checks in the other files of this folder extend this suite, so all run one after another.
@Suite("Linux guest: BlueZ and bleak against our stack", .serialized, .ownThread,
       .enabled(if: LinuxGuest.unavailableReason == nil, Comment(rawValue: LinuxGuest.unavailableReason ?? "")))
struct LinuxBlueZTests {
    /// The second device's address in a `--devices 2` world: ours.
    let peerAddress = BridgedGuest.peerAddress

    /// A bond store of its own for one `ble serve`, in the temporary folder.
    func temporaryBondStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-linux-bonds-\(getpid())-\(UInt32.random(in: 0 ... .max)).json").path
    }

    @Test("BlueZ scans our advertiser: its name, service UUID and manufacturer data")
    func bluezScansOurAdvertiser() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let advertiser = try LineProcess(ble, ["advertise", "--hci", "tcp:127.0.0.1:\(world.ports[1])", "--name", "SwiftBLE-VHCI",
                                               "--service", "180D", "--manufacturer", "FFFF0102"])
        defer { advertiser.stop() }
        try #require(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        // Scan until bluetoothd knows the name (at most 30 s: a loaded machine slows the guest).
        let scan = try guest.run("""
            bluetoothctl --timeout 30 scan on > /tmp/swiftble-scan.log 2>&1 & scanning=$!
            for _ in $(seq 1 60); do bluetoothctl info \(peerAddress) | grep -q "Name: SwiftBLE-VHCI" && break; sleep 0.5; done
            kill $scanning; wait $scanning; cat /tmp/swiftble-scan.log
            bluetoothctl info \(peerAddress)
            """, timeoutSeconds: 90)
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        #expect(scan.stdout.contains("Device \(peerAddress) SwiftBLE-VHCI"), "\(scan.stdout)")
        #expect(scan.stdout.contains("Name: SwiftBLE-VHCI"), "\(scan.stdout)")
        #expect(scan.stdout.contains("(0000180d-0000-1000-8000-00805f9b34fb)"), "\(scan.stdout)")
        #expect(scan.stdout.contains("ManufacturerData Key: 0xffff"), "\(scan.stdout)")
    }

    @Test("BlueZ pairs with ble serve (Just Works, Secure Connections) and reads a value only an encrypted link may read; btmon decodes both captures")
    func bluezPairsWithOurServer() throws {
        let run = try pairFromBlueZ(check: "just-works", security: [], script: "")
        #expect(run.status?.hasSuffix("status 0") == true, "\(run.bluetoothctl)\n\(run.serverOutput)")
        #expect(run.bluetoothctl.contains("Pairing successful"), "\(run.bluetoothctl)")
        #expect(run.bluetoothctl.contains("encrypted hello"), "\(run.bluetoothctl)")
        #expect(run.bluetoothctl.contains("Paired: yes") && run.bluetoothctl.contains("Bonded: yes"), "\(run.bluetoothctl)")
        let encrypted = run.server.first { $0["event"] as? String == "encrypted" }
        #expect(encrypted?["keySize"] as? Int == 16, "\(run.serverOutput)")
        #expect(run.decoding.clean, "\(run.decoding.summary)")
    }

    @Test("Our scanner sees an advertisement BlueZ publishes; ble gatt dump and ble gatt write use its GATT server")
    func ourClientReadsBlueZServer() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        // The guest adapter's own (public) address.
        let bluezAddress = "F0:5B:1E:00:00:01/public"
        let server = try guest.start("exec python3 \(LinuxGuest.interopDirectory)/bluez_gatt_server.py --name SwiftBLE-Linux 2>&1")
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"ready\"", timeoutSeconds: 60) != nil, "\(server.output)")
        let hci = "tcp:127.0.0.1:\(world.ports[1])"
        // bluetoothd puts the service UUID in the advertising data and the name in the scan response.
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", ble, "scan", "--seconds", "5", "--json", "--hci", hci])
        let advertisement = jsonLines(scan.stdout).first { $0["address"] as? String == "F0:5B:1E:00:00:01" && $0["localName"] != nil
            && !($0["localName"] is NSNull) }
        #expect(advertisement?["localName"] as? String == "SwiftBLE-Linux", "\(scan.stdout)")
        #expect((advertisement?["serviceUUIDs"] as? [String])?.contains("D7A30201-6C5A-4A7E-9B1E-5F0C2A9E0001") == true, "\(scan.stdout)")
        #expect(advertisement?["connectable"] as? Bool == true, "\(scan.stdout)")
        let dump = try runProcess("/usr/bin/timeout", ["-s", "KILL", "90", ble, "gatt", "dump", bluezAddress, "--hci", hci, "--json"])
        #expect(dump.status == 0, "\(dump.stdout)\n\(dump.stderr)")
        let document = try #require(jsonLines(dump.stdout).first, "\(dump.stdout)\n\(dump.stderr)")
        let services = document["services"] as? [[String: Any]] ?? []
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        func value(_ uuid: String) -> String? { characteristics.first { $0["uuid"] as? String == uuid }?["value"] as? String }
        func hex(_ text: String) -> String { Data(text.utf8).map { String(format: "%02x", $0) }.joined() }
        #expect(services.contains { $0["uuid"] as? String == "D7A30201-6C5A-4A7E-9B1E-5F0C2A9E0001" }, "\(dump.stdout)")
        #expect(value("D7A30202-6C5A-4A7E-9B1E-5F0C2A9E0001") == hex("hello from BlueZ"), "\(dump.stdout)")
        #expect(value("2A00")?.hasPrefix(hex("BlueZ")) == true, "\(dump.stdout)")
        let write = try runProcess("/usr/bin/timeout", ["-s", "KILL", "90", ble, "gatt", "write", bluezAddress,
                                                        "D7A30203-6C5A-4A7E-9B1E-5F0C2A9E0001", hex("written by SwiftBLE"), "--hci", hci])
        #expect(write.status == 0, "\(write.stdout)\n\(write.stderr)")
        let written = server.waitForLine(containing: "\"write\"", timeoutSeconds: 30)
        #expect(written?.contains(hex("written by SwiftBLE")) == true, "\(server.output)")
    }

    @Test("ble sim serve --vhci in the guest gives its kernel an adapter per device, and BlueZ on one sees BlueZ advertise on the other")
    func simServeAttachesToKernel() throws {
        let guest = try LinuxGuest.shared.get()
        _ = try guest.run("rm -rf /var/lib/bluetooth/*", timeoutSeconds: 30)
        // As in ``BridgedGuest/bridgedWorld(_:ble:)``: adapters bluetoothd never takes up (their set-up in the
        // kernel failed on a loaded machine) are given up for fresh ones, up to three times.
        var attempts: [String] = []
        var attached: (world: LineProcess, scanner: String, advertising: String)?
        for _ in 1 ... 3 where attached == nil {
            let world = try guest.start("exec ble sim serve --devices 2 --vhci 2>&1")
            let ready = try #require(world.waitForLine(containing: "READY", timeoutSeconds: 60), "\(world.output)")
            let devices = (jsonLines(String(ready.dropFirst(6))).first?["devices"] as? [[String: Any]]) ?? []
            let interfaces = devices.compactMap { $0["interface"] as? String }
            try #require(interfaces.count == 2, "\(ready)")
            // The kernel numbers adapters on from those an earlier check removed, so the names
            // come from READY: the first device scans, the second (host-2, the peer) advertises.
            let powered = try guest.run(BridgedGuest.poweringOn(interfaces), timeoutSeconds: 200)
            if powered.status == 0 {
                attached = (world, interfaces[0], interfaces[1])
            } else {
                attempts.append(powered.stderr)
                print("linux guest: bluetoothd did not take up \(interfaces); trying fresh adapters. \(powered.stderr)")
                world.stop()
            }
        }
        guard let (world, scanner, advertising) = attached else {
            // A known defect, intermittent: seen in full runs only, before fresh adapters were
            // tried. Until it is understood, that and only that is recorded as a known issue.
            withKnownIssue("bluetoothd in the guest did not take up the served world's adapters", isIntermittent: true) {
                Issue.record("bluetoothd did not take up and power on three pairs of fresh adapters: \(attempts.joined(separator: "\n---\n"))")
            }
            return
        }
        defer { world.stop() }
        let advertiser = try guest.start("exec python3 \(LinuxGuest.interopDirectory)/bluez_gatt_server.py --name SwiftBLE-Kernel --adapter \(advertising) 2>&1")
        defer { advertiser.stop() }
        try #require(advertiser.waitForLine(containing: "\"ready\"", timeoutSeconds: 60) != nil, "\(advertiser.output)")
        // bleak scans on the scanner's adapter by name: bluetoothctl's default adapter could be either one.
        // It scans until it hears the advertiser, which takes seconds on an idle machine; on a loaded one
        // the emulated guest (and the served world at real-time speed) may need minutes, so the scan's own
        // bound is generous and the agent's is above it, so that a scan that gives up says so itself.
        let scan = try guest.run("""
            dbus-send --system --print-reply --dest=org.bluez /org/bluez/\(scanner) org.freedesktop.DBus.Properties.Set \
                string:org.bluez.Adapter1 string:Powered variant:boolean:true >/dev/null
            python3 \(LinuxGuest.interopDirectory)/bleak_client.py --name SwiftBLE-Kernel --adapter \(scanner) --scan-only \
                --scan-timeout 180
            """, timeoutSeconds: 330)
        let found = jsonLines(scan.stdout).first { $0["event"] as? String == "found" }
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        #expect(found?["address"] as? String == peerAddress, "\(scan.stdout)")
        #expect((found?["uuids"] as? [String])?.contains("d7a30201-6c5a-4a7e-9b1e-5f0c2a9e0001") == true, "\(scan.stdout)")
    }

    @Test("When the controller goes away, ble vhci in the guest says so, exits, and hci0 is gone")
    func controllerGoesAway() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let bridge = fixture.bridge
        let interface = try #require(fixture.interface, "\(bridge.output)")
        let before = try guest.run("ls /sys/class/bluetooth", timeoutSeconds: 30)
        #expect(before.stdout.split(separator: "\n").contains(Substring(interface)), "\(before.stdout)")
        world.stop()
        // The whole sentence: a line may arrive in pieces.
        let gone = bridge.waitForLine(containing: "closed the connection.", timeoutSeconds: 60)
        #expect(gone?.contains("\(interface) is gone") == true, "\(bridge.output)")
        #expect(gone?.contains("the controller at tcp:10.0.2.100:9000 closed the connection.") == true, "\(bridge.output)")
        let after = try guest.run("ls /sys/class/bluetooth", timeoutSeconds: 30)
        #expect(!after.stdout.split(separator: "\n").contains(Substring(interface)), "\(after.stdout)")
    }

    @Test("bleak, through BlueZ's D-Bus API, scans for ble serve, connects, reads, writes and reads back, and subscribes")
    func bleakUsesOurGATTServer() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let server = try LineProcess(ble, ["serve", LinuxGuest.interopDirectory + "/gatt-server.yaml", "--hci", "tcp:127.0.0.1:\(world.ports[1])",
                                           "--bonds", temporaryBondStore(), "--stream", "d7a30104-6c5a-4a7e-9b1e-5f0c2a9e0001:3:8"])
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"advertising\"", timeoutSeconds: 30) != nil, "\(server.output)")
        // On failure the HCI traffic of hci0 (btmon) goes to stderr, into the failure's message.
        let client = try guest.run("""
            btmon -w /tmp/bleak.snoop >/dev/null 2>&1 & monitor=$!
            python3 \(LinuxGuest.interopDirectory)/bleak_client.py --name SwiftBLE-BlueZ; status=$?
            kill $monitor; wait $monitor
            [ $status -eq 0 ] || btmon -r /tmp/bleak.snoop | tail -n 150 >&2
            exit $status
            """, timeoutSeconds: 180)
        let lines = jsonLines(client.stdout)
        func event(_ name: String) -> [String: Any]? { lines.first { $0["event"] as? String == name } }
        #expect(client.status == 0, "\(client.stdout)\n\(client.stderr)")
        #expect(event("found")?["address"] as? String == peerAddress)
        #expect((event("services")?["uuids"] as? [String])?.contains("d7a30101-6c5a-4a7e-9b1e-5f0c2a9e0001") == true)
        #expect(event("read")?["text"] as? String == "hello from SwiftBLE")
        #expect(event("write")?["readBack"] as? String == "written by bleak")
        let notifications = lines.filter { $0["event"] as? String == "notification" }.compactMap { $0["value"] as? String }
        #expect(notifications.map { $0.prefix(8) } == ["00000000", "01000000", "02000000"])
        #expect(event("done")?["ok"] as? Bool == true, "\(client.stdout)")
        // The server saw BlueZ's requests as requests from the guest's adapter.
        _ = server.waitForLine(containing: "\"disconnected\"", timeoutSeconds: 30)
        let requests = jsonLines(server.output)
        #expect(requests.contains { $0["event"] as? String == "write" && $0["value"] as? String
                == Data("written by bleak".utf8).map { String(format: "%02x", $0) }.joined() })
        #expect(requests.contains { $0["event"] as? String == "subscribe" && $0["notify"] as? Bool == true })
    }
}
