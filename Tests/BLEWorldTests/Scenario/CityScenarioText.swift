/// A generated city as scenario text, in the shapes scripts/make-city-scenario.py writes
/// (phones standing and walking, gateways on roofs, iBeacons), laid out by a fixed
/// pseudo-random sequence so the text is the same on every run.
enum CityScenarioText {
    /// The region every beacon of the city belongs to.
    static let uuid = "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"

    /// The text of a city of `beacons` iBeacons, `phones` phones (every second one walking) and
    /// `gateways` gateways on a square kilometre.
    static func make(beacons: Int, phones: Int, gateways: Int) -> String {
        var state: UInt64 = 1
        func coordinate() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let centimetres = Int(state >> 33) % 100_000 - 50_000
            return "\(Double(centimetres) / 100)"
        }
        func hex(_ value: Int) -> String {
            let text = String(value & 0xFF, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
        let observe = "observe: {monitor: [{identifier: city, uuid: \(uuid)}], range: false, exitPeriod: 30}"
        var lines = ["name: city", "seed: 1", "duration: 60", "timing: realistic",
                     "radio:", "  referenceLossDB: 40", "  pathLossExponent: 2.5", "  shadowingSigmaDB: 2",
                     "  captureMarginDB: 6", "devices:"]
        for number in stride(from: 1, through: phones, by: 1) {
            var route = ""
            if number.isMultiple(of: 2) {
                let stops = (0 ..< 4).map { _ in "[\(coordinate()), \(coordinate()), 1.2]" }.joined(separator: ", ")
                route = ", route: {waypoints: [\(stops)], speed: 1.4, loop: true}"
            }
            lines.append("  - {name: phone \(number), address: \"D0:C1:00:00:\(hex(number >> 8)):\(hex(number))\", "
                         + "position: [\(coordinate()), \(coordinate()), 1.2]\(route), scan: {interval: 100, window: 100}, \(observe)}")
        }
        for number in stride(from: 1, through: gateways, by: 1) {
            lines.append("  - {name: gateway \(number), address: \"D0:C2:00:00:\(hex(number >> 8)):\(hex(number))\", "
                         + "position: [\(coordinate()), \(coordinate()), 4], antennaGain: 5, scan: {interval: 100, window: 100}, \(observe)}")
        }
        for number in stride(from: 1, through: beacons, by: 1) {
            lines.append("  - {name: beacon \(number), address: \"C0:C3:00:\(hex(number >> 16)):\(hex(number >> 8)):\(hex(number))\", "
                         + "addressType: random, position: [\(coordinate()), \(coordinate()), 3], txPower: -12, startAt: random, "
                         + "advertise: {type: nonconn_ind, interval: 1000, iBeacon: {uuid: \(uuid), major: 1, minor: \(number), "
                         + "measuredPower: -52}}}")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
