import BLEFleet
import BLEFleetSimulation
import BLEGateway
import BLEWorld
import Foundation
import SimulatedTesting
import Testing

@Suite("Fleet runs in the world", .ownThread, .takesTurns)
struct FleetWorldRunTests {
    static func scenario(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/\(name).yaml")
        return try ScenarioLoader.load(path: url.standardizedFileURL.path)
    }

    @Test("Each stop's gateway hears the bus while it waits there, and sightings are numbered without gaps per gateway")
    func busFleetSightings() throws {
        let run = try FleetWorldRun(scenario: Self.scenario("bus-fleet"))
        run.run(until: 180)
        let sightings = run.batches.flatMap(\.sightings)
        for stop in 1 ... 3 {
            let gateway = "stop \(stop) gateway"
            let own = sightings.filter { $0.gateway == gateway }
            #expect(own.map(\.sequence) == Array(0 ..< Int64(own.count)), "\(gateway) numbers its sightings without gaps")
            let bus = own.filter { $0.identity.hasPrefix("ibeacon:3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64:42:") }
            let arrival = Double([24, 74, 124][stop - 1])
            let during = bus.filter { Double($0.time - run.epoch) / 1e6 >= arrival && Double($0.time - run.epoch) / 1e6 <= arrival + 20 }
            #expect(during.count > 50, "\(gateway) hears the bus while it waits (\(during.count) sightings)")
        }
        #expect(run.truth.samples["ibeacon:3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64:42:2"]?.contains { $0.zone == "stop 2" } == true)
    }

    @Test("The truth puts the waiting bus in its stop's zone and the moving bus in none")
    func truthFollowsTheBus() throws {
        let run = try FleetWorldRun(scenario: Self.scenario("bus-fleet"))
        run.run(until: 180)
        let samples = try #require(run.truth.samples["ibeacon:3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64:42:2"])
        func zone(at time: Double) -> String?? { samples.last { $0.time <= time }.map(\.zone) }
        #expect(zone(at: 34) == .some("stop 1"))
        #expect(zone(at: 60) == .some(nil))
        #expect(zone(at: 84) == .some("stop 2"))
        #expect(zone(at: 134) == .some("stop 3"))
    }

    @Test("The same scenario and seed give the same sightings")
    func deterministic() throws {
        let first = try FleetWorldRun(scenario: Self.scenario("shop"))
        first.run(until: 120)
        let second = try FleetWorldRun(scenario: Self.scenario("shop"))
        second.run(until: 120)
        #expect(first.batches == second.batches)
        #expect(!first.batches.isEmpty)
    }

    @Test("A scenario without gateways, or with a gateway rule that does not parse, is refused with a sentence")
    func refusals() throws {
        #expect(throws: FleetRunError.self) { try FleetWorldRun(scenario: Self.scenario("walk")) }
        let yaml = """
            name: bad
            devices:
              - {name: g, gateway: {zone: z, keep: {irk: "1234"}}}
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml)
        do {
            _ = try FleetWorldRun(scenario: scenario)
            Issue.record("a malformed IRK was accepted")
        } catch {
            #expect(error.description.contains("--irk \"1234\""))
        }
    }

    @Test("A gateway that names a zone the scenario does not declare is refused at load, naming the zones")
    func unknownZone() {
        let yaml = """
            name: bad
            zones: [{name: kitchen, box: {min: [0, 0, 0], max: [1, 1, 1]}}]
            devices:
              - {name: g, gateway: {zone: attic}}
            """
        #expect { try ScenarioLoader.parse(yaml: yaml) } throws: { error in
            "\(error)".contains("\"attic\" is not a zone of the scenario; zones: kitchen")
        }
    }
}
