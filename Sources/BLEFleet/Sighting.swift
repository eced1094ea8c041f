/// One advertisement a gateway kept: who heard what, when, and how strongly — the row a
/// fleet's store holds (DESIGN.md, "Fleets: many receivers, one store").
///
/// A sighting is named uniquely by ``key``: the gateway, the run of that gateway (a number
/// drawn when the gateway process starts) and a sequence number counted up within the run.
/// Stores insert by that key and ignore a key they already hold, so a batch written twice —
/// after a crash between "written" and "acknowledged", or drained again from the spool — never
/// duplicates a row.
public struct Sighting: Hashable, Sendable, Codable {
    /// The gateway's name (`ble gateway --name`), unique in a fleet.
    public var gateway: String
    /// The gateway run this sighting belongs to: drawn at random when the gateway starts
    /// (from the seed in a simulation), so a restarted gateway never reuses a key.
    public var run: Int64
    /// The sighting's number within its run, from 0, without gaps.
    public var sequence: Int64
    /// What was seen, as the gateway's filters name it (``SightingIdentity``'s text form,
    /// e.g. `ibeacon:8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51:1:2`).
    public var identity: String
    /// The advertiser's address as received, `C0:11:22:33:44:55`.
    public var address: String
    /// Whether ``address`` is a random address (else public).
    public var addressIsRandom: Bool
    /// When it was received, in microseconds since 1970-01-01T00:00:00Z. In a simulation,
    /// the scenario's epoch plus the world's virtual time.
    public var time: Int64
    /// The received signal strength, in dBm.
    public var rssi: Int
    /// The TX power the advertiser announced (its TX Power Level, or a beacon frame's
    /// measured power at 1 m), in dBm, when it announced one.
    public var txPower: Int?
    /// The advertising data as received (AD structures, Core 5.4, Vol 3, Part C, §11).
    public var frame: [UInt8]

    /// A sighting with every field given.
    public init(gateway: String, run: Int64, sequence: Int64, identity: String, address: String, addressIsRandom: Bool,
                time: Int64, rssi: Int, txPower: Int?, frame: [UInt8]) {
        self.gateway = gateway
        self.run = run
        self.sequence = sequence
        self.identity = identity
        self.address = address
        self.addressIsRandom = addressIsRandom
        self.time = time
        self.rssi = rssi
        self.txPower = txPower
        self.frame = frame
    }

    /// The key a store inserts by (and ignores when it already holds it).
    public var key: Key { Key(gateway: gateway, run: run, sequence: sequence) }

    /// A sighting's unique name in a fleet.
    public struct Key: Hashable, Sendable, Codable, Comparable {
        /// The gateway's name.
        public var gateway: String
        /// The gateway's run.
        public var run: Int64
        /// The number within the run.
        public var sequence: Int64

        /// A key with every field given.
        public init(gateway: String, run: Int64, sequence: Int64) {
            self.gateway = gateway
            self.run = run
            self.sequence = sequence
        }

        /// Ordered by gateway, run, then sequence.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.gateway, lhs.run, lhs.sequence) < (rhs.gateway, rhs.run, rhs.sequence)
        }
    }
}
