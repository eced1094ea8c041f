import BLEWire

/// What tells one iBeacon from another: its proximity UUID, major and minor (Apple,
/// "Proximity Beacon Specification"). Core Location's `CLBeaconIdentityConstraint` and
/// `CLBeacon` are built from these three values.
public struct IBeaconIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The proximity UUID shared by a family of beacons.
    public var uuid: ProximityUUID
    /// The major value, typically a site or a group of beacons.
    public var major: UInt16
    /// The minor value, typically one beacon of the group.
    public var minor: UInt16

    /// An identity from its three values.
    public init(uuid: ProximityUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// `UUID major minor`, e.g. `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 1 2`.
    public var description: String { "\(uuid) \(major) \(minor)" }

    /// Orders by UUID, then major, then minor.
    public static func < (lhs: IBeaconIdentity, rhs: IBeaconIdentity) -> Bool {
        (lhs.uuid, lhs.major, lhs.minor) < (rhs.uuid, rhs.major, rhs.minor)
    }
}

/// An iBeacon advertisement (Apple, "Proximity Beacon Specification"): Manufacturer
/// Specific Data (CSS v11, Part A, §1.4) of Apple (company 0x004C) holding type 0x02,
/// length 0x15, the 16-octet proximity UUID, major and minor (big-endian) and the
/// measured power, a signed octet: the RSSI a reference receiver sees at 1 m.
///
/// On the air: `02 01 06 1A FF 4C 00 02 15` + UUID + major + minor + power, 30 octets.
public struct IBeacon: Hashable, Sendable {
    /// Apple's company identifier (Assigned Numbers), which carries iBeacon frames.
    public static let companyIdentifier: UInt16 = 0x004C
    /// The iBeacon type octet after the company identifier.
    public static let beaconType: UInt8 = 0x02
    /// The length octet after the type: 21 octets of UUID, major, minor and power follow.
    public static let dataLength: UInt8 = 0x15
    /// Octets of manufacturer data after the company identifier: type, length and 21.
    public static let manufacturerDataLength = 23

    /// The proximity UUID.
    public var uuid: ProximityUUID
    /// The major value.
    public var major: UInt16
    /// The minor value.
    public var minor: UInt16
    /// The RSSI a reference receiver sees at 1 m, in dBm (e.g. -59).
    public var measuredPower: Int8

    /// A frame from its values.
    public init(uuid: ProximityUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// A frame for `identity` sending `measuredPower`.
    public init(identity: IBeaconIdentity, measuredPower: Int8) {
        self.init(uuid: identity.uuid, major: identity.major, minor: identity.minor, measuredPower: measuredPower)
    }

    /// UUID, major and minor.
    public var identity: IBeaconIdentity { IBeaconIdentity(uuid: uuid, major: major, minor: minor) }

    /// Decodes Manufacturer Specific Data; anything but Apple's company, type 0x02, length
    /// 0x15 and exactly 23 octets after the company is not an iBeacon.
    public init(manufacturerData: AdvertisingData.ManufacturerData) throws(BeaconFrameError) {
        guard manufacturerData.companyIdentifier == Self.companyIdentifier else {
            throw Self.error("companyIdentifier", .wrongCompany(manufacturerData.companyIdentifier))
        }
        try self.init(payload: manufacturerData.data)
    }

    /// Decodes the data of one Manufacturer Specific Data structure, company included.
    init(structureData data: ArraySlice<UInt8>) throws(BeaconFrameError) {
        var cursor = OctetCursor(data)
        guard data.count >= 2 else {
            throw Self.error("companyIdentifier", .wrongLength(expected: 25 ... 25, actual: data.count))
        }
        let company = UInt16(cursor.uint8()) | UInt16(cursor.uint8()) << 8
        try self.init(manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: company, data: cursor.remaining))
    }

    private init(payload: ArraySlice<UInt8>) throws(BeaconFrameError) {
        var cursor = OctetCursor(payload)
        let type = cursor.uint8()
        guard payload.count >= 1, type == Self.beaconType else {
            throw Self.error("type", payload.isEmpty ? .wrongLength(expected: 23 ... 23, actual: 0) : .wrongType(UInt64(type)))
        }
        let length = cursor.uint8()
        guard payload.count >= 2, length == Self.dataLength else {
            throw Self.error("length", payload.count < 2 ? .wrongLength(expected: 23 ... 23, actual: payload.count)
                                                         : .wrongLength(expected: 21 ... 21, actual: Int(length)))
        }
        guard payload.count == Self.manufacturerDataLength else {
            throw Self.error("data", .wrongLength(expected: 23 ... 23, actual: payload.count))
        }
        uuid = ProximityUUID(cursor.bigEndian(UInt128.self))
        major = cursor.bigEndian(UInt16.self)
        minor = cursor.bigEndian(UInt16.self)
        measuredPower = cursor.int8()
    }

    /// The first Manufacturer Specific Data structure of `advertisingData` that is an
    /// iBeacon; throws the first structure's reason when none is, or `absent`.
    public init(advertisingData: AdvertisingData) throws(BeaconFrameError) {
        self = try advertisingData.firstFrame(of: .manufacturerSpecificData, format: "iBeacon") {
            (data: ArraySlice<UInt8>) throws(BeaconFrameError) -> IBeacon in
            try IBeacon(structureData: data)
        }
    }

    /// Decodes advertising data bytes (an advertisement or scan response, as received).
    public init(decoding bytes: [UInt8]) throws(BeaconFrameError) {
        try self.init(advertisingData: AdvertisingData.decodingForBeacon(bytes, format: "iBeacon"))
    }

    /// The 23 octets after the company identifier: type, length, UUID, major, minor, power.
    public var payload: [UInt8] {
        var bytes: [UInt8] = [Self.beaconType, Self.dataLength]
        bytes.reserveCapacity(Self.manufacturerDataLength)
        bytes.appendBigEndian(uuid.value)
        bytes.appendBigEndian(major)
        bytes.appendBigEndian(minor)
        bytes.append(UInt8(bitPattern: measuredPower))
        return bytes
    }

    /// The Manufacturer Specific Data structure (length 0x1A, type 0xFF, company 0x004C).
    public var structure: AdvertisingData.Structure {
        .manufacturerData(company: Self.companyIdentifier, data: payload)
    }

    /// The whole advertisement: Flags 0x06 then the iBeacon structure, 30 octets, as
    /// Apple's devices send it.
    public var advertisingData: AdvertisingData {
        AdvertisingData([AdvertisingData.beaconFlags, structure])
    }

    private static func error(_ field: String, _ reason: BeaconFrameError.Reason) -> BeaconFrameError {
        BeaconFrameError(format: "iBeacon", field: field, reason: reason)
    }
}
