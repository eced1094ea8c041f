import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// `ble l2cap listen|connect` and `ble sim serve --snoop`, run as the built executable
/// against a served world: the echo server on one device, the client on the other.
@Suite("ble l2cap command line", .serialized, .ownThread)
struct L2CAPCommandLineTests {
    /// Generous: machines running these tests are shared and slow.
    private static let patience = 60.0

    @Test("connect sends 200 SDUs to listen over a served world and checks every echo; both sides and sim serve capture btsnoop")
    func echoThroughServedWorld() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = temporaryPath("l2cap-snoop")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let served = try ServedWorld(executable: executable, arguments: [
            "sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--snoop", directory + "/served"])
        defer { served.stop() }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let listener = try BackgroundCommand(executable: executable, arguments: [
            "l2cap", "listen", "--psm", "0x80", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--json",
            "--seconds", "300", "--snoop", directory + "/listen.btsnoop"])
        defer { listener.stop() }
        let listening = listener.waitForLine(within: Self.patience) { $0["event"] as? String == "listening" }
        #expect(listening?["address"] as? String == served.devices[0].address, "\(listener.output)")

        let client = try runProcess(executable, [
            "l2cap", "connect", served.devices[0].address, "--psm", "128", "--hci", "tcp:127.0.0.1:\(served.ports[1])",
            "--count", "200", "--json", "--timeout", "\(Int(Self.patience))", "--snoop", directory + "/connect.btsnoop"])
        #expect(client.status == 0, "\(client.stderr)")
        let lines = jsonLines(client.stdout)
        #expect(lines.map { $0["event"] as? String } == ["connected", "channelOpened", "summary"], "\(client.stdout)")
        let summary = try #require(lines.last)
        #expect(summary["sdus"] as? Int == 200)
        #expect(summary["mismatches"] as? Int == 0)
        #expect(summary["ok"] as? Bool == true)
        let octets = try #require(summary["bytes"] as? Int)
        #expect(octets >= 200 && octets <= 200 * 512)  // the default sizes are 1 to 512 octets
        #expect(lines.first?["peer"] as? String == served.devices[0].address)
        #expect(lines[1]["peerMTU"] as? Int == 2048)

        // The server reports the channel it echoed on, with the same counts.
        let closed = listener.waitForLine(within: Self.patience) { $0["event"] as? String == "channelClosed" }
        #expect(closed?["sdus"] as? Int == 200, "\(listener.output)")
        #expect(closed?["bytes"] as? Int == octets)
        let connected = listener.jsonObjects.first { $0["event"] as? String == "connected" }
        #expect(connected?["peer"] as? String == served.devices[1].address)
        _ = listener.waitForLine(within: Self.patience) { $0["event"] as? String == "disconnected" }
        listener.stop()
        served.stop()

        // sim serve wrote one capture per served device, of what crossed each TCP link.
        let servedFiles = try FileManager.default.contentsOfDirectory(atPath: directory + "/served").sorted()
        #expect(servedFiles == ["host-1.btsnoop", "host-2.btsnoop"])
        let server = try Self.records(directory + "/served/host-1.btsnoop")
        let central = try Self.records(directory + "/served/host-2.btsnoop")
        for records in [server, central] {
            #expect(records.first.map { Array($0.data) } == [0x01, 0x03, 0x0C, 0x00])  // HCI_Reset, sent first
            #expect(records.first?.direction == .sent)
            #expect(records.contains { $0.direction == .received && Array($0.data.prefix(6)) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C] })
            #expect(records.contains { $0.direction == .received && Self.isLEConnectionComplete($0) })
            #expect(records.filter { $0.direction == .sent && $0.data.first == 0x02 }.count >= 200)
            #expect(records.filter { $0.direction == .received && $0.data.first == 0x02 }.count >= 200)
        }
        #expect(server.contains { $0.direction == .sent && Array($0.data.prefix(5)) == [0x01, 0x39, 0x20, 0x06, 0x01] })  // LE Set Extended Advertising Enable: on
        #expect(central.contains { $0.direction == .sent && Array($0.data.prefix(3)) == [0x01, 0x43, 0x20] })  // LE Extended Create Connection
        #expect(central.contains { $0.direction == .sent && Self.isCreditBasedConnectionRequest($0) })
        #expect(server.contains { $0.direction == .received && Self.isCreditBasedConnectionRequest($0) })

        // Each command's own --snoop file holds its host's side of the same exchange.
        let listenRecords = try Self.records(directory + "/listen.btsnoop")
        let connectRecords = try Self.records(directory + "/connect.btsnoop")
        #expect(listenRecords.contains { $0.direction == .received && Self.isCreditBasedConnectionRequest($0) })
        #expect(connectRecords.contains { $0.direction == .sent && Self.isCreditBasedConnectionRequest($0) })
        #expect(connectRecords.filter { $0.direction == .received && $0.data.first == 0x02 }.count >= 200)
    }

    @Test("connect to an address nobody has fails with one sentence naming what to check and a non-zero status")
    func silentAddress() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["l2cap", "connect", "C0:00:00:00:00:99/random", "--psm", "0x80", "--timeout", "2"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.contains("No device answered at C0:00:00:00:00:99/random within 2.0 s"), "\(result.stderr)")
        #expect(result.stderr.contains("address type"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("connect refuses a bad address, PSM or size before touching a controller")
    func badOptions() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let address = try runProcess(executable, ["l2cap", "connect", "C0:11:22:33:44", "--psm", "0x80"])
        #expect(address.status != 0)
        #expect(address.stderr.contains("is not an address"))
        let psm = try runProcess(executable, ["l2cap", "connect", "C0:11:22:33:44:55", "--psm", "0x100"])
        #expect(psm.status != 0)
        #expect(psm.stderr.contains("--psm must be an LE SPSM"))
        let size = try runProcess(executable, ["l2cap", "connect", "C0:11:22:33:44:55", "--psm", "0x80", "--size", "10-5000"])
        #expect(size.status != 0)
        #expect(size.stderr.contains("needs --mtu of at least 5000"))
        let type = try runProcess(executable, ["l2cap", "connect", "C0:11:22:33:44:55/other", "--psm", "0x80"])
        #expect(type.status != 0)
    }

    // MARK: Helpers

    private static func records(_ path: String) throws -> [BTSnoop.Record] {
        var reader = try BTSnoop.Reader(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(reader.header.datalink == .hciUART)
        return try reader.readAll()
    }

    /// LE Connection Complete or LE Enhanced Connection Complete (Vol 4, Part E, §7.7.65.1, §7.7.65.10).
    private static func isLEConnectionComplete(_ record: BTSnoop.Record) -> Bool {
        let bytes = Array(record.data)
        return bytes.count > 3 && bytes[0] == 0x04 && bytes[1] == 0x3E && (bytes[3] == 0x01 || bytes[3] == 0x0A)
    }

    /// An ACL packet carrying an L2CAP LE Credit Based Connection Request (code 0x14) on the
    /// LE signaling channel, CID 0x0005 (Vol 3, Part A, §4.22).
    private static func isCreditBasedConnectionRequest(_ record: BTSnoop.Record) -> Bool {
        let bytes = Array(record.data)
        return bytes.count > 9 && bytes[0] == 0x02 && bytes[7] == 0x05 && bytes[8] == 0x00 && bytes[9] == 0x14
    }
}

/// A fresh path in the temporary directory.
func temporaryPath(_ prefix: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
}
