import BLEWire

/// An AltBeacon advertisement (AltBeacon Protocol Specification v1.0): Manufacturer
/// Specific Data (CSS v11, Part A, §1.4) of any company holding the beacon code 0xBEAC
/// (sent big-endian, `BE AC`), a 20-octet beacon ID, the reference RSSI at 1 m (a signed
/// octet) and one octet reserved for the manufacturer.
///
/// On the air: `1B FF` + company (little-endian) + `BE AC` + ID + RSSI + reserved, 28
/// octets. The format is vendor-neutral, so any company identifier is accepted; the beacon
/// code, not the company, says it is an AltBeacon.
public struct AltBeacon: Hashable, Sendable {
    /// The beacon code that marks an AltBeacon.
    public static let beaconCode: UInt16 = 0xBEAC
    /// Octets of the beacon ID.
    public static let beaconIDLength = 20
    /// Octets of manufacturer data after the company identifier: code, ID, RSSI, reserved.
    public static let manufacturerDataLength = 24
    /// Radius Networks' company identifier (0x0118), used by the specification's reference
    /// scripts and a common default.
    public static let radiusNetworks: UInt16 = 0x0118

    /// The beacon maker's company identifier (Assigned Numbers).
    public var companyIdentifier: UInt16
    /// The 20-octet beacon ID, big-endian as sent; often read as a 16-octet organisation
    /// UUID, a 2-octet group and a 2-octet unit (``id1``, ``id2``, ``id3``).
    public private(set) var beaconID: [UInt8]
    /// The average RSSI at 1 m from the beacon, in dBm (the specification allows 0 to -127).
    public var referenceRSSI: Int8
    /// The manufacturer's reserved octet, kept as sent.
    public var manufacturerReserved: UInt8

    /// A frame from its values; throws unless `beaconID` has exactly 20 octets.
    public init(companyIdentifier: UInt16 = AltBeacon.radiusNetworks, beaconID: [UInt8], referenceRSSI: Int8,
                manufacturerReserved: UInt8 = 0) throws(BeaconFrameError) {
        guard beaconID.count == Self.beaconIDLength else {
            throw Self.error("beaconID", .wrongLength(expected: 20 ... 20, actual: beaconID.count))
        }
        self.companyIdentifier = companyIdentifier
        self.beaconID = beaconID
        self.referenceRSSI = referenceRSSI
        self.manufacturerReserved = manufacturerReserved
    }

    /// A frame whose ID is split as the reference scripts split it: a 16-octet UUID, then
    /// a 2-octet group and a 2-octet unit, big-endian.
    public init(companyIdentifier: UInt16 = AltBeacon.radiusNetworks, uuid: ProximityUUID, group: UInt16, unit: UInt16,
                referenceRSSI: Int8, manufacturerReserved: UInt8 = 0) {
        var id = uuid.octets
        id.appendBigEndian(group)
        id.appendBigEndian(unit)
        self.companyIdentifier = companyIdentifier
        beaconID = id
        self.referenceRSSI = referenceRSSI
        self.manufacturerReserved = manufacturerReserved
    }

    /// The first 16 octets of the ID as a UUID.
    public var id1: ProximityUUID {
        ProximityUUID(beaconID.prefix(16).reduce(UInt128.zero) { $0 << 8 | UInt128($1) })
    }

    /// Octets 16–17 of the ID, big-endian.
    public var id2: UInt16 { beaconID.dropFirst(16).prefix(2).reduce(0) { $0 << 8 | UInt16($1) } }

    /// Octets 18–19 of the ID, big-endian.
    public var id3: UInt16 { beaconID.dropFirst(18).prefix(2).reduce(0) { $0 << 8 | UInt16($1) } }

    /// Decodes Manufacturer Specific Data: the beacon code must be 0xBEAC and exactly 24
    /// octets must follow the company identifier.
    public init(manufacturerData: AdvertisingData.ManufacturerData) throws(BeaconFrameError) {
        let payload = manufacturerData.data
        var cursor = OctetCursor(payload)
        guard payload.count >= 2 else {
            throw Self.error("beaconCode", .wrongLength(expected: 24 ... 24, actual: payload.count))
        }
        let code = cursor.bigEndian(UInt16.self)
        guard code == Self.beaconCode else { throw Self.error("beaconCode", .wrongType(UInt64(code))) }
        guard payload.count == Self.manufacturerDataLength else {
            throw Self.error("data", .wrongLength(expected: 24 ... 24, actual: payload.count))
        }
        companyIdentifier = manufacturerData.companyIdentifier
        beaconID = Array(cursor.take(Self.beaconIDLength))
        referenceRSSI = cursor.int8()
        manufacturerReserved = cursor.uint8()
    }

    /// The first Manufacturer Specific Data structure of `advertisingData` that is an
    /// AltBeacon; throws the first structure's reason when none is, or `absent`.
    public init(advertisingData: AdvertisingData) throws(BeaconFrameError) {
        self = try advertisingData.firstFrame(of: .manufacturerSpecificData, format: "AltBeacon") {
            (data: ArraySlice<UInt8>) throws(BeaconFrameError) -> AltBeacon in
            guard data.count >= 2 else {
                throw Self.error("companyIdentifier", .wrongLength(expected: 26 ... 26, actual: data.count))
            }
            var cursor = OctetCursor(data)
            let company = UInt16(cursor.uint8()) | UInt16(cursor.uint8()) << 8
            return try AltBeacon(manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: company, data: cursor.remaining))
        }
    }

    /// Decodes advertising data bytes (an advertisement or scan response, as received).
    public init(decoding bytes: [UInt8]) throws(BeaconFrameError) {
        try self.init(advertisingData: AdvertisingData.decodingForBeacon(bytes, format: "AltBeacon"))
    }

    /// The 24 octets after the company identifier.
    public var payload: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.manufacturerDataLength)
        bytes.appendBigEndian(Self.beaconCode)
        bytes += beaconID
        bytes.append(UInt8(bitPattern: referenceRSSI))
        bytes.append(manufacturerReserved)
        return bytes
    }

    /// The Manufacturer Specific Data structure (length 0x1B, type 0xFF).
    public var structure: AdvertisingData.Structure {
        .manufacturerData(company: companyIdentifier, data: payload)
    }

    /// The whole advertisement: Flags 0x06 then the AltBeacon structure, 31 octets.
    public var advertisingData: AdvertisingData {
        AdvertisingData([AdvertisingData.beaconFlags, structure])
    }

    static func error(_ field: String, _ reason: BeaconFrameError.Reason) -> BeaconFrameError {
        BeaconFrameError(format: "AltBeacon", field: field, reason: reason)
    }
}
