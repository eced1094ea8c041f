import BLEBackend
import BLEFleet
import Testing

/// Visits, dwell and location as pure functions of zoned sightings.
@Suite("Zone visits")
struct ZoneVisitsTests {
    static func at(_ seconds: Int64, _ zone: String, _ identity: String = "bus", rssi: Int = -60, gateway: String? = nil) -> ZoneSighting {
        ZoneSighting(identity: identity, zone: zone, gateway: gateway ?? "gw-" + zone, time: seconds * 1_000_000, rssi: rssi)
    }

    @Test("Sightings closer than the gap make one visit; a longer silence starts another")
    func gapSplitsVisits() {
        let visits = ZoneVisits.visits([Self.at(0, "a"), Self.at(10, "a"), Self.at(40, "a"), Self.at(100, "a")], gap: 30_000_000)
        #expect(visits.map { [$0.arrival / 1_000_000, $0.departure / 1_000_000, Int64($0.sightings)] } == [[0, 40, 3], [100, 100, 1]])
    }

    @Test("A silence exactly the gap long stays in the visit")
    func gapIsInclusive() {
        #expect(ZoneVisits.visits([Self.at(0, "a"), Self.at(30, "a")], gap: 30_000_000).count == 1)
    }

    @Test("Overlapping zones keep visits of their own, ordered by arrival, whatever the input order")
    func overlappingZones() {
        let input = [Self.at(12, "b"), Self.at(0, "a"), Self.at(5, "b"), Self.at(10, "a"), Self.at(3, "a", "rider")]
        let visits = ZoneVisits.visits(input, gap: 30_000_000)
        #expect(visits.map { "\($0.identity)@\($0.zone)" } == ["bus@a", "rider@a", "bus@b"])
        #expect(visits[2].arrival == 5_000_000 && visits[2].departure == 12_000_000)
    }

    @Test("A visit keeps its strongest RSSI")
    func strongest() {
        let visits = ZoneVisits.visits([Self.at(0, "a", rssi: -80), Self.at(1, "a", rssi: -40), Self.at(2, "a", rssi: -70)], gap: 30_000_000)
        #expect(visits.first?.strongestRssi == -40)
    }

    @Test("Dwell adds the visits' lengths per zone and identity")
    func dwellAddsUp() {
        let visits = ZoneVisits.visits([Self.at(0, "a"), Self.at(20, "a"), Self.at(200, "a"), Self.at(210, "a"), Self.at(5, "b")], gap: 30_000_000)
        let dwell = ZoneVisits.dwell(visits)
        #expect(dwell == [ZoneDwell(zone: "a", identity: "bus", seconds: 30, visits: 2), ZoneDwell(zone: "b", identity: "bus", seconds: 0, visits: 1)])
    }

    @Test("The location is the strongest sighting within the window before the latest")
    func location() {
        let sightings = [Self.at(0, "a", rssi: -30), Self.at(95, "b", rssi: -70), Self.at(100, "c", rssi: -80)]
        #expect(ZoneVisits.location(sightings, window: 10_000_000)?.zone == "b")
        #expect(ZoneVisits.location(sightings, window: 200_000_000)?.zone == "a")
        #expect(ZoneVisits.location([], window: 1) == nil)
    }

    @Test("No sightings make no visits")
    func empty() {
        #expect(ZoneVisits.visits([], gap: 1).isEmpty)
        #expect(ZoneVisits.dwell([]).isEmpty)
    }
}

/// Times far apart do not trap.
@Suite("Zone visits at the edges of time")
struct ZoneVisitsEdgeTests {
    @Test("Sightings at the two ends of time make two visits and a dwell that saturates, without trapping")
    func extremeTimes() {
        let sightings = [ZoneSighting(identity: "a", zone: "z", gateway: "g", time: Int64.min, rssi: -50),
                         ZoneSighting(identity: "a", zone: "z", gateway: "g", time: Int64.max, rssi: -50)]
        let visits = ZoneVisits.visits(sightings, gap: 30_000_000)
        #expect(visits.count == 2)
        #expect(ZoneVisits.visits(sightings, gap: Int64.max).count == 1)
        #expect(ZoneVisits.dwell(ZoneVisits.visits(sightings, gap: Int64.max)).first?.seconds == Double(Int64.max) / 1_000_000)
        #expect(ZoneVisits.location(sightings, window: 10)?.time == Int64.max)
    }
}
