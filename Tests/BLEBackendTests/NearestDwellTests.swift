import BLEBackend
import Testing

/// Dwell by the nearest zone: each slot to the zone that heard an identity strongest.
@Suite("Nearest-zone dwell")
struct NearestDwellTests {
    static func at(_ seconds: Int64, _ zone: String, rssi: Int, _ identity: String = "wristband") -> ZoneSighting {
        ZoneSighting(identity: identity, zone: zone, gateway: "gw-" + zone, time: seconds * 1_000_000, rssi: rssi)
    }

    @Test("A wristband heard by two rooms at once counts only for the room that hears it strongest")
    func oneRoomAtATime() {
        // 0–9 s: kitchen strong, living room through the wall; 10–19 s the other way round.
        let sightings = (0 ..< 10).flatMap { [Self.at($0, "kitchen", rssi: -55), Self.at($0, "living room", rssi: -75)] }
            + (10 ..< 20).flatMap { [Self.at($0, "kitchen", rssi: -80), Self.at($0, "living room", rssi: -60)] }
        let dwell = ZoneVisits.nearestDwell(sightings, slot: 5_000_000, gap: 30_000_000)
        #expect(dwell == [ZoneDwell(zone: "kitchen", identity: "wristband", seconds: 10, visits: 1),
                          ZoneDwell(zone: "living room", identity: "wristband", seconds: 10, visits: 1)])
        // Counting every zone that heard it, as per-zone visits do, gives each room nearly all of it.
        let each = ZoneVisits.dwell(ZoneVisits.visits(sightings, gap: 30_000_000))
        #expect(each.map(\.seconds) == [19, 19])
    }

    @Test("The mean over a slot decides, so one strong fade does not move the wristband")
    func meanRidesOutAFade() {
        let sightings = [Self.at(0, "kitchen", rssi: -60), Self.at(1, "kitchen", rssi: -61), Self.at(2, "kitchen", rssi: -59),
                         Self.at(1, "bedroom", rssi: -50), Self.at(2, "bedroom", rssi: -95)]
        #expect(ZoneVisits.nearestDwell(sightings, slot: 5_000_000, gap: 30_000_000).map(\.zone) == ["kitchen"])
    }

    @Test("Slots in one zone further apart than the gap are separate visits; unheard slots count for no zone")
    func visitsAndSilence() {
        let sightings = [Self.at(0, "kitchen", rssi: -60), Self.at(5, "kitchen", rssi: -60), Self.at(100, "kitchen", rssi: -60)]
        #expect(ZoneVisits.nearestDwell(sightings, slot: 5_000_000, gap: 30_000_000)
            == [ZoneDwell(zone: "kitchen", identity: "wristband", seconds: 15, visits: 2)])
    }

    @Test("Times before the epoch and at the ends of time fall in slots without trapping")
    func extremes() {
        let sightings = [ZoneSighting(identity: "w", zone: "a", gateway: "g", time: .min, rssi: -60),
                         ZoneSighting(identity: "w", zone: "a", gateway: "g", time: -1, rssi: -60),
                         ZoneSighting(identity: "w", zone: "a", gateway: "g", time: .max, rssi: -60)]
        let dwell = ZoneVisits.nearestDwell(sightings, slot: 5_000_000, gap: 30_000_000)
        #expect(dwell.first?.visits == 3)
        #expect(ZoneVisits.nearestDwell(sightings, slot: 0, gap: 1).isEmpty)
    }
}

/// Dwell by the hysteresis presence algorithm, replayed over the stored sightings.
@Suite("Presence dwell")
struct PresenceDwellTests {
    @Test("A wearer heard clearly in one room, then in the next, is placed in one room at a time for about as long as each stay")
    func oneRoomAtATime() throws {
        let sightings = (0 ..< 60).flatMap { second -> [ZoneSighting] in
            let inKitchen = second < 30
            return [NearestDwellTests.at(Int64(second), "kitchen", rssi: inKitchen ? -55 : -85),
                    NearestDwellTests.at(Int64(second), "living room", rssi: inKitchen ? -85 : -55)]
        }
        let dwell = try #require(ZoneVisits.presenceDwell(sightings))
        #expect(dwell.map(\.zone) == ["kitchen", "living room"])
        for room in dwell {
            #expect(abs(room.seconds - 30) <= 6, "\(room)")
            #expect(room.visits == 1)
        }
        #expect(dwell.map(\.seconds).reduce(0, +) <= 60)
    }

    @Test("Sightings more than 7 days apart are refused rather than replayed step by step, and none give no dwell")
    func bounded() {
        let far = [ZoneSighting(identity: "w", zone: "a", gateway: "g", time: 0, rssi: -60),
                   ZoneSighting(identity: "w", zone: "a", gateway: "g", time: ZoneVisits.presenceSpan + 1, rssi: -60)]
        #expect(ZoneVisits.presenceDwell(far) == nil)
        #expect(ZoneVisits.presenceDwell([]) == [])
        let extremes = [ZoneSighting(identity: "w", zone: "a", gateway: "g", time: .min, rssi: -60),
                        ZoneSighting(identity: "w", zone: "a", gateway: "g", time: .max, rssi: -60)]
        #expect(ZoneVisits.presenceDwell(extremes) == nil)
    }
}
