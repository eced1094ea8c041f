import BLEBackend
import BLEFleetSimulation
import BLEFleetStore
import BLESystems
import BLEWorld
import BusOffice
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedTesting
import Testing

/// The bus office, end to end on the embedded store: the bus-fleet scenario's stop gateways
/// write what they hear into SQLite, the back end answers the office's client
/// (Examples/BusOffice) where bus 42 is and when it passed each stop (BLESystems'
/// ``BusOfficeSystem``, as `ble sim run bus-fleet` plays it), judged against where the world
/// put the bus.
@Suite("The bus office", .ownThread, .takesTurns)
struct BusOfficeTests {
    static let bus = BusOfficeSystem.bus
    /// Each stop's dwell in the scenario: the office's times must be within it of the truth.
    static let dwell = 20.0

    @Test("The office reports every stop bus 42 passed, arrival and departure within a stop's dwell time of the truth, and where it was last heard")
    func busPassesEachStop() async throws {
        let outcome = try await BusOfficeSystem.run(SystemsTesting.setup("bus-fleet"))
        let (passages, last, run) = (outcome.passages, outcome.last, outcome.fleet)
        for line in outcome.run.story.suffix(passages.count + 1) { print(line) }

        // The truth: when the bus's middle beacon was inside each stop's zone.
        let truth = SystemsTesting.visits(of: Self.bus.beacons[1], in: run.truth)
        #expect(truth.map(\.zone) == ["stop 1", "stop 2", "stop 3"], "\(truth)")
        #expect(passages.map(\.stop) == truth.map(\.zone), "one passage per stop, in order: \(passages)")
        for (passage, visit) in zip(passages, truth) {
            let arrival = Double(passage.arrival - run.epoch) / 1_000_000
            let departure = Double(passage.departure - run.epoch) / 1_000_000
            #expect(abs(arrival - visit.start) <= Self.dwell, "\(passage.stop): arrived at \(arrival) s, truth \(visit.start) s")
            #expect(abs(departure - visit.end) <= Self.dwell, "\(passage.stop): left at \(departure) s, truth \(visit.end) s")
        }
        let lastPosition = try #require(last)
        #expect(lastPosition.stop == "stop 3", "last heard at \(lastPosition.stop)")
        #expect(Double(lastPosition.time - run.epoch) / 1_000_000 >= truth.last?.start ?? .infinity)
    }

    @Test("An office asking for a bus that no gateway heard gets an empty timetable, not an error")
    func unheardBus() async throws {
        let directory = try SystemsTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        try await store.migrate()
        let ghost = Bus(number: 7, uuid: "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64", minors: [1])
        let answers = try await SystemsTesting.withBackend(store) { baseURL in
            // A session of its own: `URLSession.shared` is the simulated phones' (see
            // SimulatedNetworkProtocol.register()), and using it first would leave their requests to the real network.
            let office = BusOfficeClient(baseURL: baseURL, session: URLSession(configuration: .ephemeral))
            return (try await office.passages(of: ghost), try await office.lastPosition(of: ghost))
        }
        await store.close()
        #expect(answers.0.isEmpty)
        #expect(answers.1 == nil)
        #expect(BusTimetable.lines(bus: ghost, passages: answers.0, origin: 0) == ["bus 7  not heard at any stop"])
    }
}
