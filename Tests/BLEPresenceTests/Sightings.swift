import BLEPresence

/// Sightings of one identity, written as `(time, gateway, rssi)` for short tests.
func sightings(_ readings: [(Double, String, Int)], identity: String = "phone") -> [PresenceObservation] {
    readings.map { PresenceObservation(time: $0.0, identity: identity, gateway: $0.1, rssi: $0.2) }
}

/// `rssi` heard by `gateway` every `every` seconds from `from` to `to` (both included).
func steady(_ gateway: String, _ rssi: Int, from: Double, to: Double, every: Double = 0.5) -> [(Double, String, Int)] {
    stride(from: from, through: to, by: every).map { ($0, gateway, rssi) }
}

/// The zone `identity` is reported in after feeding `algorithm` the sightings up to `time`.
func zone(after observations: [PresenceObservation], through algorithm: some PresenceAlgorithm, at time: Double, identity: String = "phone") -> String? {
    var algorithm = algorithm
    _ = PresenceRunner().feed(&algorithm, observations: observations, from: 0, until: time)
    return algorithm.zone(of: identity)
}
