extension HCI {
    /// Own_Address_Type of the LE advertising, scanning and initiating commands (Core 5.4,
    /// Vol 4, Part E, §7.8.5): which address the controller puts in the PDUs it sends.
    public enum OwnAddressType: UInt8, Hashable, Sendable, CaseIterable {
        /// The public device address.
        case `public` = 0x00
        /// The random address set with LE Set Random Address.
        case random = 0x01
        /// A resolvable private address from the resolving list, else the public address.
        case resolvableOrPublic = 0x02
        /// A resolvable private address from the resolving list, else the random address.
        case resolvableOrRandom = 0x03
    }

    /// Advertising_Filter_Policy (Core 5.4, Vol 4, Part E, §7.8.5): which scan and connect
    /// requests an advertiser answers.
    public enum AdvertisingFilterPolicy: UInt8, Hashable, Sendable, CaseIterable {
        /// Answer every scan and connection request.
        case acceptAll = 0x00
        /// Answer scan requests only from the Filter Accept List; all connection requests.
        case scanFromFilterAcceptList = 0x01
        /// Answer all scan requests; connection requests only from the Filter Accept List.
        case connectFromFilterAcceptList = 0x02
        /// Answer both only from the Filter Accept List.
        case scanAndConnectFromFilterAcceptList = 0x03
    }

    /// Scanning_Filter_Policy (Core 5.4, Vol 4, Part E, §7.8.10): which advertising PDUs a
    /// scanner reports.
    public enum ScanningFilterPolicy: UInt8, Hashable, Sendable, CaseIterable {
        /// Every advertisement, except directed ones not addressed to this device.
        case basicUnfiltered = 0x00
        /// Only advertisers on the Filter Accept List.
        case basicFiltered = 0x01
        /// Like unfiltered, and also directed advertisements to an unresolved RPA.
        case extendedUnfiltered = 0x02
        /// Like filtered, and also directed advertisements to an unresolved RPA.
        case extendedFiltered = 0x03
    }

    /// Initiator_Filter_Policy (Core 5.4, Vol 4, Part E, §7.8.12): whether the initiator
    /// connects to the named peer or to any device on the Filter Accept List.
    public enum InitiatorFilterPolicy: UInt8, Hashable, Sendable, CaseIterable {
        /// Connect to the peer named in the command.
        case usePeerAddress = 0x00
        /// Connect to any advertiser on the Filter Accept List; the peer address is ignored.
        case useFilterAcceptList = 0x01
    }

    /// LE_Scan_Type (Core 5.4, Vol 4, Part E, §7.8.10): whether the scanner sends scan
    /// requests.
    public enum ScanType: UInt8, Hashable, Sendable, CaseIterable {
        /// Listen only; no scan requests.
        case passive = 0x00
        /// Send scan requests to scannable advertisers.
        case active = 0x01
    }

    /// A set of LE physical layers as a bit field (Core 5.4, Vol 4, Part E, §7.8.48,
    /// TX_PHYs and RX_PHYs). Reserved bits are kept so the value round-trips.
    public struct LEPHYs: OptionSet, Hashable, Sendable {
        /// The bit field as on the wire.
        public var rawValue: UInt8
        /// A set from its bit field.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: LE 1M.
        public static let le1M = LEPHYs(rawValue: 1 << 0)
        /// Bit 1: LE 2M.
        public static let le2M = LEPHYs(rawValue: 1 << 1)
        /// Bit 2: LE Coded.
        public static let leCoded = LEPHYs(rawValue: 1 << 2)
    }

    /// The three primary advertising channels as a bit field (Core 5.4, Vol 4, Part E,
    /// §7.8.5, Advertising_Channel_Map). Reserved bits are kept so the value round-trips.
    public struct AdvertisingChannelMap: OptionSet, Hashable, Sendable {
        /// The bit field as on the wire.
        public var rawValue: UInt8
        /// A map from its bit field.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: channel 37.
        public static let channel37 = AdvertisingChannelMap(rawValue: 1 << 0)
        /// Bit 1: channel 38.
        public static let channel38 = AdvertisingChannelMap(rawValue: 1 << 1)
        /// Bit 2: channel 39.
        public static let channel39 = AdvertisingChannelMap(rawValue: 1 << 2)
        /// All three channels, the usual choice.
        public static let all: AdvertisingChannelMap = [.channel37, .channel38, .channel39]
    }

    /// The 37 LE data channels as a 40-bit field (Core 5.4, Vol 4, Part E, §7.8.19 and
    /// §7.8.20): bit n set means channel n is used (or, from the host, not known bad).
    /// Bits 37 to 39 are reserved and kept so the value round-trips.
    public struct LEChannelMap: Hashable, Sendable {
        /// The 40 significant bits; the wire form is five octets, least significant first.
        public var rawValue: UInt64

        /// A map from its bits; bits above 39 are dropped.
        public init(rawValue: UInt64) { self.rawValue = rawValue & 0xFF_FFFF_FFFF }

        /// Whether data channel `channel` (0 to 36) is in the map.
        public func contains(channel: Int) -> Bool {
            guard (0 ..< 40).contains(channel) else { return false }
            return rawValue >> UInt64(channel) & 1 == 1
        }

        /// Reads the five octets.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            rawValue = try reader.readLittleEndian(octets: 5, field())
        }

        /// Appends the five octets.
        public func encode(to writer: inout ByteWriter) { writer.writeLittleEndian(rawValue, octets: 5) }
    }
}
