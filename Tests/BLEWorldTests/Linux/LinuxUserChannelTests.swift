import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Our own host on the guest kernel's adapter through the HCI user channel (`--hci hci:N`),
/// against our host on the world's other device: the kernel hands the adapter (a world device
/// attached by `ble vhci`) to `ble` whole, and the two meet over the world's air. Each run of
/// `ble` goes through Interop/linux/user_channel.sh, which powers the adapter off for
/// bluetoothd first. Part of the guest suite (its checks run one at a time).
extension LinuxBlueZTests {
    /// `ble ARGUMENTS` in the guest on hci:`index` through the user channel, under btmon.
    private func bleOnUserChannel(_ guest: LinuxGuest, index: Int, _ arguments: String, timeoutSeconds: Int = 120) throws -> ProcessResult {
        try guest.run(LinuxCaptures.monitored("\(LinuxGuest.interopDirectory)/user_channel.sh \(index) ble \(arguments) --hci hci:\(index)"),
                      timeoutSeconds: timeoutSeconds)
    }

    @Test("Through the HCI user channel (hci:N) our host scans our advertiser and dumps ble serve; a powered adapter is refused with advice")
    func userChannelCentral() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let index = try #require(fixture.adapterIndex, "\(fixture.bridge.output)")
        let hostDevice = "tcp:127.0.0.1:\(world.ports[1])"

        // bluetoothd has the adapter powered on: the kernel refuses the bind (EBUSY).
        let busy = try guest.run("ble scan --seconds 1 --hci hci:\(index)", timeoutSeconds: 60)
        #expect(busy.status != 0)
        #expect(busy.stderr.contains("hci:\(index) is powered on for the kernel's Bluetooth stack (bluetoothd): power it off first "
            + "with `sudo btmgmt --index \(index) power off`, or stop bluetoothd"), "\(busy.stderr)")

        let advertiser = try LineProcess(ble, ["advertise", "--hci", hostDevice, "--name", "SwiftBLE-UserChannel", "--service", "180F"])
        try #require(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        let scan = try bleOnUserChannel(guest, index: index, "scan --seconds 3 --json")
        advertiser.stop()
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        let seen = jsonLines(scan.stdout).first { $0["address"] as? String == peerAddress }
        #expect(seen?["localName"] as? String == "SwiftBLE-UserChannel", "\(scan.stdout)")
        #expect((seen?["serviceUUIDs"] as? [String])?.contains("180F") == true, "\(scan.stdout)")

        let server = try LineProcess(ble, ["serve", LinuxGuest.interopDirectory + "/gatt-server.yaml", "--hci", hostDevice])
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"advertising\"", timeoutSeconds: 30) != nil, "\(server.output)")
        let captures = try LinuxCaptures(guest: guest, check: "user-channel-central")
        let dump = try bleOnUserChannel(guest, index: index, "gatt dump \(peerAddress) --json --snoop /tmp/swiftble-ours.snoop")
        #expect(dump.status == 0, "\(dump.stdout)\n\(dump.stderr)")
        let services = (jsonLines(dump.stdout).first?["services"] as? [[String: Any]]) ?? []
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        #expect(characteristics.first { $0["uuid"] as? String == "D7A30102-6C5A-4A7E-9B1E-5F0C2A9E0001" }?["value"] as? String
                == Data("hello from SwiftBLE".utf8).map { String(format: "%02x", $0) }.joined(), "\(dump.stdout)")
        #expect(server.waitForLine(containing: "\"connected\"", timeoutSeconds: 10) != nil, "\(server.output)")

        // btmon saw the user channel's traffic as the kernel passed it; both captures decode clean.
        let decoding = try captures.decode(oursInGuest: "/tmp/swiftble-ours.snoop")
        #expect(decoding.clean, "\(decoding.summary)")
    }

    @Test("Through the HCI user channel (hci:N) ble serve advertises and serves GATT; our central on the host dumps it")
    func userChannelPeripheral() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let index = try #require(fixture.adapterIndex, "\(fixture.bridge.output)")
        let server = try guest.start("exec \(LinuxGuest.interopDirectory)/user_channel.sh \(index) ble serve \(LinuxGuest.interopDirectory)/gatt-server.yaml "
                                     + "--hci hci:\(index) 2>&1")
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"advertising\"", timeoutSeconds: 60) != nil, "\(server.output)")
        // The guest adapter's address, as the world gave it to the device ble vhci attached.
        let dump = try runProcess("/usr/bin/timeout", ["-s", "KILL", "90", ble, "gatt", "dump", "F0:5B:1E:00:00:01",
                                                       "--hci", "tcp:127.0.0.1:\(world.ports[1])", "--json"])
        #expect(dump.status == 0, "\(dump.stdout)\n\(dump.stderr)")
        let services = (jsonLines(dump.stdout).first?["services"] as? [[String: Any]]) ?? []
        #expect(services.contains { $0["uuid"] as? String == "D7A30101-6C5A-4A7E-9B1E-5F0C2A9E0001" }, "\(dump.stdout)")
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        #expect(characteristics.first { $0["uuid"] as? String == "2A00" }?["value"] as? String
                == Data("SwiftBLE-BlueZ".utf8).map { String(format: "%02x", $0) }.joined(), "\(dump.stdout)")
        #expect(server.waitForLine(containing: "\"connected\"", timeoutSeconds: 10) != nil, "\(server.output)")
    }
}
