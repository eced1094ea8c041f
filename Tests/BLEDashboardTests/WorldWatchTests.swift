import BLEScenarios
import BLEWorld
import Testing
@testable import BLEDashboard

/// The watch `ble sim serve --watch-port` installs on its world, judged against the in-process
/// dashboard's world (``DashboardWorld``, whose zones are the fleet run's truth): the same
/// scenario gives the same zone changes, and the RSSI points are thinned to one a second.
@Suite("World watch")
struct WorldWatchTests {
    /// bus-fleet built into a world with a watch, run to `seconds` one simulated second at a time; every update taken.
    private func watched(until seconds: Double) throws -> (WorldWatch, [DashboardMessage.Update]) {
        let scenario = try BundledScenarios.scenario(named: "bus-fleet")
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        let watch = try WorldWatch(scenario: scenario, built: built, world: world)
        var updates: [DashboardMessage.Update] = []
        for second in stride(from: 1.0, through: seconds, by: 1) {
            world.run(until: Int64(second * 1_000_000))
            updates.append(watch.take())
        }
        return (watch, updates)
    }

    @Test("The bus enters and leaves each stop when the in-process dashboard's world says, within a look (0.25 s)")
    func zonesMatchTheFleetRun() throws {
        let (_, updates) = try watched(until: 160)
        let watched = updates.flatMap(\.events).filter { $0.who == "bus" }
        let reference = try DashboardWorld(scenario: BundledScenarios.scenario(named: "bus-fleet"), plotted: [])
        let truth = reference.advance(to: 160).update.events.filter { $0.who == "bus" && $0.kind != "hearing" }
        #expect(watched.map(\.text) == truth.map(\.text))
        #expect(watched.count == 6)
        for (seen, true_) in zip(watched, truth) {
            #expect(abs(seen.time - true_.time) <= 0.5, "\(seen.text): watched at \(seen.time) s, true at \(true_.time) s")
        }
    }

    @Test("Positions come only for devices that moved; the bus moves east; the hello's snapshot has everyone")
    func positions() throws {
        let (watch, updates) = try watched(until: 20)
        let bus = updates.compactMap { $0.positions["bus"]?.first }
        #expect(bus.count >= 15, "the bus moved in \(bus.count) of 20 updates")
        #expect(zip(bus, bus.dropFirst()).allSatisfy { $0 <= $1 })
        let gateways = updates.filter { $0.positions["stop 1 gateway"] != nil }
        #expect(gateways.isEmpty, "a gateway that stands still is sent again")
        #expect(watch.snapshot.positions.count == watch.plan.devices.count)
        #expect(updates.last?.time == 20)
    }

    @Test("RSSI points: the stops' receivers hear the bus's beacons, one point a second at most per beacon and receiver")
    func rssiThinned() throws {
        let (watch, updates) = try watched(until: 60)
        let points = updates.flatMap(\.rssi)
        #expect(!points.isEmpty)
        #expect(points.contains { $0.beacon.hasPrefix("bus") && $0.receiver.hasPrefix("stop") }, "\(Set(points.map { $0.beacon + " at " + $0.receiver }))")
        var last: [String: Double] = [:]
        for point in points {
            let key = point.beacon + "\u{1F}" + point.receiver
            if let previous = last[key] { #expect(point.time - previous >= WorldWatch.rssiInterval) }
            last[key] = point.time
            #expect((-127 ... 20).contains(point.rssi))
        }
        #expect(watch.droppedPoints == 0)
    }
}
