extension HCI {
    /// The Address_Type values of LE commands and events (Core 5.4, Vol 4, Part E, §7.7.65
    /// and §7.8). Values 0x02 and 0x03 appear when the controller resolved a private address
    /// to an identity; 0xFF marks an anonymous advertiser in extended reports.
    public enum AddressType: UInt8, Hashable, Sendable, CaseIterable {
        case `public` = 0x00
        case random = 0x01
        case publicIdentity = 0x02
        case randomIdentity = 0x03
        case anonymous = 0xFF

        /// Decodes one octet; a reserved value throws naming `field`.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            let raw = try reader.readUInt8(field())
            guard let value = AddressType(rawValue: raw) else {
                throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
            }
            self = value
        }

        /// The kind of the 48-bit address this type accompanies.
        public var addressKind: BluetoothAddress.Kind {
            switch self {
            case .public, .publicIdentity: return .public
            case .random, .randomIdentity, .anonymous: return .random
            }
        }
    }
}
