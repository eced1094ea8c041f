/// A bus as the office knows it: its number and the beacons it carries, each an identity as
/// the gateways store it (`ibeacon:UUID:MAJOR:MINOR`).
public struct Bus: Hashable, Sendable {
    /// The bus's number, e.g. 42.
    public var number: Int
    /// The identities of the beacons it carries.
    public var beacons: [String]

    /// A bus whose beacons share `uuid` and carry its number as their major, with minors `minors`
    /// (the bus-fleet scenario's front, middle and rear beacons are minors 1, 2 and 3).
    public init(number: Int, uuid: String, minors: [Int]) {
        self.number = number
        beacons = minors.map { "ibeacon:\(uuid.uppercased()):\(number):\($0)" }
    }
}

/// Where a bus was last heard.
public struct BusPosition: Hashable, Sendable {
    /// The zone (the stop) of the gateway that heard it.
    public var stop: String
    /// That gateway.
    public var gateway: String
    /// When, in microseconds since the Unix epoch.
    public var time: Int64
}
