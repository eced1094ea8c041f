/// A device's handle in one world: its index in the order devices were added.
public struct DeviceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The index, from 0.
    public let rawValue: Int

    /// The identifier with this index. Only a world makes identifiers (``World/addDevice(_:controller:)``,
    /// ``World/devices``), so every identifier a caller holds names a device of its world.
    init(rawValue: Int) { self.rawValue = rawValue }

    /// Devices order by when they were added.
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }

    /// `device 3`.
    public var description: String { "device \(rawValue)" }
}

/// Where a device is and what its radio front end looks like (DESIGN.md, "The world"):
/// position, heading, antenna, receiver sensitivity, RSSI calibration and motion. Its
/// transmit power belongs to the controller (`RadioTransmission.txPowerDBm`).
public struct DeviceDescription: Hashable, Sendable {
    /// A name for reports and scenarios.
    public var name: String
    /// Where the device starts, in metres.
    public var position: Vector3
    /// The direction the antenna faces, degrees in the horizontal plane (0° along +x,
    /// counter-clockwise toward +y).
    public var headingDegrees: Double
    /// The antenna's directional pattern.
    public var antenna: AntennaPattern
    /// The antenna's peak gain in dBi, for transmission and reception alike.
    public var antennaGainDBi: Double
    /// The weakest signal the receiver decodes, in dBm.
    public var sensitivityDBm: Double
    /// Calibration error of the reported RSSI, in dB, added to the true received power.
    public var rssiOffsetDB: Double
    /// The route the device follows from `position`, or `nil` to stay put.
    public var route: Route?
    /// Whether the device faces the way it moves: its heading is then the direction of
    /// its route's current leg (or its carrier's, see ``World/carry(_:by:offset:)``) and
    /// `headingDegrees` only counts before it first moves. A person walking with a phone
    /// faces where they walk, so once past a beacon their body is between the two.
    public var headingFollowsRoute: Bool
    /// The loss in dB of the body of the person holding the device, for signals arriving
    /// from (or leaving toward) straight behind them; 0 for a device nobody holds. See
    /// ``BodyShadow``.
    public var bodyLossDB: Double

    /// A device at `position`; the defaults describe a typical phone or beacon: isotropic
    /// 0 dBi antenna, −95 dBm sensitivity, no RSSI offset, no motion.
    public init(name: String, position: Vector3, headingDegrees: Double = 0, antenna: AntennaPattern = .isotropic,
                antennaGainDBi: Double = 0, sensitivityDBm: Double = -95, rssiOffsetDB: Double = 0, route: Route? = nil,
                headingFollowsRoute: Bool = false, bodyLossDB: Double = 0) {
        self.name = name
        self.position = position
        self.headingDegrees = headingDegrees
        self.antenna = antenna
        self.antennaGainDBi = antennaGainDBi
        self.sensitivityDBm = sensitivityDBm
        self.rssiOffsetDB = rssiOffsetDB
        self.route = route
        self.headingFollowsRoute = headingFollowsRoute
        self.bodyLossDB = bodyLossDB
    }
}
