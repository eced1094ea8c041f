@testable import BLE
import Foundation
import SimulatedTesting
import Testing

/// A bonded client's Client Characteristic Configuration values reach the server's bond
/// file as they are written (Core 5.4, Vol 3, Part G, §3.3.3.3), not only when it leaves.
@Suite("Bonded clients' CCCD values in the bond file", .simulated, .serialized, .timeLimit(.minutes(3)))
struct BondedClientConfigurationTests {
    @Test("each CCCD write of a bonded client is in the server's file while the client is still connected")
    func savedOnWrite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cccd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try await PairingBench.make { BondStorage.file("\(directory)/bonds-\($0).json") }
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let pulse = try #require(bench.published.characteristic(PairingBench.pulse))
        let connection = try await bench.connect()
        _ = try await connection.pair()
        try await bench.serverLog.wait { $0.paired.count == 1 }
        let service = try #require(try await connection.services([PairingBench.service]).first)
        let characteristic = try #require(try await connection.characteristics(of: service).first { $0.uuid == PairingBench.pulse })
        let file = "\(directory)/bonds-0.json"
        let key = "\"0x" + String(pulse.valueHandle, radix: 16, uppercase: true).leftPadded(4) + "\""

        let values = try await connection.notifications(for: characteristic)
        try await within {
            while !((try? String(contentsOfFile: file, encoding: .utf8))?.contains(key + " : 1") ?? false) {
                try await testClock.sleep(for: .milliseconds(10))  // the file is written in the simulation's turn
            }
        }
        #expect(connection.isConnected, "saved before any disconnection")

        values.cancel()  // writes 0 to the CCCD
        try await within {
            while (try? String(contentsOfFile: file, encoding: .utf8))?.contains(key) ?? true {
                try await testClock.sleep(for: .milliseconds(10))  // the file is written in the simulation's turn
            }
        }
        #expect(connection.isConnected)
        await bench.world.close()
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
