import BLEWire
import Foundation
import Glibc
import SimulatedTesting
import Testing

@Suite("ble advertise and ble scan over TCP to a served world", .ownThread)
struct AdvertiseCommandLineTests {
    @Test("a name advertised on one served controller is seen by ble scan --json on the other")
    func advertiseIsScanned() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let advertiser = Process()
        advertiser.executableURL = URL(fileURLWithPath: executable)
        advertiser.arguments = ["advertise", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--name", "CLI Advert",
                                "--service", "180F", "--seconds", "30"]
        advertiser.standardOutput = FileHandle.nullDevice
        try advertiser.run()
        defer {
            if advertiser.isRunning {
                kill(advertiser.processIdentifier, SIGKILL)
                advertiser.waitUntilExit()
            }
        }
        let scan = try runProcess(executable, ["scan", "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--json", "--seconds", "3"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let objects = scan.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let advert = try #require(objects.first { $0["localName"] as? String == "CLI Advert" }, "\(scan.stdout)")
        #expect(advert["address"] as? String == served.devices[0].address)
        #expect(advert["serviceUUIDs"] as? [String] == ["180F"])
        #expect(advert["connectable"] as? Bool == true)
    }

    @Test("--snoop writes a btsnoop file of the host's packets, starting with HCI_Reset sent")
    func snoopFile() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("advertise-\(getpid()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try runProcess(executable, ["advertise", "--name", "Snooped", "--seconds", "0.5", "--snoop", path])
        #expect(result.status == 0, "\(result.stderr)")
        var reader = try BTSnoop.Reader(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let records = try reader.readAll()
        let first = try #require(records.first)
        #expect(first.direction == .sent)
        #expect(Array(first.data) == [0x01, 0x03, 0x0C, 0x00])
        #expect(records.contains { $0.direction == .received })
        // LE Set Advertising Enable (0x200A) with enable = 1 went out.
        #expect(records.contains { Array($0.data) == [0x01, 0x0A, 0x20, 0x01, 0x01] })
    }

    @Test("advertise refuses an interval below 20 ms in one sentence")
    func badInterval() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["advertise", "--interval", "5", "--seconds", "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("outside 20 ms to 10240 ms"))
    }
}
