import BLEHost
import BLEWire
import Foundation
import Testing

/// The committed corpora of the host's stateful fuzz targets (Fuzz/Stateful/Corpus),
/// replayed through the same drivers and invariant checks libFuzzer runs
/// (docs/fuzzing.md), so that every test run checks the invariants on them.
@Suite("Stateful fuzz corpora")
struct StatefulFuzzReplayTests {
    /// The corpus files of `target`, sorted by name; empty when the folder is missing.
    static func corpus(_ target: String) -> [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fuzz/Stateful/Corpus/\(target)")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Runs every corpus file of `target` through `driver`, recording each broken
    /// invariant; returns the total of the depth each run reports (pairings completed,
    /// channels opened, ...), so that a shallow corpus cannot pass unnoticed.
    static func replay(_ target: String, _ driver: ([UInt8]) throws(StatefulFuzzViolation) -> Int) throws -> Int {
        var depth = 0
        for file in corpus(target) {
            let input = [UInt8](try Data(contentsOf: file))
            do {
                depth += try driver(input)
            } catch {
                Issue.record("\(target)/\(file.lastPathComponent): \(error)")
            }
        }
        return depth
    }

    @Test("The GATT server corpus keeps every invariant and gets requests answered")
    func gattServer() throws {
        #expect(try StatefulFuzzReplayTests.replay("gatt-server") { input throws(StatefulFuzzViolation) in
            try GATTServerFuzzDriver.run(input)
        } > 0)
    }

    @Test("The L2CAP corpus keeps every invariant and opens channels")
    func l2cap() throws {
        #expect(try StatefulFuzzReplayTests.replay("l2cap") { input throws(StatefulFuzzViolation) in
            try L2CAPFuzzDriver.run(input)
        } > 0)
    }

    @Test("The SMP pairing corpus keeps every invariant and completes pairings")
    func smpPairing() throws {
        #expect(try StatefulFuzzReplayTests.replay("smp-pairing") { input throws(StatefulFuzzViolation) in
            try SMPFuzzDriver.run(input)
        } > 0)
    }

    @Test("The HCI driver corpus keeps every invariant and brings links up")
    func hciDriver() throws {
        #expect(try StatefulFuzzReplayTests.replay("hci-driver") { input throws(StatefulFuzzViolation) in
            try HCIDriverFuzzDriver.run(input)
        } > 0)
    }

    @Test("The ATT client corpus keeps every invariant and completes procedures")
    func attClient() throws {
        #expect(try StatefulFuzzReplayTests.replay("att-client") { input throws(StatefulFuzzViolation) in
            try ATTClientFuzzDriver.run(input)
        } > 0)
    }

    @Test("A driver reports a broken invariant instead of passing it")
    func driversCanFail() {
        // A Read By Type Request answered with a Read Response breaks "its response or an
        // Error Response naming it": the check refuses it, so the replays cannot pass vacuously.
        var driver = try? GATTServerFuzzDriver()
        #expect(throws: StatefulFuzzViolation.self) {
            try driver?.checkAnswer([0x0B, 0x00], to: 0x08, handle: 1, connection: 0x0040)
        }
    }

    @Test("The ATT client driver reports a response delivered with no request outstanding")
    func attClientDriverCanFail() {
        // The bearer handing up a response nobody asked for breaks "a response without an
        // outstanding request is dropped": the check refuses it.
        var driver = ATTClientFuzzDriver(receiveMTU: 23, autoConfirm: true)
        let stray = ATTBearerOutput.response(ATTRequestID(rawValue: 1), .readResponse(ATT.ReadResponse(attributeValue: [0x01])))
        #expect(throws: StatefulFuzzViolation.self) {
            try driver.deliver([stray], peer: [0x0B, 0x01], closing: nil)
        }
    }
}
