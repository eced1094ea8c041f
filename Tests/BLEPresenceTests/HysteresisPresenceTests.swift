import BLEPresence
import Testing

@Suite("Hysteresis presence")
struct HysteresisPresenceTests {
    let parameters = HysteresisPresence.Parameters(window: 4, statistic: .meanOfStrongest(fraction: 0.5), margin: 6, dwell: 2, absenceTimeout: 15)

    func run(_ readings: [(Double, String, Int)], until end: Double) -> [PresenceEvent] {
        PresenceRunner().run(HysteresisPresence(parameters: parameters), observations: sightings(readings), from: 0, until: end).events
    }

    @Test("A device first heard enters the strongest zone after the dwell time")
    func firstEntry() {
        let events = run(steady("kitchen", -60, from: 0, to: 10) + steady("living", -80, from: 0, to: 10), until: 10)
        #expect(events == [PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen"))])
    }

    @Test("A zone that leads by less than the margin does not take the device")
    func belowMargin() {
        let events = run(steady("kitchen", -60, from: 0, to: 30) + steady("living", -55, from: 10, to: 30), until: 30)
        #expect(events == [PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen"))])
    }

    @Test("A zone that leads by the margin for the dwell time takes the device: exit then entry")
    func move() {
        let events = run(steady("kitchen", -60, from: 0, to: 30) + steady("living", -54, from: 10, to: 30), until: 30)
        #expect(events == [
            PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen")),
            PresenceEvent(time: 12, identity: "phone", kind: .exit("kitchen")),
            PresenceEvent(time: 12, identity: "phone", kind: .enter("living")),
        ])
    }

    @Test("A lead shorter than the dwell time does not move the device")
    func shortLead() {
        // Living leads by 8 dB from 10 s; a strong kitchen reading at 11 s cuts the lead to 5 dB.
        let readings = steady("kitchen", -60, from: 0, to: 30) + [(10, "living", -52), (11, "kitchen", -48)]
        let events = run(readings, until: 30)
        #expect(events == [PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen"))])
    }

    @Test("A device that goes quiet exits after the absence timeout")
    func absence() {
        let events = run(steady("kitchen", -60, from: 0, to: 20), until: 60)
        #expect(events == [
            PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen")),
            PresenceEvent(time: 35, identity: "phone", kind: .exit("kitchen")),
        ])
    }

    @Test("A short gap does not cause an exit")
    func shortGap() {
        let readings = steady("kitchen", -60, from: 0, to: 20) + steady("kitchen", -60, from: 32, to: 60)
        #expect(run(readings, until: 60) == [PresenceEvent(time: 2, identity: "phone", kind: .enter("kitchen"))])
    }

    @Test("Gateways of one zone count as one zone, scored by its best gateway")
    func zoneOfSeveralGateways() {
        let map: ZoneMap = ["living-east": "living", "living-west": "living"]
        let readings = steady("living-east", -75, from: 0, to: 10) + steady("living-west", -58, from: 0, to: 10)
            + steady("kitchen", -62, from: 0, to: 10)
        let events = PresenceRunner().run(
            HysteresisPresence(zoneMap: map, parameters: parameters), observations: sightings(readings), from: 0, until: 10
        ).events
        #expect(events == [PresenceEvent(time: 2, identity: "phone", kind: .enter("living"))])
    }

    @Test("A gateway missing from the zone map is a zone of its own name")
    func unmappedGateway() {
        #expect(ZoneMap(["a": "hall"]).zone(of: "b") == "b")
        #expect(ZoneMap(["a": "hall"]).zone(of: "a") == "hall")
    }

    @Test("The strongest-half statistic averages the strongest samples")
    func statistics() {
        #expect(RSSIStatistic.meanOfStrongest(fraction: 0.5).value(of: [-70, -50, -60, -90]) == -55)
        #expect(RSSIStatistic.median.value(of: [-70, -50, -60, -90]) == -65)
        #expect(RSSIStatistic.mean.value(of: [-70, -50, -60, -90]) == -67.5)
        #expect(RSSIStatistic.median.value(of: []) == nil)
    }
}
