import BLEPresence
import Testing

@Suite("ESPresense baseline")
struct ESPresenseBaselineTests {
    @Test("It places the device at the receiver with the highest 15 s median, not the highest mean or peak")
    func medianChoice() {
        // Kitchen: mostly −70 with two strong outliers (mean −64, peak −40); living: a steady −66.
        let kitchen: [(Double, String, Int)] = [(0, "kitchen", -70), (1, "kitchen", -40), (2, "kitchen", -70), (3, "kitchen", -70), (4, "kitchen", -70)]
        let living: [(Double, String, Int)] = (0...4).map { (Double($0) + 0.5, "living", -66) }
        #expect(zone(after: sightings(kitchen + living), through: ESPresenseBaseline(), at: 5) == "living")
    }

    @Test("Readings older than 15 s leave the median")
    func windowLength() {
        let readings = steady("kitchen", -50, from: 0, to: 10) + steady("living", -70, from: 0, to: 40)
        #expect(zone(after: sightings(readings), through: ESPresenseBaseline(), at: 20) == "kitchen")
        #expect(zone(after: sightings(readings), through: ESPresenseBaseline(), at: 26) == "living")
    }

    @Test("A silent device stays in its last zone until 150 s, then is forgotten")
    func stalePresentThenForgotten() {
        var baseline = ESPresenseBaseline()
        _ = baseline.observe(PresenceObservation(time: 0, identity: "phone", gateway: "kitchen", rssi: -60))
        #expect(baseline.advance(to: 100).isEmpty)
        #expect(baseline.zone(of: "phone") == "kitchen")
        #expect(baseline.advance(to: 149.5).isEmpty)
        #expect(baseline.advance(to: 150) == [PresenceEvent(time: 150, identity: "phone", kind: .exit("kitchen"))])
        #expect(baseline.zone(of: "phone") == nil)
    }
}
