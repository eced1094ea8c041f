import BLEController
import BLEWorld

/// What a coverage map draws under its shading: the scenario seen from above at one time
/// — obstacles, devices with their headings, and routes.
public struct CoveragePlan: Hashable, Sendable {
    /// An obstacle's outline seen from above.
    public enum Outline: Hashable, Sendable {
        /// A box's footprint, between two corners.
        case rectangle(minX: Double, minY: Double, maxX: Double, maxY: Double)
        /// A cylinder's or sphere's footprint.
        case circle(x: Double, y: Double, radius: Double)
    }

    /// One obstacle where it is at the map's time.
    public struct Footprint: Hashable, Sendable {
        /// The obstacle's name in the scenario.
        public var name: String
        /// What crossing it costs, in dB.
        public var lossDB: Double
        /// Its outline.
        public var outline: Outline
    }

    /// One device where it is at the map's time.
    public struct Device: Hashable, Sendable {
        /// Its name in the scenario.
        public var name: String
        /// Where it is, in metres.
        public var position: Vector3
        /// Where its antenna faces, in degrees (0° east, counter-clockwise).
        public var headingDegrees: Double
        /// Whether its antenna has a main lobe (its heading then shapes its coverage).
        public var isDirectional: Bool
        /// Whether the map shades its coverage.
        public var isTransmitter: Bool
    }

    /// A device's route, as the polyline it follows.
    public struct RouteLine: Hashable, Sendable {
        /// The device that follows it.
        public var device: String
        /// Its start, then each waypoint (and the first again when it loops).
        public var points: [Vector3]
    }

    /// The obstacles, in the scenario's order.
    public var obstacles: [Footprint]
    /// The devices, in the scenario's order.
    public var devices: [Device]
    /// The routes of devices that move on their own.
    public var routes: [RouteLine]

    /// Every point the plan draws, for the map's extent.
    var drawnPoints: [Vector3] {
        var points = devices.map(\.position) + routes.flatMap(\.points)
        for footprint in obstacles {
            switch footprint.outline {
            case let .rectangle(minX, minY, maxX, maxY):
                points += [Vector3(x: minX, y: minY), Vector3(x: maxX, y: maxY)]
            case let .circle(x, y, radius):
                points += [Vector3(x: x - radius, y: y - radius), Vector3(x: x + radius, y: y + radius)]
            }
        }
        return points
    }

    /// The plan of `scenario` built into `world`, at `time`.
    init(scenario: Scenario, built: BuiltScenario, world: World, time: Microseconds, transmitters: Set<String>) {
        devices = scenario.devices.compactMap { device in
            guard let id = built.id(of: device.name) else { return nil }
            return Device(name: device.name, position: world.position(of: id, at: time), headingDegrees: world.heading(of: id, at: time),
                          isDirectional: device.description.antenna != .isotropic, isTransmitter: transmitters.contains(device.name))
        }
        routes = scenario.devices.compactMap { device in
            guard device.carriedBy == nil, let route = device.description.route, !route.waypoints.isEmpty else { return nil }
            var points = [device.description.position] + route.waypoints.map(\.position)
            if route.loops { points.append(route.waypoints[0].position) }
            return RouteLine(device: device.name, points: points)
        }
        var footprints = scenario.obstacles.map { Self.footprint($0, offset: .zero) }
        for attached in scenario.attachedObstacles {
            let offset = built.id(of: attached.device).map { world.position(of: $0, at: time) } ?? .zero
            footprints.append(Self.footprint(attached.obstacle, offset: offset))
        }
        obstacles = footprints
    }

    private static func footprint(_ obstacle: Obstacle, offset: Vector3) -> Footprint {
        let outline: Outline
        switch obstacle.shape {
        case let .box(min, max):
            outline = .rectangle(minX: min.x + offset.x, minY: min.y + offset.y, maxX: max.x + offset.x, maxY: max.y + offset.y)
        case let .cylinder(base, radius, _):
            outline = .circle(x: base.x + offset.x, y: base.y + offset.y, radius: radius)
        case let .sphere(center, radius):
            outline = .circle(x: center.x + offset.x, y: center.y + offset.y, radius: radius)
        }
        return Footprint(name: obstacle.name, lossDB: obstacle.lossDB, outline: outline)
    }
}
