import BLEFleetSimulation
import CarerVisits
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The carer's visits (`system: carers-visits`, Scenarios/flat.yaml): the room gateways write
/// what they hear into the store, and the visit log (Examples/CarerVisits) asks the back end
/// the wristband's time per room — by presence, and by the two weaker rules it replaces — and
/// draws the heat map.
public enum CarersVisitsSystem {
    /// The wristband of flat.yaml.
    public static let wristband = "ibeacon:0B5E1F3C-8A24-4D6B-B0E9-71C2D4A8F930:1:1"

    /// What the log learnt, and the run to judge it against.
    public struct Outcome {
        /// The story.
        public var run: SystemRun
        /// Time per room by presence (one room at a time).
        public var presence: [RoomTime]
        /// Time per room counting every room that heard the wristband.
        public var each: [RoomTime]
        /// Time per room by the strongest mean RSSI of each 5 s.
        public var nearest: [RoomTime]
        /// The heat map of ``presence`` over the scenario's rooms (SVG).
        public var heatMap: String
        /// The fleet run: its truth and epoch.
        public var fleet: FleetWorldRun
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "carers-visits", summary: "the wristband's time per room, and its heat map") { setup in
        try await run(setup).run
    }

    /// Plays the gateways into the store, asks for the time per room and draws it.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        do {
            let fleet = try await FleetPlay.play(setup, into: store.store)
            let end = setup.microseconds
            let ((presence, each, nearest), answers) = try await FleetPlay.asking(store.store, at: end) { session, baseURL in
                let log = CarerVisitsClient(baseURL: baseURL, session: session)
                return (try await log.timePerRoom(of: wristband), try await log.timePerRoom(of: wristband, assign: "each"),
                        try await log.timePerRoom(of: wristband, assign: "nearest"))
            }
            var story = fleet.story + answers
            for (rule, times) in [("presence", presence), ("each", each), ("nearest", nearest)] {
                let rooms = times.map { "\($0.room) " + String(format: "%.0f s", $0.seconds) + " (\($0.visits) visits)" }
                story.append(SystemStoryLine(time: end, actor: .app, who: "visit log", text: "by \(rule): " + rooms.joined(separator: ", ")))
            }
            let rooms = setup.scenario.zones.compactMap { zone -> DwellHeatMap.Room? in
                guard case let .box(min, max) = zone.shape else { return nil }
                return DwellHeatMap.Room(name: zone.name, minX: min.x, minY: min.y, maxX: max.x, maxY: max.y)
            }
            let svg = DwellHeatMap.svg(title: "Wristband: time per room", rooms: rooms, times: presence)
            story.append(SystemStoryLine(time: end, actor: .app, who: "visit log", text: "drew the heat map of \(rooms.count) rooms (\(svg.utf8.count) bytes of SVG)"))
            await store.close()
            return Outcome(run: SystemRun(system: system.name, setup: setup, story: story), presence: presence, each: each, nearest: nearest,
                           heatMap: svg, fleet: fleet.run)
        } catch {
            await store.close()
            throw error
        }
    }
}
