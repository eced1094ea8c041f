/// Shared pieces of the typed HCI commands (Core 5.4, Vol 4, Part E, §7): reader helpers for
/// the small closed enumerations and flags that most commands carry, and the return
/// parameters several commands share.

extension ByteReader {
    /// Reads a one-octet flag that must be 0x00 or 0x01 (e.g. `LE_Scan_Enable`);
    /// any other value is reserved and throws.
    mutating func readFlag(_ field: @autoclosure () -> String) throws(WireError) -> Bool {
        let raw = try readUInt8(field())
        switch raw {
        case 0x00: return false
        case 0x01: return true
        default: throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
    }

    /// Reads a one-octet closed enumeration; a value the type does not list throws.
    mutating func readEnumeration<Value: RawRepresentable>(
        _ type: Value.Type, _ field: @autoclosure () -> String
    ) throws(WireError) -> Value where Value.RawValue == UInt8 {
        let raw = try readUInt8(field())
        guard let value = Value(rawValue: raw) else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
        return value
    }

    /// Reads an Address_Type octet that allows only public (0x00) or random (0x01), then
    /// the six address octets, as one ``BluetoothAddress`` whose kind is that type.
    mutating func readTypedAddress(
        _ typeField: @autoclosure () -> String, _ addressField: @autoclosure () -> String
    ) throws(WireError) -> BluetoothAddress {
        let kind = try readEnumeration(BluetoothAddress.Kind.self, typeField())
        return try BluetoothAddress(from: &self, kind: kind, field: addressField())
    }

    /// Reads a connection handle (Core 5.4, Vol 4, Part E, §5.4.2): 12 significant bits in a
    /// 16-bit field. Handles above 0x0EFF are reserved and throw.
    mutating func readConnectionHandle(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        let raw = try readUInt16(field())
        guard raw <= HCI.maximumConnectionHandle else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
        return raw
    }
}

extension ByteWriter {
    /// Appends a one-octet flag: 0x01 for `true`, 0x00 for `false`.
    mutating func writeFlag(_ value: Bool) { write(UInt8(value ? 1 : 0)) }

    /// Appends an Address_Type octet (public 0x00, random 0x01) and the six address octets.
    mutating func writeTypedAddress(_ address: BluetoothAddress) {
        write(address.kind.rawValue)
        address.encode(to: &self)
    }
}

extension HCI {
    /// The largest valid Connection_Handle (Core 5.4, Vol 4, Part E, §5.4.2); 0x0F00 to
    /// 0x0FFF are reserved.
    public static let maximumConnectionHandle: UInt16 = 0x0EFF

    /// A command without parameters (Core 5.4, Vol 4, Part E, §7), such as ``HCI/Reset``:
    /// its wire form is empty, so decoding and encoding come from this protocol.
    public protocol ParameterlessCommand: HCICommand {
        /// The command (it has no fields).
        init()
    }

    /// Return parameters that are a status and the connection handle the command named
    /// (e.g. LE Long Term Key Request Reply, Core 5.4, Vol 4, Part E, §7.8.25).
    public struct StatusAndHandleReturnParameters: WireCodable, Hashable {
        // Codec: generated from the stored properties below.
        /// Whether the command succeeded, and if not, why.
        public var status: StatusCode
        /// The connection the command applied to.
        public var connectionHandle: UInt16

        /// Return parameters with `status` for `connectionHandle`.
        public init(status: StatusCode, connectionHandle: UInt16) {
            self.status = status
            self.connectionHandle = connectionHandle
        }
    }
}

extension HCI.ParameterlessCommand {
    /// Reads nothing: the command has no parameters (trailing octets are caught by
    /// `init(decoding:)`).
    public init(from reader: inout ByteReader) throws(WireError) { self.init() }

    /// Appends nothing: the command has no parameters.
    public func encode(to writer: inout ByteWriter) {}
}
