import BLEWire

/// What one device hands another out of band before pairing (Core 5.4, Vol 3, Part H,
/// §2.3.5.6.4 and §2.3.5.4), in the form NFC and QR codes carry it: AD structures (Vol 3,
/// Part C, §11; Core Specification Supplement, Part A) — LE Bluetooth Device Address (0x1B,
/// §1.16), LE Secure Connections Confirmation Value (0x22) and Random Value (0x23, §1.6),
/// Security Manager TK Value (0x10, §1.8). Every part is optional.
public struct SMPOutOfBandBlock: Hashable, Sendable {
    /// The sender's LE address, so the receiver knows whom to connect to or expect.
    public var address: BluetoothAddress?
    /// The sender's Secure Connections data, r and C = f4(PKx, PKx, r, 0).
    public var secureConnections: SMPOutOfBandData?
    /// The Temporary Key of LE legacy OOB pairing, shared by both sides.
    public var temporaryKey: UInt128?

    /// A block with the parts given.
    public init(address: BluetoothAddress? = nil, secureConnections: SMPOutOfBandData? = nil, temporaryKey: UInt128? = nil) {
        self.address = address
        self.secureConnections = secureConnections
        self.temporaryKey = temporaryKey
    }

    /// Reads the block from AD structures; other structures (a name, flags, the LE Role)
    /// are skipped. A confirm value without a random value, or the reverse, is refused, as
    /// is a part of the wrong length.
    ///
    /// - Throws: ``BLEWire/WireError`` naming the structure at fault.
    public init(advertisingData: AdvertisingData) throws(WireError) {
        var confirm: UInt128?
        var random: UInt128?
        for structure in advertisingData.structures {
            switch structure.type {
            case .leBluetoothDeviceAddress:
                // Six address octets and a flags octet whose bit 0 says random (CSS Part A,
                // §1.16). Bumble 0.0.236 writes the six octets alone: read as public.
                guard structure.data.count == 7 || structure.data.count == 6 else {
                    throw WireError(field: "OOB.address", reason: .lengthMismatch(declared: 7, actual: structure.data.count))
                }
                var reader = ByteReader(structure.data)
                let value = try reader.readLittleEndian(octets: 6, "OOB.address")
                let flags = reader.isAtEnd ? 0 : try reader.readUInt8("OOB.address.type")
                address = BluetoothAddress(value, kind: flags & 1 == 1 ? .random : .public)
            case .leSecureConnectionsConfirmationValue:
                confirm = try Self.value(structure, "OOB.confirm")
            case .leSecureConnectionsRandomValue:
                random = try Self.value(structure, "OOB.random")
            case .securityManagerTKValue:
                temporaryKey = try Self.value(structure, "OOB.temporaryKey")
            default:
                continue
            }
        }
        switch (confirm, random) {
        case let (confirm?, random?): secureConnections = SMPOutOfBandData(random: random, confirm: confirm)
        case (nil, nil): break
        case (nil, _?): throw WireError(field: "OOB.confirm", reason: .constraint("a random value needs its confirm value (0x22)"))
        case (_?, nil): throw WireError(field: "OOB.random", reason: .constraint("a confirm value needs its random value (0x23)"))
        }
    }

    /// The block as AD structures, address first: what an app writes to an NFC tag or a QR
    /// code. Multi-octet values are little-endian, as everywhere in AD.
    public var advertisingData: AdvertisingData {
        var structures: [AdvertisingData.Structure] = []
        if let address {
            structures.append(AdvertisingData.Structure(type: .leBluetoothDeviceAddress,
                                                        data: address.littleEndianBytes + [address.kind == .random ? 1 : 0]))
        }
        if let secureConnections {
            structures.append(AdvertisingData.Structure(type: .leSecureConnectionsConfirmationValue,
                                                        data: Self.octets(secureConnections.confirm)))
            structures.append(AdvertisingData.Structure(type: .leSecureConnectionsRandomValue,
                                                        data: Self.octets(secureConnections.random)))
        }
        if let temporaryKey {
            structures.append(AdvertisingData.Structure(type: .securityManagerTKValue, data: Self.octets(temporaryKey)))
        }
        return AdvertisingData(structures: structures)
    }

    private static func value(_ structure: AdvertisingData.Structure, _ field: String) throws(WireError) -> UInt128 {
        guard structure.data.count == 16 else {
            throw WireError(field: field, reason: .lengthMismatch(declared: 16, actual: structure.data.count))
        }
        var reader = ByteReader(structure.data)
        return try reader.readUInt128(field)
    }

    private static func octets(_ value: UInt128) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(value)
        return writer.bytes
    }
}
