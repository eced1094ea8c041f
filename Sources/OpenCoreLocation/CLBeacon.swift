import BLEBeacons
import Foundation

/// One beacon as a ranging callback lists it (Core Location's `CLBeacon`).
open class CLBeacon: NSObject, NSCopying {
    /// The proximity UUID.
    public let uuid: UUID
    /// The major value.
    public let major: NSNumber
    /// The minor value.
    public let minor: NSNumber
    /// The proximity class.
    public let proximity: CLProximity
    /// The estimated distance in metres (BLEBeacons' receiver model on the filtered RSSI),
    /// −1 when unknown.
    public let accuracy: CLLocationAccuracy
    /// The mean RSSI in dBm of the advertisements heard since the previous callback; 0
    /// when none was heard, as Core Location reports it.
    public let rssi: Int
    /// When the beacon was ranged.
    public let timestamp: Date

    init(_ snapshot: BeaconSnapshot) {
        uuid = UUID(snapshot.identity.uuid)
        major = NSNumber(value: snapshot.identity.major)
        minor = NSNumber(value: snapshot.identity.minor)
        proximity = CLProximity(rawValue: snapshot.proximity.rawValue) ?? .unknown
        accuracy = snapshot.accuracy
        rssi = snapshot.rssi
        timestamp = snapshot.timestamp
    }

    /// The old name of ``uuid``.
    @available(*, deprecated, renamed: "uuid")
    open var proximityUUID: UUID { uuid }

    /// The beacon itself: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `CLBeacon (uuid:…, major:…, minor:…, proximity:…, accuracy:…, rssi:…)`.
    open override var description: String {
        "CLBeacon (uuid:\(uuid.uuidString), major:\(major), minor:\(minor), proximity:\(proximity.rawValue), "
            + "accuracy:\(accuracy), rssi:\(rssi), timestamp:\(timestamp))"
    }
}

/// A ranged beacon's values, Sendable, taken from BLEBeacons' `RangedBeacon`.
struct BeaconSnapshot: Hashable, Sendable {
    var identity: IBeaconIdentity
    var proximity: BeaconProximity
    var accuracy: Double
    var rssi: Int
    var timestamp: Date

    init(_ ranged: RangedBeacon<IBeaconIdentity>, at timestamp: Date) {
        identity = ranged.identity
        proximity = ranged.proximity
        accuracy = ranged.accuracy
        rssi = ranged.rssi ?? 0
        self.timestamp = timestamp
    }
}
