/// A device riding with another (a phone or a ceiling beacon on a bus): its position is
/// the carrier's plus ``offset`` (``World/carry(_:by:offset:)``).
public struct ScenarioCarriage: Hashable, Sendable {
    /// The carrier's name.
    public var device: String
    /// Where on the carrier, in metres from its position.
    public var offset: Vector3

    /// A carriage with every field.
    public init(device: String, offset: Vector3 = .zero) {
        self.device = device
        self.offset = offset
    }
}

/// An obstacle that moves with a device: its shape's coordinates are relative to the
/// device's position (``World/addObstacle(_:attachedTo:)``).
public struct ScenarioAttachedObstacle: Hashable, Sendable {
    /// The shape and its loss, in the device's frame.
    public var obstacle: Obstacle
    /// The device's name.
    public var device: String

    /// An attached obstacle with every field.
    public init(obstacle: Obstacle, device: String) {
        self.obstacle = obstacle
        self.device = device
    }
}

/// Scanning as a scenario describes it, legacy (Core 5.4, Vol 4, Part E, §7.8.10) or
/// extended on LE 1M and LE Coded (§7.8.64): a ``ScriptedScanner`` sets it up, and the
/// controller reports every advertisement it hears, duplicates included.
public struct ScenarioScanning: Hashable, Sendable {
    /// The scan interval in milliseconds.
    public var intervalMilliseconds: Double
    /// The scan window in milliseconds, at most the interval.
    public var windowMilliseconds: Double
    /// Whether the scanner sends scan requests (active) or only listens (passive).
    public var active: Bool
    /// The PHYs of an extended scan (HCI_LE_Set_Extended_Scan_Parameters, §7.8.64: LE 1M,
    /// LE Coded or both, each with this interval and window), or `nil` for the legacy
    /// commands, which scan LE 1M and hear legacy PDUs only.
    public var extendedPHYs: [ScenarioPHY]?
    /// The device whose periodic train the scanner synchronises to (the file's `sync:`; LE
    /// Periodic Advertising Create Sync, §7.8.67), or `nil` for none. Extended scans only.
    public var periodicSync: String?

    /// Scanning with every field; by default continuous and passive, 100 ms per channel, legacy,
    /// synchronised to no periodic train.
    public init(intervalMilliseconds: Double = 100, windowMilliseconds: Double = 100, active: Bool = false,
                extendedPHYs: [ScenarioPHY]? = nil, periodicSync: String? = nil) {
        self.intervalMilliseconds = intervalMilliseconds
        self.windowMilliseconds = windowMilliseconds
        self.active = active
        self.extendedPHYs = extendedPHYs
        self.periodicSync = periodicSync
    }

    /// The shortest and longest scan interval and window in milliseconds (0x0004 and 0x4000
    /// units of 0.625 ms).
    public static let range: ClosedRange<Double> = 2.5 ... 10_240

    /// A duration in the 0.625 ms units of HCI, rounded.
    static func units(_ milliseconds: Double) -> UInt16 {
        UInt16(clamping: Int((milliseconds / 0.625).rounded()))
    }
}

/// What a scenario runner (BLEScenarios) does with what a scanning device hears, as plain
/// data: the beacon regions it monitors (Core Location's region monitoring), whether it
/// ranges their beacons, and how. BLEWorld only carries it.
public struct ScenarioObserver: Hashable, Sendable {
    /// A beacon region: an iBeacon proximity UUID, optionally a major, and optionally a
    /// minor within that major.
    public struct Region: Hashable, Sendable {
        /// The region's name in the timeline.
        public var identifier: String
        /// The proximity UUID, most significant first.
        public var uuid: UInt128
        /// The major, or `nil` for any.
        public var major: UInt16?
        /// The minor, or `nil` for any; never without a major.
        public var minor: UInt16?

        /// A region with every field.
        public init(identifier: String, uuid: UInt128, major: UInt16? = nil, minor: UInt16? = nil) {
            self.identifier = identifier
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }
    }

    /// How ranging smooths each beacon's RSSI.
    public enum Filter: Hashable, Sendable {
        /// A running average over `windowSeconds`, trimming `trimFraction` at each end.
        case runningAverage(windowSeconds: Double, trimFraction: Double)
        /// An auto-regressive moving average moving `coefficient` of the way to each sample.
        case arma(coefficient: Double)
    }

    /// How ranging turns a filtered RSSI into a distance.
    public enum Receiver: String, Hashable, Sendable, CaseIterable {
        /// Log-distance with the world's default exponent, 2.5: exact in a default world.
        case world
        /// The AltBeacon library's Nexus 5 curve, Core Location-like ranging's default.
        case nexus5
    }

    /// The regions monitored, in order.
    public var regions: [Region]
    /// Whether the beacons of those regions are ranged once a second.
    public var ranges: Bool
    /// How long none of a region's beacons may be heard before the device has left it.
    public var exitPeriodSeconds: Double
    /// The ranging filter.
    public var filter: Filter
    /// The ranging distance curve.
    public var receiver: Receiver
    /// Whether the end of each pass of a beacon (heard, then quiet for 2 s) is reported
    /// with the moment it was heard strongest: the stops a rider passed.
    public var reportsPasses: Bool

    /// The default filter: 20 s running average trimming 10 % at each end.
    public static let defaultFilter = Filter.runningAverage(windowSeconds: 20, trimFraction: 0.1)

    /// An observer with every field; by default it ranges, exits after 30 s (about what
    /// iOS waits) and filters as the AltBeacon library does by default.
    public init(regions: [Region], ranges: Bool = true, exitPeriodSeconds: Double = 30,
                filter: Filter = ScenarioObserver.defaultFilter, receiver: Receiver = .world, reportsPasses: Bool = false) {
        self.regions = regions
        self.ranges = ranges
        self.exitPeriodSeconds = exitPeriodSeconds
        self.filter = filter
        self.receiver = receiver
        self.reportsPasses = reportsPasses
    }
}
