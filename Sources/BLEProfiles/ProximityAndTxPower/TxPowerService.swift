import BLEHost
import BLEWire

/// Tx Power Level (GSS §3.233, characteristic 0x2A07): the transmit power in dBm, sint8,
/// −100…+20.
public struct TxPowerLevel: CharacteristicValue, CustomStringConvertible {
    /// The Tx Power Level characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A07
    /// The levels the characteristic may hold.
    public static let range: ClosedRange<Int8> = -100 ... 20

    /// The power, in dBm.
    public let dBm: Int8

    /// A level; `nil` outside −100…+20 dBm.
    public init?(dBm: Int8) {
        guard Self.range.contains(dBm) else { return nil }
        self.dBm = dBm
    }

    /// Decodes the one octet, refusing levels outside −100…+20.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        dBm = try ProfileDecoding.whole(bytes, "TxPowerLevel") { reader throws(WireError) in
            let level = try reader.readInt8("TxPowerLevel")
            guard Self.range.contains(level) else {
                throw WireError(field: "TxPowerLevel", reason: .invalidValue(UInt64(UInt8(bitPattern: level))))
            }
            return level
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [UInt8(bitPattern: dBm)] }

    /// `-4 dBm`.
    public var description: String { "\(dBm) dBm" }
}

/// The Tx Power Service (TPS 1.0, service 0x1804): the Tx Power Level of the link, readable
/// (§3.1), so a client can estimate path loss from the RSSI.
public struct TxPowerService: Hashable, Sendable {
    /// The Tx Power Service's UUID.
    public static let uuid: BluetoothUUID = 0x1804

    /// The transmit power reported.
    public var level: TxPowerLevel

    /// A tx-power service reporting `level`; 0 dBm by default.
    public init(level: TxPowerLevel = TxPowerLevel.zero) {
        self.level = level
    }

    /// The service: Tx Power Level, read, stored.
    public var definition: GATTServiceDefinition {
        GATTServiceDefinition(uuid: Self.uuid, characteristics: [
            GATTCharacteristicDefinition(uuid: TxPowerLevel.uuid, properties: .read, permissions: .readable,
                                         value: .stored(level.encoded()), maximumLength: 1),
        ])
    }
}

extension TxPowerLevel {
    /// 0 dBm.
    public static let zero = TxPowerLevel(unchecked: 0)

    private init(unchecked dBm: Int8) { self.dBm = dBm }
}
