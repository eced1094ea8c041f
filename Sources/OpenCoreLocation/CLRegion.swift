import BLEBeacons
import Foundation

/// A region the location manager can monitor (Core Location's `CLRegion`): the app's
/// ``identifier`` and whether to be told of entries and exits. On Linux only its subclass
/// ``CLBeaconRegion`` can be monitored; circular regions need a location fix we do not have.
open class CLRegion: NSObject, NSCopying {
    /// The app's name for the region; a second region with the same identifier replaces
    /// the first when monitored.
    public let identifier: String
    /// Whether `locationManager(_:didEnterRegion:)` is called (default `true`).
    open var notifyOnEntry = true
    /// Whether `locationManager(_:didExitRegion:)` is called (default `true`).
    open var notifyOnExit = true

    /// A region named `identifier`.
    init(identifier: String) {
        self.identifier = identifier
    }

    /// What the monitoring core and the delegate relay keep of the region.
    var snapshot: RegionSnapshot {
        RegionSnapshot(identifier: identifier, constraint: nil, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit,
                       notifyEntryStateOnDisplay: false)
    }

    /// Equal to a region of the same class, identifier and settings.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLRegion, type(of: other) == type(of: self) else { return false }
        return snapshot == other.snapshot
    }

    /// A hash of the identifier, consistent with ``isEqual(_:)``.
    open override var hash: Int { identifier.hashValue }

    /// A copy with the same values.
    open func copy(with zone: NSZone? = nil) -> Any { snapshot.makeRegion() }
}

/// A region of iBeacons (Core Location's `CLBeaconRegion`): the beacons a
/// ``CLBeaconIdentityConstraint`` covers, under the app's identifier.
open class CLBeaconRegion: CLRegion {
    /// The beacons the region covers.
    public let beaconIdentityConstraint: CLBeaconIdentityConstraint
    /// Whether Core Location tells the app the region's state when the user turns the
    /// display on. Kept, but Linux has no display event: it never fires.
    open var notifyEntryStateOnDisplay = false

    /// Every beacon with `uuid`.
    public init(uuid: UUID, identifier: String) {
        beaconIdentityConstraint = CLBeaconIdentityConstraint(uuid: uuid)
        super.init(identifier: identifier)
    }

    /// Every beacon with `uuid` and `major`.
    public init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        beaconIdentityConstraint = CLBeaconIdentityConstraint(uuid: uuid, major: major)
        super.init(identifier: identifier)
    }

    /// The beacon with `uuid`, `major` and `minor`.
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        beaconIdentityConstraint = CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor)
        super.init(identifier: identifier)
    }

    /// The beacons `beaconIdentityConstraint` covers.
    public init(beaconIdentityConstraint: CLBeaconIdentityConstraint, identifier: String) {
        self.beaconIdentityConstraint = beaconIdentityConstraint
        super.init(identifier: identifier)
    }

    /// Every beacon with `proximityUUID` (the initializer Apple deprecated in iOS 13 and
    /// still ships).
    public convenience init(proximityUUID: UUID, identifier: String) {
        self.init(uuid: proximityUUID, identifier: identifier)
    }

    /// Every beacon with `proximityUUID` and `major` (deprecated by Apple, still shipping).
    public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(uuid: proximityUUID, major: major, identifier: identifier)
    }

    /// The beacon with `proximityUUID`, `major` and `minor` (deprecated by Apple, still shipping).
    public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        self.init(uuid: proximityUUID, major: major, minor: minor, identifier: identifier)
    }

    /// The proximity UUID.
    open var uuid: UUID { beaconIdentityConstraint.uuid }
    /// The proximity UUID, by the name Apple deprecated in iOS 13 and still ships.
    open var proximityUUID: UUID { uuid }
    /// The major value, or `nil` for any.
    open var major: NSNumber? { beaconIdentityConstraint.major.map { NSNumber(value: $0) } }
    /// The minor value, or `nil` for any.
    open var minor: NSNumber? { beaconIdentityConstraint.minor.map { NSNumber(value: $0) } }

    override var snapshot: RegionSnapshot {
        RegionSnapshot(identifier: identifier, constraint: beaconIdentityConstraint.value, notifyOnEntry: notifyOnEntry,
                       notifyOnExit: notifyOnExit, notifyEntryStateOnDisplay: notifyEntryStateOnDisplay)
    }

    /// SwiftBLE's key, in ``peripheralData(withMeasuredPower:)``'s dictionary, of the
    /// iBeacon payload. Core Location's dictionary is opaque but is known to hold one
    /// entry under this (private) name: 21 octets of UUID, major, minor (big-endian) and
    /// measured power. Ours holds the same `Data`, so a Core Bluetooth-style
    /// `startAdvertising` can turn it into the iBeacon frame (`02 01 06 1A FF 4C 00 02 15` + the 21 octets).
    public static let appleBeaconKey = "kCBAdvDataAppleBeaconKey"

    /// The measured power used when none is given, in dBm: about what an iPhone reports at 1 m.
    public static let defaultMeasuredPower: Int8 = -59

    /// The advertisement data that makes a device an iBeacon of this region, for a
    /// peripheral manager's `startAdvertising` (Core Location's `peripheralData(withMeasuredPower:)`).
    /// A region without a major or minor advertises 0 for them.
    /// - Parameter measuredPower: the RSSI at 1 m in dBm, −127…127; `nil` (or out of range)
    ///   uses ``defaultMeasuredPower``.
    /// - Returns: one entry: ``appleBeaconKey`` → the 21-octet payload as `Data`.
    open func peripheralData(withMeasuredPower measuredPower: NSNumber?) -> NSMutableDictionary {
        let power = measuredPower.flatMap { Int8(exactly: $0.intValue) } ?? Self.defaultMeasuredPower
        let frame = IBeacon(uuid: ProximityUUID(uuid), major: beaconIdentityConstraint.major ?? 0,
                            minor: beaconIdentityConstraint.minor ?? 0, measuredPower: power)
        let dictionary = NSMutableDictionary()
        dictionary[NSString(string: Self.appleBeaconKey)] = Data(frame.payload.dropFirst(2))
        return dictionary
    }
}

/// A region's values, Sendable, so the engine can keep them and the relay rebuild a
/// region object on the main queue (Core Location also hands the delegate copies).
struct RegionSnapshot: Hashable, Sendable {
    var identifier: String
    /// `nil` for a region that is not a beacon region.
    var constraint: BeaconIdentityConstraint?
    var notifyOnEntry: Bool
    var notifyOnExit: Bool
    var notifyEntryStateOnDisplay: Bool

    /// A region object with these values.
    func makeRegion() -> CLRegion {
        let region: CLRegion
        if let constraint {
            let beaconRegion = CLBeaconRegion(beaconIdentityConstraint: CLBeaconIdentityConstraint(constraint), identifier: identifier)
            beaconRegion.notifyEntryStateOnDisplay = notifyEntryStateOnDisplay
            region = beaconRegion
        } else {
            region = CLRegion(identifier: identifier)
        }
        region.notifyOnEntry = notifyOnEntry
        region.notifyOnExit = notifyOnExit
        return region
    }
}
