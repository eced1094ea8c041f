import BLEBeacons
import BLEScenarios
import BLEWorld
import Testing

/// The distance from `point` to the bus body (12 m x 2.5 m x 3 m, centred on `bus` in x
/// and y, from the ground up), 0 inside.
func distanceToBus(_ point: Vector3, bus: Vector3) -> Double {
    let dx = max(abs(point.x - bus.x) - 6, 0)
    let dy = max(abs(point.y - bus.y) - 1.25, 0)
    let dz = max(point.z - 3, -point.z, 0)
    return (dx * dx + dy * dy + dz * dz).squareRoot()
}

/// Where the bus is, from a ceiling beacon's position and its offset on the bus.
func busPosition(_ reception: BeaconReception) -> Vector3? {
    guard let beacon = reception.beaconPosition else { return nil }
    let offset: Double = reception.beacon.contains("front") ? 4 : reception.beacon.contains("rear") ? -4 : 0
    return Vector3(x: beacon.x - offset, y: beacon.y, z: beacon.z - 2.7)
}

/// Scenarios/bus-stop.yaml: a beacon on a pole's south face, a parked bus with ceiling beacons.
@Suite("The bus stop scenario")
struct BusStopScenarioTests {
    @Test("The pole's beacon is first heard about 50 m to the south and never to the north")
    func poleHeardSouthOnly() throws {
        let timeline = try runBundled("bus-stop")
        let south = timeline.receptions(of: "south walker")
        let first = try #require(south.first)
        // -12 dBm - 40 dB - 25 log10(d) = -95 dBm at 52.5 m; the walker's path is straight south.
        #expect(first.observerPosition.y < -45 && first.observerPosition.y > -55, "first heard at y = \(first.observerPosition.y)")
        #expect(south.allSatisfy { $0.observerPosition.y < 0 })
        #expect(timeline.events(of: "south walker").map(\.kindName) == ["firstHeard", "enter"])
        #expect(timeline.receptions(of: "north walker").isEmpty)
        #expect(timeline.events(of: "north walker").isEmpty)
    }

    @Test("The bus's ceiling beacons are heard only close to the bus, never more than 5 m from it")
    func busHeardOnlyClose() throws {
        let timeline = try runBundled("bus-stop")
        let bus = Vector3(x: 100, y: 0, z: 0)
        for walker in ["side walker", "front walker"] {
            let receptions = timeline.receptions(of: walker)
            #expect(!receptions.isEmpty, "\(walker) never heard the bus")
            let farthest = receptions.map { distanceToBus($0.observerPosition, bus: bus) }.max() ?? 0
            #expect(farthest <= 5, "\(walker) heard the bus \(farthest) m from it")
            #expect(timeline.events(of: walker, "enter").map(\.region) == ["bus 42"])
        }
        // Walking from 15 m away, the side walker is first heard within 2 m of the bus's side.
        let first = try #require(timeline.receptions(of: "side walker").first)
        #expect(distanceToBus(first.observerPosition, bus: bus) < 2)
    }
}

/// Scenarios/bus-route.yaml: a bus past three stops at 30 km/h, a rider and a waiting phone.
@Suite("The bus route scenario")
struct BusRouteScenarioTests {
    @Test("The rider enters, passes and exits each stop in route order, about 30 s apart at 30 km/h")
    func riderLogsStops() throws {
        let timeline = try runBundled("bus-route")
        let rider = timeline.events(of: "rider").filter { $0.kindName != "firstHeard" }
        #expect(rider.map(\.kindName) == ["enter", "passed", "exit", "enter", "passed", "exit", "enter", "passed", "exit"])
        #expect(timeline.events(of: "rider", "enter").map(\.region) == ["stop 1", "stop 2", "stop 3"])
        #expect(timeline.events(of: "rider", "exit").map(\.region) == ["stop 1", "stop 2", "stop 3"])
        // The bus leaves x = -100 at 8.333 m/s: level with x = 100, 350 and 600 at 24, 54 and 84 s.
        let passed = timeline.events(of: "rider", "passed")
        #expect(passed.map { $0.sighting?.beacon } == ["stop 1 beacon", "stop 2 beacon", "stop 3 beacon"])
        for (event, expected) in zip(passed, [24.0, 54.0, 84.0]) {
            #expect(abs(event.seconds - expected) < 1, "passed at \(event.seconds) s, expected about \(expected) s")
        }
        // Each exit follows the stop's last hearing by the 10 s exit period, before the next stop.
        let exits = timeline.events(of: "rider", "exit").map(\.seconds)
        #expect(zip(exits, [24.0, 54.0, 84.0]).allSatisfy { $0 - $1 > 9 && $0 - $1 < 12 })
    }

    @Test("The waiting phone sees the bus's beacons enter and exit as the bus passes stop 2")
    func waitingPhoneSeesBus() throws {
        let timeline = try runBundled("bus-route")
        let waiting = timeline.events(of: "waiting")
        let enter = try #require(timeline.events(of: "waiting", "enter").first)
        let exit = try #require(timeline.events(of: "waiting", "exit").first)
        #expect(waiting.filter { $0.kindName == "enter" || $0.kindName == "exit" }.map(\.kindName) == ["enter", "exit"])
        #expect(enter.region == "bus 42" && exit.region == "bus 42")
        #expect(abs(enter.seconds - 54) < 2)
        let heard = Set(timeline.events(of: "waiting", "firstHeard").compactMap { $0.sighting?.beacon })
        #expect(!heard.isEmpty && heard.isSubset(of: ["bus front beacon", "bus middle beacon", "bus rear beacon"]))
        // Every hearing of the bus's beacons, from the kerb, is within 5 m of the moving bus.
        let receptions = timeline.receptions(of: "waiting")
        #expect(!receptions.isEmpty)
        for reception in receptions {
            let bus = try #require(busPosition(reception))
            #expect(distanceToBus(reception.observerPosition, bus: bus) <= 5)
        }
        // The rider never hears the waiting phone's region (it monitors stops only), and
        // the waiting phone monitors the bus only.
        #expect(timeline.receptions(of: "waiting").allSatisfy { $0.identity.major == 42 })
    }
}
