import BLEWorld

/// Which of a scenario's zones a device is really in: the first zone whose shape contains the
/// device's position, a zone attached to a device (`attachedTo:`, e.g. the inside of a bus)
/// moving with it. The world's truth that presence is scored against, and that the dashboard's
/// event log reports as devices entering and leaving zones.
public struct ZoneTruth {
    private let zones: [(name: String, shape: ObstacleShape, carrier: DeviceID?)]

    /// The zones of `scenario` as placed in the world by `built`.
    public init(scenario: Scenario, built: BuiltScenario) {
        zones = scenario.zones.map { zone in
            (name: zone.name, shape: zone.shape, carrier: zone.attachedTo.flatMap { built.id(of: $0) })
        }
    }

    /// The zone `device` is in at the world's current time, `nil` for none.
    public func zone(of device: DeviceID, in world: World) -> String? {
        let point = world.position(of: device)
        for zone in zones {
            var shape = zone.shape
            if let carrier = zone.carrier { shape = shape.translated(by: world.position(of: carrier)) }
            if shape.contains(point) { return zone.name }
        }
        return nil
    }
}
