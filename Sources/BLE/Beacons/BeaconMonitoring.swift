import BLEHost

extension Central {
    /// Monitors beacon regions like Core Location's `startMonitoring(for:)`: scans
    /// passively with duplicates, feeds every iBeacon heard to a `BeaconMonitor` and
    /// yields its events — the state, then enter, on the first detection; the state, then
    /// exit, once none of a region's beacons was heard for the exit period.
    ///
    /// Exits are checked once a second and stamped with the moment they fell due, so an
    /// exit arrives at most a second after its time.
    ///
    /// ```swift
    /// let region = try BeaconRegion(identifier: "door", uuid: uuid, major: 1)
    /// for await event in try await device.central.monitorBeacons([region]) {
    ///     if case let .didEnter(region, time) = event { print("entered", region, time) }
    /// }
    /// ```
    /// - Parameters:
    ///   - regions: the regions, each starting in the unknown state when the scan starts.
    ///   - configuration: the exit period and the region limit.
    /// - Returns: the events, times in microseconds since the scan started.
    /// - Throws: ``BLEError/invalidParameters(_:)`` for more regions than the limit (Core
    ///   Location's 20 by default), or what ``scan(filter:options:)`` throws.
    public func monitorBeacons(
        _ regions: [BeaconRegion], configuration: MonitoringConfiguration = MonitoringConfiguration()
    ) async throws(BLEError) -> BeaconUpdates<MonitorEvent> {
        var monitor = BeaconMonitor(configuration: configuration)
        for region in regions {
            do {
                try monitor.startMonitoring(region, at: 0)
            } catch {
                throw .invalidParameters(error.description)
            }
        }
        let sightings = try await beacons()
        let inputs = sightings.withTicks(host: core.host)
        let (stream, output) = AsyncStream.makeStream(of: MonitorEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let session = BeaconSession(sightings: sightings)
        let driver = Task { [monitor] in
            var monitor = monitor
            for await input in inputs {
                let events: [MonitorEvent]
                switch input {
                case let .sighting(sighting): events = monitor.detected(sighting.frame, at: sighting.time.beaconMicroseconds)
                case let .tick(now): events = monitor.tick(at: now)
                }
                for event in events { output.yield(event) }
            }
            output.finish()
        }
        output.onTermination = { _ in driver.cancel() }
        session.run(driver)
        return BeaconUpdates(stream: stream, session: session)
    }
}
