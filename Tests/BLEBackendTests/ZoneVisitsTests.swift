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

/// Ride references: their form, and that they follow from content and counter only.
@Suite("Ride references")
struct RideReferenceTests {
    static let ride = RideLog(rider: "ann", vehicle: "bus-42", route: "42", boarded: .init(zone: "s1", time: 1), alighted: .init(zone: "s2", time: 9),
                              stops: [.init(zone: "s1", time: 1)], postedAt: 10)

    @Test("A reference is R- and two groups of four Crockford Base32 characters")
    func form() {
        let reference = RideReference.make(contentKey: RideReference.contentKey(of: Self.ride), counter: 0)
        #expect(RideReference.isWellFormed(reference))
        #expect(reference.count == 11)
        #expect(!reference.contains { "ILOU".contains($0) })
        #expect(!RideReference.isWellFormed("R-IIII-0000"))
        #expect(!RideReference.isWellFormed("r-0000-0000"))
        #expect(!RideReference.isWellFormed("R-0000-00000"))
    }

    @Test("The same content and counter give the same reference; another counter or rider another")
    func deterministic() {
        let key = RideReference.contentKey(of: Self.ride)
        #expect(RideReference.make(contentKey: key, counter: 3) == RideReference.make(contentKey: key, counter: 3))
        #expect(RideReference.make(contentKey: key, counter: 3) != RideReference.make(contentKey: key, counter: 4))
        var other = Self.ride
        other.rider = "bob"
        #expect(RideReference.contentKey(of: other) != key)
        var reposted = Self.ride
        reposted.postedAt = 99
        #expect(RideReference.contentKey(of: reposted) == key)
    }
}
