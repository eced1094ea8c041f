import BLEScenarios
import BLEWorld
import Testing
@testable import BLEDashboard

/// The world as the dashboard feeds it: the bus-fleet scenario advanced in ticks, as
/// ``DashboardFeed`` does on the wall clock.
@Suite("Dashboard world feed")
struct DashboardWorldTests {
    /// bus-fleet advanced one second at a time to `seconds`; every update.
    private func updates(until seconds: Double, plotted: [String] = []) throws -> (DashboardWorld, [DashboardMessage.Update]) {
        let world = try DashboardWorld(scenario: BundledScenarios.scenario(named: "bus-fleet"), plotted: plotted)
        var updates: [DashboardMessage.Update] = []
        for second in stride(from: 1.0, through: seconds, by: 1) { updates.append(world.advance(to: second).update) }
        return (world, updates)
    }

    @Test("The bus enters stop 1's zone in the tick its centre crosses x = 85 m (22.2 s)")
    func busEntersStopOne() throws {
        let (_, updates) = try updates(until: 30)
        let entered = updates.flatMap(\.events).filter { $0.kind == "enter" && $0.who == "bus" }
        #expect(entered.map(\.text) == ["bus entered stop 1"])
        #expect(entered.first.map { (22 ... 23).contains($0.time) } == true)
    }

    @Test("One late tick of 160 simulated seconds still sees the bus enter and leave each stop, each at its own time")
    func lateTickKeepsZoneChanges() throws {
        let world = try DashboardWorld(scenario: BundledScenarios.scenario(named: "bus-fleet"), plotted: [])
        let events = world.advance(to: 160).update.events.filter { $0.who == "bus" && $0.kind != "hearing" }
        #expect(events.map(\.text) == ["bus entered stop 1", "bus left stop 1", "bus entered stop 2", "bus left stop 2",
                                       "bus entered stop 3", "bus left stop 3"])
        // Entering stop 1 as a one-second tick sees it (22.2 s), not at the tick's end.
        #expect(events.first.map { (22 ... 23).contains($0.time) } == true)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(world.seconds == 160)
    }

    @Test("Past 50 advertisers and no --device the map shades the first 50 and counts the rest; named ones are all shaded")
    func shadingLimit() throws {
        let crowd = try BrowserSuites.DashboardCrowdBrowserTests.crowd(60)
        let advertisers = crowd.devices.filter { $0.advertising != nil }.count
        #expect(try DashboardWorld(scenario: crowd, plotted: []).unshadedTransmitters == advertisers - DashboardWorld.shadedLimit)
        let fleet = try DashboardWorld(scenario: BundledScenarios.scenario(named: "bus-fleet"), plotted: [])
        #expect(fleet.unshadedTransmitters == 0)
        #expect(try DashboardWorld(scenario: crowd, plotted: ["walker 59"]).unshadedTransmitters == 0)
    }

    @Test("The bus moves east 8.33 m a second while it drives, and only moved devices are sent")
    func busPositions() throws {
        let (world, updates) = try updates(until: 10)
        let xs = updates.compactMap { $0.positions["bus"]?[0] }
        #expect(xs.count == 10)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { abs($1 - $0 - 8.333) < 0.01 })
        // The gateways stand still: never in an update.
        #expect(!updates.contains { $0.positions.keys.contains("stop 1 gateway") })
        #expect(world.allPositions["stop 1 gateway"] == [100, 4])
    }

    @Test("Stop 1's gateway hears the bus's beacons as it waits there; each identity is named after its device")
    func stopGatewayHearsBus() throws {
        let (world, updates) = try updates(until: 40)
        let heard = updates.flatMap(\.rssi).filter { $0.receiver == "stop 1 gateway" && $0.beacon.hasPrefix("bus ") }
        #expect(!heard.isEmpty)
        #expect(heard.allSatisfy { (-110 ... -40).contains($0.rssi) && $0.time <= 40 })
        #expect(updates.flatMap(\.events).contains { $0.kind == "hearing" && $0.who == "stop 1 gateway" && $0.text.contains("began hearing bus") })
        #expect(Set(world.identityNames.values).isSuperset(of: ["bus front beacon", "bus middle beacon", "bus rear beacon"]))
    }

    @Test("--device limits the RSSI plot to that transmitter")
    func plottedDevice() throws {
        let (_, updates) = try updates(until: 40, plotted: ["bus middle beacon"])
        let beacons = Set(updates.flatMap(\.rssi).map(\.beacon))
        #expect(beacons == ["bus middle beacon"])
    }

    @Test("The map's geometry puts stop 2's gateway inside the plan's plot")
    func geometry() throws {
        let world = try DashboardWorld(scenario: BundledScenarios.scenario(named: "bus-fleet"), plotted: [])
        let g = world.geometry
        let x = g.left + (350 - g.originX) * g.scale, y = g.top + (g.topY - 4) * g.scale
        #expect(x > g.left && y > g.top)
        #expect(world.mapSVG.contains(">stop 2 gateway</text>"))
    }
}
