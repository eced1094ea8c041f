import BLEScenarios
import BLEWorld
import Foundation
import Testing

/// What one scenario's world delivered over a bounded run, folded into figures that change
/// when any delivery changes: every reception's time, receiver, sender, channel and RSSI
/// (``World/onReception``), the world's counters that follow from them, and the timeline.
struct DeliveryDigest: Hashable, CustomStringConvertible {
    var receptions: Int
    var transmissions: Int
    var collisions: Int
    var receptionDigest: UInt64
    var timelineDigest: UInt64

    var description: String {
        "\(receptions) receptions, \(transmissions) transmissions, \(collisions) collisions, "
            + "receptions \(String(receptionDigest, radix: 16)), timeline \(String(timelineDigest, radix: 16))"
    }

    /// Folds `value` into `digest` (SplitMix64's finaliser over the running value).
    static func fold(_ digest: inout UInt64, _ value: UInt64) {
        digest = WorldRandom.mix(digest ^ value &+ 0x9E37_79B9_7F4A_7C15)
    }

    /// Runs the scenario in `file` with its own seed for `seconds` (at most its duration) on
    /// the world alone: observers and scripted devices run, phone programs and gateways'
    /// hosts (which the command line attaches) do not.
    static func run(file: URL, seconds: Double) throws -> DeliveryDigest {
        let scenario = try ScenarioLoader.load(path: file.path)
        let runner = try ScenarioRunner(scenario: scenario)
        var count = 0
        var digest: UInt64 = 0
        runner.world.onReception = { reception in
            count += 1
            fold(&digest, UInt64(bitPattern: reception.time))
            fold(&digest, UInt64(reception.receiver.rawValue))
            fold(&digest, UInt64(reception.sender.rawValue))
            fold(&digest, UInt64(reception.channel))
            fold(&digest, UInt64(bitPattern: Int64(reception.rssi)))
        }
        let timeline = runner.run(until: Swift.min(seconds, scenario.durationSeconds ?? seconds))
        var timelineDigest: UInt64 = 0
        for byte in timeline.text.utf8 { fold(&timelineDigest, UInt64(byte)) }
        let statistics = runner.world.statistics
        return DeliveryDigest(receptions: count, transmissions: statistics.transmissions, collisions: statistics.collisions,
                              receptionDigest: digest, timelineDigest: timelineDigest)
    }
}

/// The package root, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite("Delivery is pinned")
struct DeliveryDigestTests {
    /// Simulated seconds per scenario: enough for every scenario's beacons, scanners and
    /// collisions to be at work, short enough for a debug build.
    static let seconds = 20.0

    /// The scenario files in Scenarios/, by name.
    static func scenarioFiles() throws -> [(name: String, file: URL)] {
        let folder = packageRoot.appendingPathComponent("Scenarios")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { (String($0.dropLast(5)), folder.appendingPathComponent($0)) }
    }

    @Test("Every scenario in Scenarios/ delivers, with its seed, exactly what the recorded fixture says")
    func sameDeliveries() throws {
        let files = try Self.scenarioFiles()
        var measured: [String: DeliveryDigest] = [:]
        for (name, file) in files { measured[name] = try DeliveryDigest.run(file: file, seconds: Self.seconds) }
        if ProcessInfo.processInfo.environment["SWIFTBLE_RECORD_DELIVERY"] != nil {
            try DeliveryDigestFixture.write(measured, to: packageRoot.appendingPathComponent(
                "Tests/BLEScenariosTests/DeliveryDigestFixture.swift"))
        }
        #expect(Set(measured.keys) == Set(DeliveryDigestFixture.recorded.keys), "a scenario was added or removed: record the fixture again")
        for (name, digest) in measured.sorted(by: { $0.key < $1.key }) {
            #expect(digest == DeliveryDigestFixture.recorded[name], "\(name): \(digest)")
        }
    }

    @Test("The digest changes when one reception's RSSI changes")
    func digestSeesOneChange() {
        var a: UInt64 = 0, b: UInt64 = 0
        for value: UInt64 in [1, 2, 3] { DeliveryDigest.fold(&a, value) }
        for value: UInt64 in [1, 2, 4] { DeliveryDigest.fold(&b, value) }
        #expect(a != b)
    }
}
