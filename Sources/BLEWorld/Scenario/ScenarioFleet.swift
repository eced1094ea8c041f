/// A scenario device that is a fleet gateway (the file's `gateway:`): it scans like any
/// scanning device, and a fleet run turns what it keeps into sightings for the store
/// (DESIGN.md, "Fleets: many receivers, one store"). The world holds plain data: the
/// rules are parsed and applied by `BLEGateway`, with the syntax of `ble gateway`'s options.
public struct ScenarioGateway: Hashable, Sendable {
    /// The zone the gateway reports for: a name from the scenario's `zones`, or any name
    /// when the scenario declares no zone shapes (presence is then scored per gateway).
    public var zone: String
    /// What it keeps: `(kind, value)` pairs such as `("ibeacon", "8A6E…")` or
    /// `("irk", "rider=0123…")`, in the file's order; empty keeps every beacon frame.
    public var keep: [ScenarioGatewayRule]

    /// A gateway with every field.
    public init(zone: String, keep: [ScenarioGatewayRule] = []) {
        self.zone = zone
        self.keep = keep
    }
}

/// One rule of a gateway's `keep:` mapping, as written: `ble gateway --KIND VALUE`.
public struct ScenarioGatewayRule: Hashable, Sendable {
    /// The option's name: `ibeacon`, `eddystone`, `altbeacon`, `service`, `name`, `address` or `irk`.
    public var kind: String
    /// Its value, as `ble gateway` takes it.
    public var value: String

    /// A rule with both fields.
    public init(kind: String, value: String) {
        self.kind = kind
        self.value = value
    }

    /// The kinds a `keep:` mapping accepts, the options of `ble gateway` of the same names.
    public static let kinds = ["ibeacon", "eddystone", "altbeacon", "service", "name", "address", "irk"]
}

/// A named place of the scenario (the file's `zones:`): where a tracked device truly is,
/// for scoring presence against the world's truth. A zone may move with a device (a bus).
public struct ScenarioZone: Hashable, Sendable {
    /// The zone's name, which gateways report for.
    public var name: String
    /// Its shape, in world coordinates, or relative to ``attachedTo``'s position.
    public var shape: ObstacleShape
    /// The device it moves with, if any.
    public var attachedTo: String?

    /// A zone with every field.
    public init(name: String, shape: ObstacleShape, attachedTo: String? = nil) {
        self.name = name
        self.shape = shape
        self.attachedTo = attachedTo
    }
}

extension ObstacleShape {
    /// Whether `point` lies inside the shape or on its surface.
    public func contains(_ point: Vector3) -> Bool {
        switch self {
        case let .box(min, max):
            return point.x >= min.x && point.x <= max.x && point.y >= min.y && point.y <= max.y && point.z >= min.z && point.z <= max.z
        case let .cylinder(base, radius, height):
            let dx = point.x - base.x, dy = point.y - base.y
            return dx * dx + dy * dy <= radius * radius && point.z >= base.z && point.z <= base.z + height
        case let .sphere(center, radius):
            return Vector3.distance(point, center) <= radius
        }
    }

    /// The same shape moved by `offset`.
    public func translated(by offset: Vector3) -> ObstacleShape {
        switch self {
        case let .box(min, max): return .box(min: min + offset, max: max + offset)
        case let .cylinder(base, radius, height): return .cylinder(base: base + offset, radius: radius, height: height)
        case let .sphere(center, radius): return .sphere(center: center + offset, radius: radius)
        }
    }
}
