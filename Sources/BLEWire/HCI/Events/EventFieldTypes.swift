extension HCI {
    /// The Role parameter of connection events (Core 5.4, Vol 4, Part E, §7.7.65.1):
    /// which end of the link the local device is.
    public enum Role: UInt8, Hashable, Sendable, CaseIterable {
        /// The local device initiated the connection.
        case central = 0x00
        /// The local device accepted the connection (it was advertising).
        case peripheral = 0x01
    }

    /// One LE PHY as events and Read PHY report it (Core 5.4, Vol 4, Part E, §7.7.65.12,
    /// §7.7.65.13 and §7.8.47): one value, not the preference bit mask of ``HCI/LEPHYs``.
    public enum PHY: UInt8, Hashable, Sendable, CaseIterable {
        /// LE 1M.
        case le1M = 0x01
        /// LE 2M.
        case le2M = 0x02
        /// LE Coded.
        case leCoded = 0x03
    }

    /// The Central_Clock_Accuracy parameter (Core 5.4, Vol 4, Part E, §7.7.65.1): the
    /// worst-case sleep clock accuracy of the central, which a peripheral uses to widen its
    /// receive window. A central receives 0x00 (the field is only meaningful to peripherals).
    public enum ClockAccuracy: UInt8, Hashable, Sendable, CaseIterable {
        /// 500 ppm.
        case ppm500 = 0x00
        /// 250 ppm.
        case ppm250 = 0x01
        /// 150 ppm.
        case ppm150 = 0x02
        /// 100 ppm.
        case ppm100 = 0x03
        /// 75 ppm.
        case ppm75 = 0x04
        /// 50 ppm.
        case ppm50 = 0x05
        /// 30 ppm.
        case ppm30 = 0x06
        /// 20 ppm.
        case ppm20 = 0x07
    }

    /// The Direct_Address_Type of directed and extended advertising reports
    /// (Core 5.4, Vol 4, Part E, §7.7.65.11 and §7.7.65.13): the kind of the TargetA
    /// address an advertisement was directed to.
    public enum DirectAddressType: UInt8, Hashable, Sendable, CaseIterable {
        /// A public device address.
        case `public` = 0x00
        /// A random device address.
        case random = 0x01
        /// A resolvable private address the controller resolved to its public identity.
        case publicIdentity = 0x02
        /// A resolvable private address the controller resolved to its random identity.
        case randomIdentity = 0x03
        /// A resolvable private address the controller could not resolve.
        case unresolvedRandom = 0xFE
    }
}

extension ByteReader {
    /// Reads a two-octet Connection_Handle and rejects values above 0x0EFF.
    mutating func readEventConnectionHandle(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        let handle = try readUInt16(field())
        guard handle <= HCI.maximumConnectionHandle else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(handle)))
        }
        return handle
    }

    /// Reads one octet of a closed enumeration; a reserved value throws naming `field`.
    mutating func readEventEnumeration<Value: RawRepresentable>(
        _ type: Value.Type, _ field: @autoclosure () -> String
    ) throws(WireError) -> Value where Value.RawValue == UInt8 {
        let raw = try readUInt8(field())
        guard let value = Value(rawValue: raw) else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
        return value
    }

    /// Reads a six-octet device address whose kind comes from an HCI address type.
    mutating func readEventAddress(
        type: HCI.AddressType, _ field: @autoclosure () -> String
    ) throws(WireError) -> BluetoothAddress {
        try BluetoothAddress(from: &self, kind: type.addressKind, field: field())
    }
}
