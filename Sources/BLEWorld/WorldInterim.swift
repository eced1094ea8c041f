// INTERIM — deleted when branch `world` merges. It declares only the parts of the World API
// (brief-world.md) that scenarios, the runner and `ble sim` use, with the smallest behaviour
// that lets them run: a time-ordered event queue, HCI between hosts and controllers, power,
// and a btsnoop capture. There is no radio here: transmissions go nowhere.

import BLEController
import BLEWire

/// A point or direction in the world, in metres.
public struct Vector3: Hashable, Sendable, Codable {
    /// East.
    public var x: Double
    /// North.
    public var y: Double
    /// Up.
    public var z: Double
    /// A vector with every component.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
    /// The straight-line distance between two points.
    public static func distance(_ a: Vector3, _ b: Vector3) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)).squareRoot()
    }
}

/// Realistic radio effects, or none (for fast tests).
public enum TimingMode: String, Sendable, Codable {
    /// Loss, collisions, shadowing and sensitivity apply.
    case realistic
    /// No loss of any kind; timing still follows airtime.
    case ideal
}

/// The radio propagation model of a world.
public struct RadioModel: Hashable, Sendable, Codable {
    /// Path loss at 1 m in dB.
    public var referenceLossDB: Double
    /// Path-loss exponent.
    public var pathLossExponent: Double
    /// Standard deviation of the seeded Gaussian shadowing in dB.
    public var shadowingSigmaDB: Double
    /// Whether Rayleigh fast fading applies.
    public var fastFading: Bool
    /// How much stronger a packet must be than its interferers to survive a collision.
    public var captureMarginDB: Double
    /// A model; every parameter defaulted.
    public init(referenceLossDB: Double = 40, pathLossExponent: Double = 2.5, shadowingSigmaDB: Double = 0,
                fastFading: Bool = false, captureMarginDB: Double = 6) {
        self.referenceLossDB = referenceLossDB
        self.pathLossExponent = pathLossExponent
        self.shadowingSigmaDB = shadowingSigmaDB
        self.fastFading = fastFading
        self.captureMarginDB = captureMarginDB
    }
}

/// What a world is built from.
public struct WorldConfiguration: Sendable {
    /// The seed of every random choice in the world.
    public var seed: UInt64
    /// Realistic or ideal radio.
    public var timing: TimingMode
    /// The propagation model.
    public var radio: RadioModel
    /// A configuration.
    public init(seed: UInt64, timing: TimingMode = .realistic, radio: RadioModel = RadioModel()) {
        self.seed = seed
        self.timing = timing
        self.radio = radio
    }
}

/// An antenna's gain pattern.
public enum AntennaPattern: Hashable, Sendable, Codable {
    /// The same gain in every direction.
    case isotropic
    /// Gain falls off away from the heading.
    case directional(beamwidthDegrees: Double, frontToBackDB: Double)
}

/// A point of a route and the speed at which it is approached.
public struct Waypoint: Hashable, Sendable, Codable {
    /// Where.
    public var position: Vector3
    /// Metres per second towards it.
    public var speed: Double
    /// A waypoint.
    public init(position: Vector3, speed: Double) {
        self.position = position
        self.speed = speed
    }
}

/// A path a device follows.
public struct Route: Hashable, Sendable, Codable {
    /// The points in order.
    public var waypoints: [Waypoint]
    /// Whether the route starts again after the last point.
    public var loops: Bool
    /// A route.
    public init(waypoints: [Waypoint], loops: Bool) {
        self.waypoints = waypoints
        self.loops = loops
    }
}

/// A device's physical description.
public struct DeviceDescription: Hashable, Sendable {
    /// Its name, unique in a world.
    public var name: String
    /// Where it starts.
    public var position: Vector3
    /// Which way its antenna points, degrees.
    public var headingDegrees: Double
    /// The antenna pattern.
    public var antenna: AntennaPattern
    /// Antenna gain in dBi.
    public var antennaGainDBi: Double
    /// Receiver sensitivity in dBm.
    public var sensitivityDBm: Double
    /// Offset added to reported RSSI.
    public var rssiOffsetDB: Double
    /// Its route, if it moves.
    public var route: Route?
    /// A description; all but name and position defaulted.
    public init(name: String, position: Vector3, headingDegrees: Double = 0, antenna: AntennaPattern = .isotropic,
                antennaGainDBi: Double = 0, sensitivityDBm: Double = -95, rssiOffsetDB: Double = 0, route: Route? = nil) {
        self.name = name
        self.position = position
        self.headingDegrees = headingDegrees
        self.antenna = antenna
        self.antennaGainDBi = antennaGainDBi
        self.sensitivityDBm = sensitivityDBm
        self.rssiOffsetDB = rssiOffsetDB
        self.route = route
    }
}

/// The shape of an obstacle.
public enum ObstacleShape: Hashable, Sendable, Codable {
    /// An axis-aligned box.
    case box(min: Vector3, max: Vector3)
    /// An upright cylinder.
    case cylinder(base: Vector3, radius: Double, height: Double)
    /// A sphere.
    case sphere(center: Vector3, radius: Double)
}

