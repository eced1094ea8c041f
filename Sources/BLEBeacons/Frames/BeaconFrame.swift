import BLEWire

/// Any beacon frame this library decodes, as a scanner meets them: iBeacon, AltBeacon or
/// Eddystone.
public enum BeaconFrame: Hashable, Sendable {
    /// An Apple iBeacon.
    case iBeacon(IBeacon)
    /// An AltBeacon.
    case altBeacon(AltBeacon)
    /// An Eddystone frame.
    case eddystone(EddystoneFrame)

    /// The beacon frame `advertisingData` carries, trying iBeacon, then AltBeacon, then
    /// Eddystone; `nil` when it carries none (strictly decoded: a near miss is not a beacon).
    public init?(advertisingData: AdvertisingData) {
        if let frame = try? IBeacon(advertisingData: advertisingData) {
            self = .iBeacon(frame)
        } else if let frame = try? AltBeacon(advertisingData: advertisingData) {
            self = .altBeacon(frame)
        } else if let frame = try? EddystoneFrame(advertisingData: advertisingData) {
            self = .eddystone(frame)
        } else {
            return nil
        }
    }

    /// The beacon frame in advertising data bytes, or `nil` when they do not decode or hold none.
    public init?(decoding bytes: [UInt8]) {
        guard let data = try? AdvertisingData(decoding: bytes) else { return nil }
        self.init(advertisingData: data)
    }

    /// The identity ranging and monitoring key on; `nil` for Eddystone telemetry, which
    /// identifies nothing by itself.
    public var identity: BeaconIdentity? {
        switch self {
        case let .iBeacon(frame): return .iBeacon(frame.identity)
        case let .altBeacon(frame): return .altBeacon(frame.beaconID)
        case let .eddystone(.uid(frame)): return .eddystoneUID(namespace: frame.namespace, instance: frame.instance)
        case let .eddystone(.url(frame)): return .eddystoneURL(frame.url)
        case let .eddystone(.eid(frame)): return .eddystoneEID(frame.ephemeralIdentifier)
        case .eddystone(.telemetry): return nil
        }
    }

    /// The RSSI expected at 1 m, in dBm, for ranging: iBeacon's measured power,
    /// AltBeacon's reference RSSI, or Eddystone's TX power at 0 m less 41 dB.
    public var measuredPower: Int8? {
        switch self {
        case let .iBeacon(frame): return frame.measuredPower
        case let .altBeacon(frame): return frame.referenceRSSI
        case let .eddystone(frame): return frame.measuredPowerAt1m
        }
    }

    /// The advertisement that sends this frame.
    public var advertisingData: AdvertisingData {
        switch self {
        case let .iBeacon(frame): return frame.advertisingData
        case let .altBeacon(frame): return frame.advertisingData
        case let .eddystone(frame): return frame.advertisingData
        }
    }
}

/// What tells one beacon from another, whatever its format.
public enum BeaconIdentity: Hashable, Sendable, CustomStringConvertible {
    /// An iBeacon's UUID, major and minor.
    case iBeacon(IBeaconIdentity)
    /// An AltBeacon's 20-octet beacon ID.
    case altBeacon([UInt8])
    /// An Eddystone-UID's 10-octet namespace and 6-octet instance.
    case eddystoneUID(namespace: [UInt8], instance: [UInt8])
    /// An Eddystone-URL's expanded URL.
    case eddystoneURL(String)
    /// An Eddystone-EID's ephemeral identifier (it changes every rotation period; resolve
    /// it with ``EddystoneEIDResolver`` for a stable identity).
    case eddystoneEID(UInt64)

    /// A short text form: `iBeacon UUID major minor`, `AltBeacon <hex>`, …
    public var description: String {
        switch self {
        case let .iBeacon(identity): return "iBeacon \(identity)"
        case let .altBeacon(id): return "AltBeacon \(Hex.encode(id))"
        case let .eddystoneUID(namespace, instance): return "Eddystone-UID \(Hex.encode(namespace)) \(Hex.encode(instance))"
        case let .eddystoneURL(url): return "Eddystone-URL \(url)"
        case let .eddystoneEID(eid):
            let text = String(eid, radix: 16)
            return "Eddystone-EID " + String(repeating: "0", count: max(0, 16 - text.count)) + text
        }
    }
}
