extension AdvertisingData {
    /// The Flags data type (CSS v11, Part A, §1.3): discoverability and BR/EDR support.
    ///
    /// Only the first data octet is interpreted (CSS allows the field to grow); the raw
    /// octet is kept whole, reserved bits 5–7 included.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The first octet of the Flags data.
        public var rawValue: UInt8

        /// Flags from the raw octet; every octet is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: LE Limited Discoverable Mode.
        public static let leLimitedDiscoverable = Flags(rawValue: 0x01)
        /// Bit 1: LE General Discoverable Mode.
        public static let leGeneralDiscoverable = Flags(rawValue: 0x02)
        /// Bit 2: BR/EDR Not Supported.
        public static let brEdrNotSupported = Flags(rawValue: 0x04)
        /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
        public static let simultaneousLEAndBREDRController = Flags(rawValue: 0x08)
        /// Bit 4: Simultaneous LE and BR/EDR to Same Device Capable (Host); marked
        /// "previously used" in recent supplements, kept so old devices decode faithfully.
        public static let simultaneousLEAndBREDRHost = Flags(rawValue: 0x10)
    }

    /// The LE Role data type (CSS v11, Part A, §1.17): which GAP roles the device supports
    /// and prefers. Values 0x04–0xFF are reserved; the accessor returns `nil` for them.
    public enum LERole: UInt8, Hashable, Sendable, CaseIterable {
        /// Only the Peripheral role.
        case peripheralOnly = 0x00
        /// Only the Central role.
        case centralOnly = 0x01
        /// Both roles, Peripheral preferred for connection establishment.
        case peripheralPreferred = 0x02
        /// Both roles, Central preferred for connection establishment.
        case centralPreferred = 0x03
    }

    /// The Peripheral Connection Interval Range data type (CSS v11, Part A, §1.9): the
    /// connection intervals the peripheral prefers, in units of 1.25 ms. 0xFFFF in either
    /// field means "no specific value".
    public struct ConnectionIntervalRange: Hashable, Sendable {
        /// The value meaning "no specific minimum/maximum".
        public static let noSpecificValue: UInt16 = 0xFFFF

        /// Connection_Interval_Min as on the wire (1.25 ms units, or 0xFFFF).
        public var minimum: UInt16
        /// Connection_Interval_Max as on the wire (1.25 ms units, or 0xFFFF).
        public var maximum: UInt16

        /// A range from the two raw fields.
        public init(minimum: UInt16, maximum: UInt16) {
            self.minimum = minimum
            self.maximum = maximum
        }

        /// The minimum, or `nil` for "no specific value".
        public var specifiedMinimum: UInt16? { minimum == Self.noSpecificValue ? nil : minimum }
        /// The maximum, or `nil` for "no specific value".
        public var specifiedMaximum: UInt16? { maximum == Self.noSpecificValue ? nil : maximum }
    }

    /// One Service Data structure (CSS v11, Part A, §1.11): a service UUID and data the
    /// service defines.
    public struct ServiceData: Hashable, Sendable {
        /// The service; its width selects the AD type (0x16, 0x20 or 0x21).
        public var uuid: BluetoothUUID
        /// The service's data, a view into the decoded input.
        public var data: ArraySlice<UInt8>

        /// Service data for `uuid`.
        public init(uuid: BluetoothUUID, data: ArraySlice<UInt8>) {
            self.uuid = uuid
            self.data = data
        }
    }

    /// One Manufacturer Specific Data structure (CSS v11, Part A, §1.4): a company
    /// identifier from the Assigned Numbers and the company's own data.
    public struct ManufacturerData: Hashable, Sendable {
        /// The company identifier, e.g. 0x004C (Apple).
        public var companyIdentifier: UInt16
        /// The data after the company identifier, a view into the decoded input.
        public var data: ArraySlice<UInt8>

        /// Manufacturer data for `companyIdentifier`.
        public init(companyIdentifier: UInt16, data: ArraySlice<UInt8>) {
            self.companyIdentifier = companyIdentifier
            self.data = data
        }
    }

    /// The URI data type's scheme code points (Assigned Numbers, "URI Schemes", §2.7):
    /// the URI AD data starts with this code point, UTF-8 encoded, in place of the scheme
    /// name, followed by the rest of the URI. 0x01 means "no scheme replaced".
    ///
    /// Only the first part of the list (0x01 `""` to 0x26 `mailto:`) is named here, which
    /// covers the schemes met in practice (http:, https:, mailto:, …).
    public static let uriSchemes: [UInt32: String] = {
        let names = [
            "", "aaa:", "aaas:", "about:", "acap:", "acct:", "cap:", "cid:", "coap:", "coaps:",
            "crid:", "data:", "dav:", "dict:", "dns:", "file:", "ftp:", "geo:", "go:", "gopher:",
            "h323:", "http:", "https:", "iax:", "icap:", "im:", "imap:", "info:", "ipp:", "ipps:",
            "iris:", "iris.beep:", "iris.xpc:", "iris.xpcs:", "iris.lwz:", "jabber:", "ldap:", "mailto:",
        ]
        var table: [UInt32: String] = [:]
        for (offset, name) in names.enumerated() { table[UInt32(offset + 1)] = name }
        return table
    }()
}
