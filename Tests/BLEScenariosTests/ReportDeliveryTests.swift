import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Testing

/// Advertising reports handed to a scenario's observers as values give exactly what the
/// same reports encoded as HCI events and decoded again give: the same receptions, counters,
/// timeline and, where HCI is captured, the same snoops (docs/world-benchmarks.md).
@Suite("Advertising reports as values")
struct ReportDeliveryTests {
    /// Everything a run produced that the way its reports were delivered must not change.
    struct Outcome: Equatable {
        var receptions: [WorldReception] = []
        var timeline = ""
        /// Every counter of every device, the HCI ones included.
        var statistics: [DeviceStatistics] = []
        /// The reports that reached the runner as values.
        var values = 0
    }

    static func run(_ scenario: Scenario, seconds: Double, reports: ScenarioReports) throws -> Outcome {
        let runner = try ScenarioRunner(scenario: scenario, reports: reports)
        var outcome = Outcome()
        runner.world.onReception = { outcome.receptions.append($0) }
        if let observe = runner.built.onAdvertisingReport {
            runner.built.onAdvertisingReport = { device, report in
                outcome.values += 1
                observe(device, report)
            }
        }
        outcome.timeline = runner.run(until: seconds).text
        outcome.statistics = runner.world.statistics.perDevice
        return outcome
    }

    @Test("A generated city gives the same receptions, counters and timeline with reports as values as through HCI")
    func city() throws {
        let scenario = try ScenarioLoader.parse(yaml: BeaconDrivingTests.city)
        let values = try Self.run(scenario, seconds: 8, reports: .values)
        let throughHCI = try Self.run(scenario, seconds: 8, reports: .throughHCI)
        #expect(values.values > 1_000)
        #expect(throughHCI.values == 0)
        #expect(values.receptions == throughHCI.receptions)
        #expect(values.statistics == throughHCI.statistics)
        #expect(values.timeline == throughHCI.timeline)
        #expect(values.timeline.contains("enter \""), "the city's observers record nothing: the comparison is empty")
    }

    @Test("Every bundled scenario gives the same receptions, counters and timeline either way", arguments: BundledScenarios.names)
    func bundled(name: String) throws {
        let scenario = try BundledScenarios.scenario(named: name)
        let seconds = Swift.min(20, scenario.durationSeconds ?? 20)
        let values = try Self.run(scenario, seconds: seconds, reports: .values)
        let throughHCI = try Self.run(scenario, seconds: seconds, reports: .throughHCI)
        #expect(values.receptions == throughHCI.receptions)
        #expect(values.statistics == throughHCI.statistics)
        #expect(values.timeline == throughHCI.timeline)
    }

    @Test("A built scenario whose reader takes packets gets every report encoded, byte for byte and in order")
    func packetsWithoutReader() throws {
        let scenario = try ScenarioLoader.parse(yaml: BeaconDrivingTests.city)
        struct Seen: Equatable {
            var time: Microseconds
            var device: DeviceID
            var packet: H4.Packet
        }
        func packets(_ reports: ScenarioReports) throws -> [Seen] {
            let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
            let built = try scenario.build(into: world, reports: reports)
            var seen: [Seen] = []
            built.onHostPacket = { [unowned world] device, packet in seen.append(Seen(time: world.now, device: device, packet: packet)) }
            world.run(until: 4_000_000)
            return seen
        }
        let values = try packets(.values)
        #expect(values.count > 500)
        #expect(values == (try packets(.throughHCI)))
    }

    @Test("A world that captures HCI writes the same snoops and timeline whichever way is asked for")
    func capturing() throws {
        let scenario = try ScenarioLoader.parse(yaml: BeaconDrivingTests.city)
        func snoops(_ reports: ScenarioReports) throws -> (snoops: [[UInt8]], timeline: String) {
            let runner = try ScenarioRunner(scenario: scenario, capturesHCI: true, reports: reports)
            let timeline = runner.run(until: 4).text
            return (runner.built.deviceIDs.map { runner.world.snoop(of: $0) }, timeline)
        }
        let values = try snoops(.values)
        let throughHCI = try snoops(.throughHCI)
        #expect(values.snoops == throughHCI.snoops)
        #expect(values.timeline == throughHCI.timeline)
        // The observers' snoops hold their advertising reports.
        #expect(values.snoops[0].count > 10_000)
    }
}
