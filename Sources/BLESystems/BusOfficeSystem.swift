import BLEFleetSimulation
import BusOffice
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bus office (`system: bus-office`, Scenarios/bus-fleet.yaml): gateways at the stops
/// write what they hear into the store, and the office (Examples/BusOffice) asks the back end
/// where bus 42 is and when it passed each stop.
public enum BusOfficeSystem {
    /// Bus 42 of bus-fleet.yaml: its three beacons.
    public static let bus = Bus(number: 42, uuid: "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64", minors: [1, 2, 3])

    /// What the office learnt, and the run to judge it against.
    public struct Outcome {
        /// The story.
        public var run: SystemRun
        /// The bus's passages, one per stop, as the office merged them.
        public var passages: [StopPassage]
        /// Where the bus was last heard.
        public var last: BusPosition?
        /// The fleet run: its truth and epoch.
        public var fleet: FleetWorldRun
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "bus-office", summary: "where bus 42 is and when it passed each stop") { setup in
        try await run(setup).run
    }

    /// Plays the gateways into the store and asks the office's questions.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        do {
            let fleet = try await FleetPlay.play(setup, into: store.store)
            let end = setup.microseconds
            let ((passages, last), answers) = try await FleetPlay.asking(store.store, at: end) { session, baseURL in
                let office = BusOfficeClient(baseURL: baseURL, session: session)
                return (try await office.passages(of: bus), try await office.lastPosition(of: bus))
            }
            var story = fleet.story + answers
            story += BusTimetable.lines(bus: bus, passages: passages, origin: fleet.run.epoch).map {
                SystemStoryLine(time: end, actor: .app, who: "office", text: $0)
            }
            if let last {
                story.append(SystemStoryLine(time: end, actor: .app, who: "office",
                                             text: "bus \(bus.number) last heard at \(last.stop) by \(last.gateway) at "
                                                 + String(format: "%.1f s", Double(last.time - fleet.run.epoch) / 1e6)))
            }
            await store.close()
            return Outcome(run: SystemRun(system: system.name, setup: setup, story: story), passages: passages, last: last, fleet: fleet.run)
        } catch {
            await store.close()
            throw error
        }
    }
}
