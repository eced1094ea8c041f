import BLEWire

/// An Eddystone frame (google/eddystone, "Eddystone Protocol Specification"): Service
/// Data for the 16-bit UUID 0xFEAA (CSS v11, Part A, §1.11) whose first octet is the frame
/// type — 0x00 UID, 0x10 URL, 0x20 TLM, 0x30 EID; the low four bits are reserved and must
/// be zero. Multi-octet values are big-endian.
///
/// The TX power of UID, URL and EID frames is calibrated at 0 m, not 1 m like iBeacon's
/// measured power; the specification puts the loss over the first metre at 41 dB
/// (``measuredPowerAt1m``).
public enum EddystoneFrame: Hashable, Sendable {
    /// A UID frame: a 10-octet namespace and a 6-octet instance.
    case uid(EddystoneUID)
    /// A URL frame: a compressed URL.
    case url(EddystoneURL)
    /// An unencrypted telemetry frame (TLM version 0).
    case telemetry(EddystoneTelemetry)
    /// An EID frame: an 8-octet ephemeral identifier.
    case eid(EddystoneEIDFrame)

    /// The Eddystone service UUID.
    public static let serviceUUID: UInt16 = 0xFEAA
    /// Frame type of UID frames.
    public static let uidType: UInt8 = 0x00
    /// Frame type of URL frames.
    public static let urlType: UInt8 = 0x10
    /// Frame type of TLM frames.
    public static let telemetryType: UInt8 = 0x20
    /// Frame type of EID frames.
    public static let eidType: UInt8 = 0x30
    /// Decibels lost over the first metre, by the Eddystone specification's note on TX power.
    public static let lossAtOneMetre: Int = 41

    /// Decodes the service data after the UUID; a reserved or unknown frame type throws.
    public init(serviceData: ArraySlice<UInt8>) throws(BeaconFrameError) {
        guard let type = serviceData.first else {
            throw BeaconFrameError(format: "Eddystone", field: "frameType", reason: .wrongLength(expected: 1 ... 20, actual: 0))
        }
        switch type {
        case Self.uidType: self = .uid(try EddystoneUID(serviceData: serviceData))
        case Self.urlType: self = .url(try EddystoneURL(serviceData: serviceData))
        case Self.telemetryType: self = .telemetry(try EddystoneTelemetry(serviceData: serviceData))
        case Self.eidType: self = .eid(try EddystoneEIDFrame(serviceData: serviceData))
        default:
            throw BeaconFrameError(format: "Eddystone", field: "frameType", reason: .wrongType(UInt64(type)))
        }
    }

    /// The first Service Data structure for 0xFEAA in `advertisingData` that is an
    /// Eddystone frame. The Complete List of 16-bit Service UUIDs that the specification
    /// also asks beacons to send is not required: scanners key on the service data.
    public init(advertisingData: AdvertisingData) throws(BeaconFrameError) {
        self = try advertisingData.firstFrame(of: .serviceData16BitUUID, format: "Eddystone") {
            (data: ArraySlice<UInt8>) throws(BeaconFrameError) -> EddystoneFrame in
            guard data.count >= 2 else {
                throw BeaconFrameError(format: "Eddystone", field: "serviceUUID", reason: .wrongLength(expected: 3 ... 22, actual: data.count))
            }
            var cursor = OctetCursor(data)
            let uuid = UInt16(cursor.uint8()) | UInt16(cursor.uint8()) << 8
            guard uuid == Self.serviceUUID else {
                throw BeaconFrameError(format: "Eddystone", field: "serviceUUID", reason: .wrongType(UInt64(uuid)))
            }
            return try EddystoneFrame(serviceData: cursor.remaining)
        }
    }

    /// Decodes advertising data bytes (an advertisement or scan response, as received).
    public init(decoding bytes: [UInt8]) throws(BeaconFrameError) {
        try self.init(advertisingData: AdvertisingData.decodingForBeacon(bytes, format: "Eddystone"))
    }

    /// The service data after the UUID: frame type first.
    public var serviceData: [UInt8] {
        switch self {
        case let .uid(frame): return frame.serviceData
        case let .url(frame): return frame.serviceData
        case let .telemetry(frame): return frame.serviceData
        case let .eid(frame): return frame.serviceData
        }
    }

    /// The whole advertisement: Flags 0x06, the Complete List of 16-bit Service UUIDs with
    /// 0xFEAA, and the Service Data, as the specification lays it out.
    public var advertisingData: AdvertisingData {
        AdvertisingData([
            AdvertisingData.beaconFlags,
            .completeList16([Self.serviceUUID]),
            .serviceData(uuid: BluetoothUUID(Self.serviceUUID), data: serviceData),
        ])
    }

    /// The calibrated TX power at 0 m of UID, URL and EID frames; `nil` for telemetry.
    public var txPowerAt0m: Int8? {
        switch self {
        case let .uid(frame): return frame.txPower
        case let .url(frame): return frame.txPower
        case .telemetry: return nil
        case let .eid(frame): return frame.txPower
        }
    }

