import BLEWorld

/// What a coverage map shows: which transmitters, heard by what receiver, where and when
/// (`ble sim map`'s options, docs/map.md).
public struct CoverageRequest: Hashable, Sendable {
    /// The transmitters by device name; empty means every device that advertises.
    public var devices: [String]
    /// The height of the receiver's antenna above the ground, in metres (a phone in a hand: 1.2 m).
    public var receiverHeight: Double
    /// The side of a grid cell in metres; `nil` picks one that gives at most
    /// ``automaticCellsPerSide`` cells along the longer side.
    public var resolution: Double?
    /// The simulated time in seconds: devices on routes and carried devices are where the
    /// scenario puts them then, after its scripted actions up to that time.
    public var atSeconds: Double
    /// When set, the probability that a phone at each cell hears a transmitter at least
    /// once within this many seconds (``DetectionProbability``).
    public var withinSeconds: Double?
    /// The receiver's front end: a phone (isotropic 0 dBi antenna, −95 dBm sensitivity, no
    /// body) unless told otherwise; its position is ignored.
    public var receiver: DeviceDescription
    /// A packet loss rate (0–1) on top of the radio model, for the detection probability.
    public var packetLossRate: Double

    /// A request; the defaults are every advertiser, a phone at 1.2 m, an automatic
    /// resolution, time 0 and no detection probability.
    public init(devices: [String] = [], receiverHeight: Double = 1.2, resolution: Double? = nil, atSeconds: Double = 0,
                withinSeconds: Double? = nil, receiver: DeviceDescription = DeviceDescription(name: "phone", position: .zero),
                packetLossRate: Double = 0) {
        self.devices = devices
        self.receiverHeight = receiverHeight
        self.resolution = resolution
        self.atSeconds = atSeconds
        self.withinSeconds = withinSeconds
        self.receiver = receiver
        self.packetLossRate = packetLossRate
    }

    /// Cells along the longer side when the resolution is automatic.
    public static let automaticCellsPerSide = 300
    /// The most cells a map computes and draws.
    public static let cellLimit = 1_000_000
    /// The resolutions an automatic choice picks from, in metres.
    static let niceResolutions: [Double] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100]

    /// Checks every number, throwing the first that is out of range.
    public func validate() throws(CoverageMapError) {
        if !(receiverHeight.isFinite && receiverHeight >= -1_000 && receiverHeight <= 10_000) {
            throw .invalidNumber(option: "--receiver-height", value: receiverHeight, accepted: "a height in metres from -1000 to 10000")
        }
        if let resolution, !(resolution.isFinite && resolution >= 0.01 && resolution <= 10_000) {
            throw .invalidNumber(option: "--resolution", value: resolution, accepted: "a cell size in metres from 0.01 to 10000")
        }
        if !(atSeconds.isFinite && atSeconds >= 0 && atSeconds <= 1_000_000) {
            throw .invalidNumber(option: "--at", value: atSeconds, accepted: "a simulated time in seconds from 0 to 1000000")
        }
        if let withinSeconds, !(withinSeconds.isFinite && withinSeconds > 0 && withinSeconds <= 86_400) {
            throw .invalidNumber(option: "--within", value: withinSeconds, accepted: "a number of seconds above 0 and at most 86400")
        }
        if !(packetLossRate.isFinite && packetLossRate >= 0 && packetLossRate <= 1) {
            throw .invalidNumber(option: "packet loss rate", value: packetLossRate, accepted: "a rate from 0 to 1")
        }
    }
}
