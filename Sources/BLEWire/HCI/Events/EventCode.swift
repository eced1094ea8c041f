extension HCI {
    /// An HCI event code (Core 5.4, Vol 4, Part E, §5.4.4 and §7.7): the first octet of
    /// every event packet.
    ///
    /// A struct rather than an enum so that codes this library does not model (vendor
    /// events, newer specifications) are still representable and nothing is lost.
    public struct EventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The octet on the wire.
        public let rawValue: UInt8

        /// An event code from its octet.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Disconnection Complete (§7.7.5).
        public static let disconnectionComplete = EventCode(rawValue: 0x05)
        /// Encryption Change [v1] (§7.7.8).
        public static let encryptionChange = EventCode(rawValue: 0x08)
        /// Read Remote Version Information Complete (§7.7.12).
        public static let readRemoteVersionInformationComplete = EventCode(rawValue: 0x0C)
        /// Command Complete (§7.7.14).
        public static let commandComplete = EventCode(rawValue: 0x0E)
        /// Command Status (§7.7.15).
        public static let commandStatus = EventCode(rawValue: 0x0F)
        /// Hardware Error (§7.7.16).
        public static let hardwareError = EventCode(rawValue: 0x10)
        /// Number Of Completed Packets (§7.7.19).
        public static let numberOfCompletedPackets = EventCode(rawValue: 0x13)
        /// Data Buffer Overflow (§7.7.26).
        public static let dataBufferOverflow = EventCode(rawValue: 0x1A)
        /// Encryption Key Refresh Complete (§7.7.39).
        public static let encryptionKeyRefreshComplete = EventCode(rawValue: 0x30)
        /// LE Meta event (§7.7.65): the container of every LE subevent.
        public static let leMeta = EventCode(rawValue: 0x3E)
        /// Authenticated Payload Timeout Expired (§7.7.75).
        public static let authenticatedPayloadTimeoutExpired = EventCode(rawValue: 0x57)
        /// Encryption Change [v2] (§7.7.8), which adds the encryption key size.
        public static let encryptionChangeV2 = EventCode(rawValue: 0x59)
        /// Vendor-specific events (§5.4.4): the parameters are defined by the manufacturer.
        public static let vendorSpecific = EventCode(rawValue: 0xFF)

        /// `0x3E`-style hex.
        public var description: String { eventHexOctet(rawValue) }
    }

    /// An LE Meta subevent code (Core 5.4, Vol 4, Part E, §7.7.65): the first parameter
    /// octet of an LE Meta event. A struct so unknown subevents stay representable.
    public struct LESubeventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The octet on the wire.
        public let rawValue: UInt8

        /// A subevent code from its octet.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// LE Connection Complete (§7.7.65.1).
        public static let connectionComplete = LESubeventCode(rawValue: 0x01)
        /// LE Advertising Report (§7.7.65.2).
        public static let advertisingReport = LESubeventCode(rawValue: 0x02)
        /// LE Connection Update Complete (§7.7.65.3).
        public static let connectionUpdateComplete = LESubeventCode(rawValue: 0x03)
        /// LE Read Remote Features Complete (§7.7.65.4).
        public static let readRemoteFeaturesComplete = LESubeventCode(rawValue: 0x04)
        /// LE Long Term Key Request (§7.7.65.5).
        public static let longTermKeyRequest = LESubeventCode(rawValue: 0x05)
        /// LE Remote Connection Parameter Request (§7.7.65.6).
        public static let remoteConnectionParameterRequest = LESubeventCode(rawValue: 0x06)
        /// LE Data Length Change (§7.7.65.7).
        public static let dataLengthChange = LESubeventCode(rawValue: 0x07)
        /// LE Read Local P-256 Public Key Complete (§7.7.65.8).
        public static let readLocalP256PublicKeyComplete = LESubeventCode(rawValue: 0x08)
        /// LE Generate DHKey Complete (§7.7.65.9).
        public static let generateDHKeyComplete = LESubeventCode(rawValue: 0x09)
        /// LE Enhanced Connection Complete [v1] (§7.7.65.10).
        public static let enhancedConnectionComplete = LESubeventCode(rawValue: 0x0A)
        /// LE Directed Advertising Report (§7.7.65.11).
        public static let directedAdvertisingReport = LESubeventCode(rawValue: 0x0B)
        /// LE PHY Update Complete (§7.7.65.12).
        public static let phyUpdateComplete = LESubeventCode(rawValue: 0x0C)
        /// LE Extended Advertising Report (§7.7.65.13).
        public static let extendedAdvertisingReport = LESubeventCode(rawValue: 0x0D)
        /// LE Periodic Advertising Sync Established [v1] (§7.7.65.14).
        public static let periodicAdvertisingSyncEstablished = LESubeventCode(rawValue: 0x0E)
        /// LE Periodic Advertising Report [v1] (§7.7.65.15).
        public static let periodicAdvertisingReport = LESubeventCode(rawValue: 0x0F)
        /// LE Periodic Advertising Sync Lost (§7.7.65.16).
        public static let periodicAdvertisingSyncLost = LESubeventCode(rawValue: 0x10)
        /// LE Scan Timeout (§7.7.65.17).
        public static let scanTimeout = LESubeventCode(rawValue: 0x11)
        /// LE Advertising Set Terminated (§7.7.65.18).
        public static let advertisingSetTerminated = LESubeventCode(rawValue: 0x12)
        /// LE Scan Request Received (§7.7.65.19).
        public static let scanRequestReceived = LESubeventCode(rawValue: 0x13)
        /// LE Channel Selection Algorithm (§7.7.65.20).
        public static let channelSelectionAlgorithm = LESubeventCode(rawValue: 0x14)
        /// LE Enhanced Connection Complete [v2] (§7.7.65.10), which adds the advertising
        /// and sync handles.
        public static let enhancedConnectionCompleteV2 = LESubeventCode(rawValue: 0x29)

        /// `0x0D`-style hex.
        public var description: String { eventHexOctet(rawValue) }
    }
}

/// `0x0D`-style hex of one octet, for descriptions.
private func eventHexOctet(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return value < 0x10 ? "0x0" + text : "0x" + text
}
