import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// `ble bench l2cap`, run as the built executable on its embedded world.
@Suite("ble bench command line", .serialized, .ownThread)
struct BenchCommandLineTests {
    /// The most LL payload a 7.5 ms interval carries one way on LE 2M with 251-octet PDUs:
    /// five full exchanges per event (Vol 6, Part B, §2.1, §4.5.1), 1255 octets / 7.5 ms.
    /// SDU octets are fewer than LL payload octets, so no simulated figure can pass it.
    private static let airLimit = 1255.0 / 0.0075 * 1.1

    @Test("bench l2cap --json prints one object whose figures agree with each other and with the air")
    func realisticFigures() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "l2cap", "--count", "40", "--size", "500", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = jsonLines(result.stdout)
        #expect(objects.count == 1, "\(result.stdout)")
        let figures = try #require(objects.first)
        #expect(figures["sdus"] as? Int == 40)
        #expect(figures["bytes"] as? Int == 20_000)
        #expect(figures["phy"] as? String == "2M")
        #expect(figures["maxTxOctets"] as? Int == 251)
        let wall = try #require(figures["wallSeconds"] as? Double)
        let rate = try #require(figures["bytesPerSecond"] as? Double)
        let simulated = try #require(figures["simulatedSeconds"] as? Double)
        let simulatedRate = try #require(figures["simulatedBytesPerSecond"] as? Double)
        #expect(wall > 0 && simulated > 0)
        #expect(abs(rate * wall - 20_000) < 20_000 * 0.02)
        #expect(abs(simulatedRate * simulated - 20_000) < 20_000 * 0.02)
        #expect(simulatedRate < Self.airLimit)
    }

    @Test("bench l2cap --speed max runs lock-step: the simulated figure stays within the air's limit; --snoop writes both hosts")
    func lockstepFigures() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let directory = temporaryPath("bench-snoop")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try runProcess(executable, ["bench", "l2cap", "--count", "200", "--speed", "max", "--json", "--snoop", directory])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(figures["sdus"] as? Int == 200)
        #expect(figures["bytes"] as? Int == 400_000)
        #expect(figures["speed"] as? String == "max")
        let simulatedRate = try #require(figures["simulatedBytesPerSecond"] as? Double)
        // Lock-step never lets the world run ahead of the hosts, so the data keeps the air
        // busy: far above what a world racing ahead achieves (a few kB/s), below the limit.
        #expect(simulatedRate > Self.airLimit / 4)
        #expect(simulatedRate < Self.airLimit)
        for name in ["central", "peripheral"] {
            var reader = try BTSnoop.Reader(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).btsnoop"))))
            let records = try reader.readAll()
            #expect(records.first.map { Array($0.data) } == [0x01, 0x03, 0x0C, 0x00])
            #expect(records.filter { $0.data.first == 0x02 }.count > 200 * 8)  // 9 K-frames per 2000-octet SDU
        }
    }

    @Test("bench l2cap refuses an unknown world or speed")
    func badOptions() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        #expect(try runProcess(executable, ["bench", "l2cap", "--world", "moon"]).status != 0)
        let speed = try runProcess(executable, ["bench", "l2cap", "--speed", "fast"])
        #expect(speed.status != 0)
        #expect(speed.stderr.contains("--speed must be a positive number or max"))
    }
}
