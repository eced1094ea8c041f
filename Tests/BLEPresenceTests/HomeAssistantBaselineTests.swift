import BLEPresence
import Testing

@Suite("Home Assistant baseline")
struct HomeAssistantBaselineTests {
    @Test("It switches scanner only when the new one is at least 16 dB stronger")
    func sixteenDecibelRule() {
        var baseline = HomeAssistantBaseline()
        #expect(baseline.observe(PresenceObservation(time: 0, identity: "phone", gateway: "kitchen", rssi: -70))
            == [PresenceEvent(time: 0, identity: "phone", kind: .enter("kitchen"))])
        #expect(baseline.observe(PresenceObservation(time: 1, identity: "phone", gateway: "living", rssi: -55)).isEmpty)
        #expect(baseline.zone(of: "phone") == "kitchen")
        #expect(baseline.observe(PresenceObservation(time: 2, identity: "phone", gateway: "living", rssi: -54)) == [
            PresenceEvent(time: 2, identity: "phone", kind: .exit("kitchen")),
            PresenceEvent(time: 2, identity: "phone", kind: .enter("living")),
        ])
    }

    @Test("The 16 dB are counted from the current scanner's latest reading")
    func latestReading() {
        let readings: [(Double, String, Int)] = [(0, "kitchen", -80), (1, "kitchen", -50), (2, "living", -40)]
        #expect(zone(after: sightings(readings), through: HomeAssistantBaseline(), at: 3) == "kitchen")
    }

    @Test("It leaves a scanner that has been silent for 195 s for any other")
    func staleScanner() {
        let readings: [(Double, String, Int)] = [(0, "kitchen", -50)] + steady("living", -90, from: 10, to: 200, every: 10)
        #expect(zone(after: sightings(readings), through: HomeAssistantBaseline(), at: 190) == "kitchen")
        #expect(zone(after: sightings(readings), through: HomeAssistantBaseline(), at: 200) == "living")
    }

    @Test("A device unheard for 195 s goes stale and is in no zone")
    func staleDevice() {
        var baseline = HomeAssistantBaseline()
        _ = baseline.observe(PresenceObservation(time: 5, identity: "phone", gateway: "kitchen", rssi: -60))
        #expect(baseline.advance(to: 199.5).isEmpty)
        #expect(baseline.zone(of: "phone") == "kitchen")
        #expect(baseline.advance(to: 200) == [PresenceEvent(time: 200, identity: "phone", kind: .exit("kitchen"))])
        #expect(baseline.zone(of: "phone") == nil)
    }
}
