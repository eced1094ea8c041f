/// What happened on the air at one device. Receiving counters count packets that started
/// while the device's receiver was open and matched (channel, PHY, access address).
public struct DeviceStatistics: Hashable, Sendable {
    /// Packets the device put on the air.
    public var transmissions = 0
    /// Packets delivered to its controller.
    public var receptions = 0
    /// Packets lost to overlapping transmissions on the same channel (no capture).
    public var collisions = 0
    /// Packets that arrived weaker than the receiver's sensitivity.
    public var belowSensitivity = 0
    /// Packets dropped by a configured packet-loss rate.
    public var losses = 0
    /// Packets dropped because the link was blocked.
    public var blocked = 0
    /// Packets missed because the device transmitted while they arrived (half duplex).
    public var halfDuplex = 0
    /// HCI packets from the host delivered to the controller.
    public var hciToController = 0
    /// HCI packets from the controller to the host.
    public var hciToHost = 0

    /// All counters zero.
    public init() {}

    mutating func add(_ other: DeviceStatistics) {
        transmissions += other.transmissions
        receptions += other.receptions
        collisions += other.collisions
        belowSensitivity += other.belowSensitivity
        losses += other.losses
        blocked += other.blocked
        halfDuplex += other.halfDuplex
        hciToController += other.hciToController
        hciToHost += other.hciToHost
    }
}

/// Counters of a whole world, and of each device, for reports and tests.
public struct WorldStatistics: Hashable, Sendable {
    /// The sums over every device.
    public var total: DeviceStatistics
    /// Each device's counters, indexed by `DeviceID.rawValue`.
    public var perDevice: [DeviceStatistics]

    /// Statistics from per-device counters; the total is their sum.
    public init(perDevice: [DeviceStatistics]) {
        self.perDevice = perDevice
        var total = DeviceStatistics()
        for device in perDevice { total.add(device) }
        self.total = total
    }

    /// Packets put on the air.
    public var transmissions: Int { total.transmissions }
    /// Packets delivered to a receiver.
    public var receptions: Int { total.receptions }
    /// Receptions lost to collisions.
    public var collisions: Int { total.collisions }
    /// Receptions below sensitivity.
    public var belowSensitivity: Int { total.belowSensitivity }
    /// Receptions dropped by packet loss.
    public var losses: Int { total.losses }

    /// The counters of one device (all zero for an unknown one).
    public subscript(device: DeviceID) -> DeviceStatistics {
        perDevice.indices.contains(device.rawValue) ? perDevice[device.rawValue] : DeviceStatistics()
    }
}
