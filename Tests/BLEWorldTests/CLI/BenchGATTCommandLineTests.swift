import BLEController
import Foundation
import SimulatedTesting
import Testing

/// `ble bench notify` and `ble bench write`, run as the built executable on its embedded world.
@Suite("ble bench notify and write", .serialized, .ownThread)
struct BenchGATTCommandLineTests {
    /// The analytic ceiling of 244-octet notifications at 7.5 ms, 251-octet PDUs, LE 2M,
    /// from airtimes (Core 5.4, Vol 6, Part B, §2.1, §4.1.1, §4.5.1): each notification is
    /// one 251-octet data PDU (244 + 3 of ATT + 4 of L2CAP); an exchange is the central's
    /// empty PDU, T_IFS, the data PDU, T_IFS; whole exchanges per 7.5 ms event.
    static var ceiling244: Double {
        let exchange = Airtime.duration(pduOctets: 2, phy: .le2M) + Airtime.interFrameSpace
            + Airtime.duration(pduOctets: 2 + 251, phy: .le2M) + Airtime.interFrameSpace
        let perEvent = 7_500 / exchange
        return Double(perEvent) / 0.0075
    }

    @Test("the analytic ceiling: five 1392 µs exchanges per 7.5 ms event, 666.7 notifications/s")
    func ceiling() {
        #expect(Airtime.duration(pduOctets: 253, phy: .le2M) == 1048)
        #expect(abs(Self.ceiling244 - 2000.0 / 3) < 0.01)
    }

    @Test("bench notify in the realistic world: every notification in order, ≥ 95% of the analytic ceiling in simulated time")
    func realisticNotifications() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "notify", "--size", "244", "--count", "1000", "--world", "realistic", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(figures["notifications"] as? Int == 1000)
        #expect(figures["inOrder"] as? Int == 1000)
        #expect(figures["bytes"] as? Int == 244_000)
        #expect(figures["phy"] as? String == "2M")
        #expect(figures["maxTxOctets"] as? Int == 251)
        #expect(figures["attMTU"] as? Int == 517)
        let simulated = try #require(figures["simulatedNotificationsPerSecond"] as? Double)
        #expect(simulated >= Self.ceiling244 * 0.95, "\(simulated) notifications/s in simulated time")
        #expect(simulated <= Self.ceiling244 * 1.001, "nothing passes the air's limit")
        let reported = try #require(figures["ceilingNotificationsPerSecond"] as? Double)
        #expect(abs(reported - Self.ceiling244) < 0.01)
        let simulatedBytes = try #require(figures["simulatedBytesPerSecond"] as? Double)
        #expect(abs(simulatedBytes - simulated * 244) < 1)
    }

    @Test("bench notify in the ideal world (no airtime): 20-octet values all in order; the wall-clock figures agree with each other")
    func idealNotifications() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "notify", "--size", "20", "--count", "600", "--world", "ideal", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(figures["notifications"] as? Int == 600)
        #expect(figures["inOrder"] as? Int == 600)
        #expect(figures["speed"] as? String == "max")
        let wall = try #require(figures["wallSeconds"] as? Double)
        let rate = try #require(figures["notificationsPerSecond"] as? Double)
        let bytes = try #require(figures["bytesPerSecond"] as? Double)
        #expect(wall > 0)
        // wallSeconds is printed to the millisecond: on a fast run that rounding is the error.
        #expect(abs(rate * wall - 600) <= rate * 0.0005 + 6)
        #expect(abs(bytes - rate * 20) < 1)
        // The ideal world's links have no airtime: the data moves in zero simulated time,
        // so the world's clock only runs while the hosts have nothing to do (a figure in
        // simulated time says nothing there; the realistic-world test checks the air's).
        let simulatedSeconds = try #require(figures["simulatedSeconds"] as? Double)
        #expect(simulatedSeconds >= 0)
    }

    @Test("bench write: every Write Request acknowledged and stored in order")
    func writes() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "write", "--size", "20", "--count", "150", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(figures["writes"] as? Int == 150)
        #expect(figures["stored"] as? Int == 150)
        #expect(figures["storedInOrder"] as? Int == 150)
        let rate = try #require(figures["writesPerSecond"] as? Double)
        let wall = try #require(figures["wallSeconds"] as? Double)
        // wallSeconds is printed to the millisecond: on a fast run that rounding is the error.
        #expect(abs(rate * wall - 150) <= rate * 0.0005 + 2)
        // The ideal world has no airtime, so the round trips take no simulated time.
        #expect(figures["world"] as? String == "ideal")
    }

    @Test("bench write in the ideal world says that its simulated time is n/a, not 0 writes/s")
    func idealSimulatedTimeIsNotApplicable() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "write", "--size", "20", "--count", "50"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  simulated time: n/a (the ideal world's data takes no airtime"), "\(result.stdout)")
        // No rate on the simulated-time line (the wall-clock line's rate may well end in "0.0").
        let simulated = result.stdout.split(separator: "\n").first { $0.contains("simulated time:") } ?? ""
        #expect(!simulated.contains("writes/s"), "\(result.stdout)")
    }

    @Test("bench write in the realistic world: a round trip needs a connection event each way, never two per 7.5 ms event")
    func realisticWrites() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["bench", "write", "--size", "20", "--count", "100", "--world", "realistic", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(jsonLines(result.stdout).first, "\(result.stdout)")
        #expect(figures["storedInOrder"] as? Int == 100)
        let simulated = try #require(figures["simulatedWritesPerSecond"] as? Double)
        #expect(simulated > 0 && simulated <= 1 / 0.0075 * 1.001)
    }

    @Test("bench notify and write refuse sizes, intervals and PHYs they cannot use")
    func badOptions() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let small = try runProcess(executable, ["bench", "notify", "--size", "3"])
        #expect(small.status != 0)
        #expect(small.stderr.contains("--size must be from 4 to 514 octets"))
        let interval = try runProcess(executable, ["bench", "write", "--interval", "8"])
        #expect(interval.status != 0)
        #expect(interval.stderr.contains("--interval must be a multiple of 1.25 ms"))
        #expect(try runProcess(executable, ["bench", "notify", "--phy", "coded"]).status != 0)
    }
}
