import BLEFleetSimulation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shop that sees its regulars (`system: shop-regulars`, Scenarios/shop.yaml): the
/// entrance and counter gateways write what they hear into the store, and the shop asks the
/// back end who came to the counter and when — by presence (one zone at a time) and, to show
/// why, by hearing alone, which puts the passer-by outside the glass at the counter too.
public enum ShopRegularsSystem {
    /// The zone the shop asks about.
    public static let zone = "counter"

    /// One stay at the counter (`GET /zones/{zone}/visits`).
    public struct Visit: Decodable, Hashable, Sendable {
        /// The loyalty tag's identity.
        public var identity: String
        /// First heard there, µs since 1970.
        public var arrival: Int64
        /// Last heard there.
        public var departure: Int64
    }

    private struct Visits: Decodable { var visits: [Visit] }

    /// What the shop learnt, and the run to judge it against.
    public struct Outcome {
        /// The story.
        public var run: SystemRun
        /// Counter visits by presence (`?assign=presence`).
        public var byPresence: [Visit]
        /// Counter visits by hearing alone.
        public var byHearing: [Visit]
        /// The fleet run: its truth and epoch.
        public var fleet: FleetWorldRun
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "shop-regulars", summary: "which regulars came to the counter and when") { setup in
        try await run(setup).run
    }

    /// Plays the gateways into the store and asks for the counter's visits.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        do {
            let fleet = try await FleetPlay.play(setup, into: store.store)
            let end = setup.microseconds
            let ((byPresence, byHearing), answers) = try await FleetPlay.asking(store.store, at: end) { session, baseURL in
                func visits(_ query: String) async throws -> [Visit] {
                    guard let url = URL(string: baseURL.absoluteString + "/zones/\(zone)/visits" + query) else { throw SystemError("no address for \(zone)") }
                    let (data, response) = try await session.data(from: url)
                    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                        throw SystemError("the back end refused the counter's visits: \(String(decoding: data, as: UTF8.self))")
                    }
                    return try JSONDecoder().decode(Visits.self, from: data).visits
                }
                return (try await visits("?assign=presence"), try await visits(""))
            }
            var story = fleet.story + answers
            func line(_ visit: Visit, _ rule: String) -> SystemStoryLine {
                let arrival = Double(visit.arrival - fleet.run.epoch) / 1e6, departure = Double(visit.departure - fleet.run.epoch) / 1e6
                return SystemStoryLine(time: end, actor: .app, who: "shop",
                                       text: "\(rule): \(visit.identity) at the \(zone) " + String(format: "%.1f–%.1f s", arrival, departure))
            }
            story += byPresence.map { line($0, "by presence") } + byHearing.map { line($0, "by hearing") }
            await store.close()
            return Outcome(run: SystemRun(system: system.name, setup: setup, story: story), byPresence: byPresence, byHearing: byHearing,
                           fleet: fleet.run)
        } catch {
            await store.close()
            throw error
        }
    }
}