/// Something that attenuates the line of sight.
public struct Obstacle: Hashable, Sendable, Codable {
    /// Its name.
    public var name: String
    /// Its shape.
    public var shape: ObstacleShape
    /// The loss through it.
    public var lossDB: Double
    /// An obstacle.
    public init(name: String, shape: ObstacleShape, lossDB: Double) {
        self.name = name
        self.shape = shape
        self.lossDB = lossDB
    }
}

/// A device's identity in a world.
public struct DeviceID: Hashable, Sendable, Comparable {
    /// Its index in order of addition.
    public let rawValue: Int
    /// An identifier.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Ordered by addition.
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The interim world's statistics: none.
public struct WorldStatistics: Sendable {}

/// Interim world: a scheduler and HCI plumbing, no radio.
public final class World {
    private struct Entry {
        var description: DeviceDescription
        var controller: any SimulatedController
        var powered = true
        var writer = BTSnoop.Writer()
        var snoop: [UInt8] = []
    }
    private struct Scheduled {
        var time: Microseconds
        var sequence: Int
        var action: (World) -> Void
    }
    private var entries: [Entry] = []
    private var queue: [Scheduled] = []
    private var sequence = 0

    /// A world with `configuration`.
    public init(configuration: WorldConfiguration) {}

    /// The virtual time.
    public private(set) var now: Microseconds = 0

    /// Adds a device.
    @discardableResult
    public func addDevice(_ description: DeviceDescription, controller: some SimulatedController) -> DeviceID {
        entries.append(Entry(description: description, controller: controller))
        return DeviceID(rawValue: entries.count - 1)
    }

    /// Adds an obstacle (ignored here).
    public func addObstacle(_ obstacle: Obstacle) {}

    /// Every device in order of addition.
    public var devices: [DeviceID] { entries.indices.map { DeviceID(rawValue: $0) } }

    /// A device's description.
    public func description(of device: DeviceID) -> DeviceDescription { entries[device.rawValue].description }

    /// A device's position (no motion here).
    public func position(of device: DeviceID) -> Vector3 { entries[device.rawValue].description.position }

    /// Hands a host packet to a device's controller now.
    public func sendToController(_ packet: H4.Packet, device: DeviceID) {
        guard entries.indices.contains(device.rawValue), entries[device.rawValue].powered else { return }
        record(packet, device: device, direction: .sent)
        let outputs = entries[device.rawValue].controller.handle(.hci(packet), at: now)
        deliver(outputs, device: device)
    }

    /// Controller → host packets.
    public var onHostPacket: ((DeviceID, H4.Packet) -> Void)?

    /// The time of the next scheduled event.
    public var nextEventTime: Microseconds? { queue.first?.time }

    /// Runs the earliest event; false if there is none.
    @discardableResult
    public func runNextEvent() -> Bool {
        guard !queue.isEmpty else { return false }
        let event = queue.removeFirst()
        now = max(now, event.time)
        event.action(self)
        return true
    }

    /// Runs every event up to `time`, then sets the clock to it.
    public func run(until time: Microseconds) {
        while let next = nextEventTime, next <= time { runNextEvent() }
        now = max(now, time)
    }

    /// Schedules a scripted action.
    public func schedule(at time: Microseconds, _ action: @escaping (World) -> Void) {
        let entry = Scheduled(time: max(time, now), sequence: sequence, action: action)
        sequence += 1
        let index = queue.firstIndex { ($0.time, $0.sequence) > (entry.time, entry.sequence) } ?? queue.count
        queue.insert(entry, at: index)
    }

    /// Ignored here.
    public func setPacketLoss(_ rate: Double, between a: DeviceID, and b: DeviceID) {}

    /// Ignored here.
    public func setLinkBlocked(_ blocked: Bool, between a: DeviceID, and b: DeviceID) {}

    /// Power-cycles a device's controller.
    public func powerCycle(_ device: DeviceID) {
        let outputs = entries[device.rawValue].controller.powerCycle(at: now)
        deliver(outputs, device: device)
    }

    /// Powers a device off or on.
    public func setPowered(_ on: Bool, device: DeviceID) {
        if on, !entries[device.rawValue].powered {
            entries[device.rawValue].powered = true
            powerCycle(device)
        } else {
            entries[device.rawValue].powered = on
        }
    }

    /// The btsnoop capture of a device.
    public func snoop(of device: DeviceID) -> [UInt8] {
        entries[device.rawValue].snoop.isEmpty ? BTSnoop.Writer.headerBytes : entries[device.rawValue].snoop
    }

    /// Statistics (none here).
    public var statistics: WorldStatistics { WorldStatistics() }

    private func deliver(_ outputs: [ControllerOutput], device: DeviceID) {
        for case let .hci(packet) in outputs {
            record(packet, device: device, direction: .received)
            onHostPacket?(device, packet)
        }
    }

    private func record(_ packet: H4.Packet, device: DeviceID, direction: BTSnoop.Direction) {
        if let bytes = try? entries[device.rawValue].writer.bytes(forH4Packet: packet.encoded(), direction: direction,
                                         unixMicroseconds: 1_767_225_600_000_000 + now) {
            entries[device.rawValue].snoop += bytes
        }
    }
}