    /// The RSSI expected at 1 m, for ranging: the TX power at 0 m less 41 dB, clamped to
    /// the signed octet; `nil` for telemetry.
    public var measuredPowerAt1m: Int8? {
        txPowerAt0m.map { Int8(clamping: Int($0) - Self.lossAtOneMetre) }
    }

    static func checkLength(_ data: ArraySlice<UInt8>, _ allowed: ClosedRange<Int>, format: String) throws(BeaconFrameError) {
        guard allowed.contains(data.count) else {
            throw BeaconFrameError(format: format, field: "serviceData", reason: .wrongLength(expected: allowed, actual: data.count))
        }
    }
}

/// An Eddystone-UID frame (google/eddystone, eddystone-uid): frame type 0x00, TX power at
/// 0 m, a 10-octet namespace, a 6-octet instance and two reserved octets. Frames that
/// leave the reserved octets out (Service Data length 0x15 instead of 0x17, which the
/// specification notes existing beacons send) are accepted and round-trip as sent.
public struct EddystoneUID: Hashable, Sendable {
    /// The calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// The 10-octet namespace.
    public private(set) var namespace: [UInt8]
    /// The 6-octet instance.
    public private(set) var instance: [UInt8]
    /// The two reserved octets as sent (big-endian), or `nil` when the frame omits them.
    public var reserved: UInt16?

    /// A frame from its values; throws unless the namespace has 10 octets and the
    /// instance 6. Encodes the reserved octets as zero.
    public init(txPower: Int8, namespace: [UInt8], instance: [UInt8]) throws(BeaconFrameError) {
        guard namespace.count == 10 else {
            throw BeaconFrameError(format: "Eddystone-UID", field: "namespace", reason: .wrongLength(expected: 10 ... 10, actual: namespace.count))
        }
        guard instance.count == 6 else {
            throw BeaconFrameError(format: "Eddystone-UID", field: "instance", reason: .wrongLength(expected: 6 ... 6, actual: instance.count))
        }
        self.txPower = txPower
        self.namespace = namespace
        self.instance = instance
        reserved = 0
    }

    /// Decodes service data after the UUID: 18 or 20 octets, frame type 0x00.
    public init(serviceData data: ArraySlice<UInt8>) throws(BeaconFrameError) {
        try EddystoneFrame.checkLength(data, 18 ... 20, format: "Eddystone-UID")
        var cursor = OctetCursor(data)
        let type = cursor.uint8()
        guard type == EddystoneFrame.uidType else {
            throw BeaconFrameError(format: "Eddystone-UID", field: "frameType", reason: .wrongType(UInt64(type)))
        }
        guard data.count != 19 else {
            throw BeaconFrameError(format: "Eddystone-UID", field: "reserved", reason: .wrongLength(expected: 18 ... 20, actual: 19))
        }
        txPower = cursor.int8()
        namespace = Array(cursor.take(10))
        instance = Array(cursor.take(6))
        reserved = data.count == 20 ? cursor.bigEndian(UInt16.self) : nil
    }

    /// The service data after the UUID.
    public var serviceData: [UInt8] {
        var bytes: [UInt8] = [EddystoneFrame.uidType, UInt8(bitPattern: txPower)]
        bytes += namespace
        bytes += instance
        if let reserved { bytes.appendBigEndian(reserved) }
        return bytes
    }
}

/// An Eddystone-EID frame (google/eddystone, eddystone-eid): frame type 0x30, TX power at
/// 0 m and the 8-octet ephemeral identifier; exactly 10 octets.
public struct EddystoneEIDFrame: Hashable, Sendable {
    /// The calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// The ephemeral identifier, its 8 octets read big-endian.
    public var ephemeralIdentifier: UInt64

    /// A frame from its values.
    public init(txPower: Int8, ephemeralIdentifier: UInt64) {
        self.txPower = txPower
        self.ephemeralIdentifier = ephemeralIdentifier
    }

    /// Decodes service data after the UUID: exactly 10 octets, frame type 0x30.
    public init(serviceData data: ArraySlice<UInt8>) throws(BeaconFrameError) {
        try EddystoneFrame.checkLength(data, 10 ... 10, format: "Eddystone-EID")
        var cursor = OctetCursor(data)
        let type = cursor.uint8()
        guard type == EddystoneFrame.eidType else {
            throw BeaconFrameError(format: "Eddystone-EID", field: "frameType", reason: .wrongType(UInt64(type)))
        }
        txPower = cursor.int8()
        ephemeralIdentifier = cursor.bigEndian(UInt64.self)
    }

    /// The service data after the UUID.
    public var serviceData: [UInt8] {
        var bytes: [UInt8] = [EddystoneFrame.eidType, UInt8(bitPattern: txPower)]
        bytes.appendBigEndian(ephemeralIdentifier)
        return bytes
    }
}
