import BLEWire
import Foundation
import Glibc
import SimulatedTesting
import Testing

@Suite("ble periodic sync against ble advertise --periodic over a served world", .ownThread)
struct PeriodicCommandLineTests {
    /// 300 octets of periodic data: two manufacturer structures of company 0xFFFF with counting octets.
    static let trainHex: String = {
        let first: [UInt8] = [199, 0xFF, 0xFF, 0xFF] + (0 ..< 196).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        let second: [UInt8] = [99, 0xFF, 0xFF, 0xFF] + (0 ..< 96).map { UInt8(truncatingIfNeeded: $0 &+ 7) }
        return Hex.encode(first + second)
    }()

    @Test("A 300-octet train from one process's ble advertise --periodic 100 reaches another process's ble periodic sync byte for byte")
    func syncAcrossProcesses() throws {
        #expect(Self.trainHex.count == 600)
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let advertiser = try LineProcess(executable, [
            "advertise", "--extended", "--sid", "6", "--name", "Train", "--periodic", "100", "--periodic-data", Self.trainHex,
            "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--seconds", "60"])
        defer { advertiser.stop() }
        #expect(advertiser.waitForLine(containing: "Advertising", timeoutSeconds: 30) != nil, "\(advertiser.output)")
        let address = served.devices[0].address
        let sync = try runProcess(executable, [
            "periodic", "sync", address, "6", "--count", "3", "--json", "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let lines = sync.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(lines.count == 3, "\(sync.stdout)")
        for line in lines {
            #expect(line["raw"] as? String == Self.trainHex && line["dataLength"] as? Int == 300 && line["truncated"] as? Bool == false)
            #expect(line["address"] as? String == address && line["sid"] as? Int == 6 && line["interval"] as? Double == 100)
            #expect((line["manufacturerData"] as? [String: Any])?["companyID"] as? Int == 0xFFFF)
        }
        let text = try runProcess(executable, [
            "periodic", "sync", "\(address)/public", "6", "--count", "1", "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Synchronized to \(address)/public SID 6: interval 100.00 ms"), "\(text.stdout)")
        #expect(text.stdout.contains("\(address)/public SID 6 RSSI ") && text.stdout.contains(" 300 octets: Manufacturer Specific Data company 0xFFFF, 196 octets"),
                "\(text.stdout)")
    }

    @Test("A set that is not there is given up after --timeout with a sentence; a controller without periodic advertising is named")
    func notFoundAndUnsupported() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--extended"])
        defer { served.stop() }
        let missing = try runProcess(executable, [
            "periodic", "sync", served.devices[0].address, "2", "--timeout", "1", "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        #expect(missing.status != 0 && missing.stderr.contains("the periodic train was not found"), "\(missing.stderr)")
        let legacy = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "1", "--tcp-base-port", "0", "--no-extended"])
        defer { legacy.stop() }
        let plain = try runProcess(executable, [
            "periodic", "sync", "C0:FF:EE:00:00:01", "2", "--timeout", "1", "--hci", "tcp:127.0.0.1:\(legacy.ports[0])"])
        #expect(plain.status != 0 && plain.stderr.contains("LE features bit 13") && plain.stderr.contains("leave out --no-extended"), "\(plain.stderr)")
    }

    @Test("A malformed address, a SID above 15 and a timeout out of range are refused in one sentence each")
    func badArguments() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let address = try runProcess(executable, ["periodic", "sync", "C0:FF:EE:00:00", "2"])
        #expect(address.status == 64 && address.stderr.contains("is not a Bluetooth address"), "\(address.stderr)")
        let sid = try runProcess(executable, ["periodic", "sync", "C0:FF:EE:00:00:01", "16"])
        #expect(sid.status == 64 && sid.stderr.contains("SID 16 is outside 0 to 15"), "\(sid.stderr)")
        let timeout = try runProcess(executable, ["periodic", "sync", "C0:FF:EE:00:00:01", "2", "--timeout", "200"])
        #expect(timeout.status == 64 && timeout.stderr.contains("--timeout 200"), "\(timeout.stderr)")
    }
}
