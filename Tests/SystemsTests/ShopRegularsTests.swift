import BLEFleetSimulation
import BLEFleetStore
import BLESystems
import BLEWorld
import Foundation
import SimulatedTesting
import Testing

/// The shop that sees its regulars, end to end on the embedded store (BLESystems'
/// ``ShopRegularsSystem``, as `ble sim run shop` plays it): the shop scenario's
/// entrance and counter gateways write what they hear into SQLite, and the back end's counter
/// visits by presence (`GET /zones/counter/visits?assign=presence`) say who came to the counter
/// and when, judged against where the world put each regular, while the passer-by heard
/// through the glass never reaches the counter.
@Suite("The shop's regulars", .ownThread, .takesTurns)
struct ShopRegularsTests {
    static let uuid = "E1B0C4A2-2F6D-4B8E-9A73-0D5C8F41B2E7"
    static func tag(_ minor: Int) -> String { "ibeacon:\(uuid):1:\(minor)" }

    @Test("Both regulars reach the counter, each arrival and departure within 15 s of the truth, and the passer-by never does")
    func counterVisits() async throws {
        let outcome = try await ShopRegularsSystem.run(SystemsTesting.setup("shop"))
        let (byPresence, byHearing, run) = (outcome.byPresence, outcome.byHearing, outcome.fleet)

        for minor in [1, 2] {
            let truth = SystemsTesting.visits(of: Self.tag(minor), in: run.truth).filter { $0.zone == "counter" }
            let reported = byPresence.filter { $0.identity == Self.tag(minor) }
            let times = reported.map { (Double($0.arrival - run.epoch) / 1e6, Double($0.departure - run.epoch) / 1e6) }
            print("regular \(minor): counter \(times) by presence, truth \(truth)")
            let first = try #require(times.first, "regular \(minor) never reached the counter by presence")
            let last = try #require(times.last)
            let trueVisit = try #require(truth.first)
            #expect(abs(first.0 - trueVisit.start) <= 15, "regular \(minor) arrived at \(first.0) s, truth \(trueVisit.start) s")
            #expect(abs(last.1 - (truth.last?.end ?? 0)) <= 15, "regular \(minor) left at \(last.1) s, truth \(truth.last?.end ?? 0) s")
        }
        #expect(!byPresence.contains { $0.identity == Self.tag(3) }, "the passer-by is not placed at the counter")
        // Hearing alone puts the passer-by, outside the glass, at the counter too.
        #expect(byHearing.contains { $0.identity == Self.tag(3) }, "the counter's gateway hears the passer-by through the glass")
    }
}
