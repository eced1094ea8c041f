import BLEHost

extension Central {
    /// Ranges beacons like Core Location's `startRangingBeacons(satisfying:)`: scans
    /// passively with duplicates, feeds every frame's RSSI to a `BeaconRanger` and, once a
    /// second, yields the beacons heard with their RSSI, filtered RSSI, estimated distance
    /// and proximity, closest first (an empty list when none is heard).
    ///
    /// ```swift
    /// let uuid = ProximityUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    /// for await beacons in try await device.central.rangeBeacons(satisfying: BeaconIdentityConstraint(uuid: uuid)) {
    ///     for beacon in beacons { print(beacon.identity, beacon.accuracy, beacon.proximity) }
    /// }
    /// ```
    /// - Parameters:
    ///   - constraint: the iBeacons to range; `nil` ranges every beacon heard, iBeacon,
    ///     AltBeacon and Eddystone (UID, URL and EID; telemetry identifies nothing).
    ///   - configuration: the ranger's filter, distance curve and thresholds.
    /// - Returns: the lists, one per second; times are since the scan started.
    /// - Throws: what ``scan(filter:options:)`` throws.
    public func rangeBeacons(
        satisfying constraint: BeaconIdentityConstraint? = nil, configuration: RangingConfiguration = RangingConfiguration()
    ) async throws(BLEError) -> BeaconUpdates<[RangedBeacon<BeaconIdentity>]> {
        let sightings = try await beacons()
        let inputs = sightings.withTicks(host: core.host)
        let (stream, output) = AsyncStream.makeStream(of: [RangedBeacon<BeaconIdentity>].self, bufferingPolicy: .bufferingNewest(64))
        let session = BeaconSession(sightings: sightings)
        let driver = Task {
            var ranger = BeaconRanger<BeaconIdentity>(configuration: configuration)
            for await input in inputs {
                switch input {
                case let .sighting(sighting):
                    guard let rssi = sighting.rssi, Self.admits(sighting.frame, to: constraint) else { continue }
                    ranger.add(sighting.frame, rssi: rssi, at: sighting.time.beaconMicroseconds)
                case let .tick(now):
                    output.yield(ranger.range(at: now))
                }
            }
            output.finish()
        }
        output.onTermination = { _ in driver.cancel() }
        session.run(driver)
        return BeaconUpdates(stream: stream, session: session)
    }

    /// Whether a ranging session with `constraint` ranges `frame`.
    static func admits(_ frame: BeaconFrame, to constraint: BeaconIdentityConstraint?) -> Bool {
        guard let constraint else { return frame.identity != nil }
        guard case let .iBeacon(beacon) = frame else { return false }
        return constraint.matches(beacon.identity)
    }
}

extension Duration {
    /// The duration in whole microseconds, the unit of ``BeaconTime``.
    var beaconMicroseconds: BeaconTime {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000
    }
}
