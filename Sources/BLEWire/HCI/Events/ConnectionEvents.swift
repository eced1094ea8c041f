extension HCI {
    /// Disconnection Complete event (Core 5.4, Vol 4, Part E, §7.7.5): a connection has
    /// ended, locally or by the peer, and its handle is free again.
    public struct DisconnectionComplete: HCIEvent {
        /// Event code 0x05.
        public static let eventCode = EventCode.disconnectionComplete

        /// Whether the disconnection succeeded.
        public var status: StatusCode
        /// The connection that ended (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Why it ended, e.g. Remote User Terminated Connection (0x13).
        public var reason: StatusCode

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, reason: StatusCode) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.reason = reason
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.DisconnectionComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.DisconnectionComplete.connectionHandle")
            reason = try StatusCode(from: &reader, field: "HCI.DisconnectionComplete.reason")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            reason.encode(to: &writer)
        }
    }

    /// Read Remote Version Information Complete event (Core 5.4, Vol 4, Part E, §7.7.12):
    /// the peer's link layer version and manufacturer, answering the command of that name.
    public struct ReadRemoteVersionInformationComplete: HCIEvent {
        /// Event code 0x0C.
        public static let eventCode = EventCode.readRemoteVersionInformationComplete

        /// Whether the peer answered.
        public var status: StatusCode
        /// The connection asked (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The peer's LMP/LL version (Assigned Numbers, e.g. 0x0D = Core 5.4).
        public var version: UInt8
        /// The peer's Bluetooth SIG company identifier.
        public var companyIdentifier: UInt16
        /// The manufacturer's own sub-version number.
        public var subversion: UInt16

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.version = version
            self.companyIdentifier = companyIdentifier
            self.subversion = subversion
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.ReadRemoteVersionInformationComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.ReadRemoteVersionInformationComplete.connectionHandle")
            version = try reader.readUInt8("HCI.ReadRemoteVersionInformationComplete.version")
            companyIdentifier = try reader.readUInt16("HCI.ReadRemoteVersionInformationComplete.companyIdentifier")
            subversion = try reader.readUInt16("HCI.ReadRemoteVersionInformationComplete.subversion")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(version)
            writer.write(companyIdentifier)
            writer.write(subversion)
        }
    }

    /// Encryption Change [v1] event (Core 5.4, Vol 4, Part E, §7.7.8): encryption of a link
    /// was switched on or off, e.g. after LE Enable Encryption or an LTK reply.
    public struct EncryptionChange: HCIEvent {
        /// Event code 0x08.
        public static let eventCode = EventCode.encryptionChange

        /// The Encryption_Enabled parameter: whether the link is now encrypted, and how.
        public enum Enabled: UInt8, Hashable, Sendable, CaseIterable {
            /// Encryption is off.
            case off = 0x00
            /// Encryption is on: AES-CCM on LE links, E0 on BR/EDR links.
            case on = 0x01
            /// Encryption is on with AES-CCM on a BR/EDR link.
            case onAESCCM = 0x02
        }

        /// Whether the change succeeded; 0x06 PIN or Key Missing when the peer lacks the key.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The new encryption state.
        public var encryptionEnabled: Enabled

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, encryptionEnabled: Enabled) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.encryptionEnabled = encryptionEnabled
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.EncryptionChange.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.EncryptionChange.connectionHandle")
            encryptionEnabled = try reader.readEventEnumeration(Enabled.self, "HCI.EncryptionChange.encryptionEnabled")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(encryptionEnabled.rawValue)
        }
    }

    /// Encryption Change [v2] event (Core 5.4, Vol 4, Part E, §7.7.8): as v1, plus the
    /// negotiated key size so the host need not ask with Read Encryption Key Size.
    public struct EncryptionChangeV2: HCIEvent {
        /// Event code 0x59.
        public static let eventCode = EventCode.encryptionChangeV2

        /// Whether the change succeeded.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The new encryption state.
        public var encryptionEnabled: EncryptionChange.Enabled
        /// The encryption key size in octets (7–16 when encrypted).
        public var encryptionKeySize: UInt8

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, encryptionEnabled: EncryptionChange.Enabled, encryptionKeySize: UInt8) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.encryptionEnabled = encryptionEnabled
            self.encryptionKeySize = encryptionKeySize
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.EncryptionChangeV2.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.EncryptionChangeV2.connectionHandle")
            encryptionEnabled = try reader.readEventEnumeration(
                EncryptionChange.Enabled.self, "HCI.EncryptionChangeV2.encryptionEnabled")
            encryptionKeySize = try reader.readUInt8("HCI.EncryptionChangeV2.encryptionKeySize")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(encryptionEnabled.rawValue)
            writer.write(encryptionKeySize)
        }
    }

    /// Encryption Key Refresh Complete event (Core 5.4, Vol 4, Part E, §7.7.39): the
    /// encryption key of an already encrypted link was refreshed (LE: re-encryption with
    /// a new session key).
    public struct EncryptionKeyRefreshComplete: HCIEvent {
        /// Event code 0x30.
        public static let eventCode = EventCode.encryptionKeyRefreshComplete

        /// Whether the refresh succeeded.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16) {
            self.status = status
            self.connectionHandle = connectionHandle
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.EncryptionKeyRefreshComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.EncryptionKeyRefreshComplete.connectionHandle")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
        }
    }

    /// Authenticated Payload Timeout Expired event (Core 5.4, Vol 4, Part E, §7.7.75): no
    /// packet with a valid MIC arrived within the authenticated payload timeout (LE Ping).
    public struct AuthenticatedPayloadTimeoutExpired: HCIEvent {
        /// Event code 0x57.
        public static let eventCode = EventCode.authenticatedPayloadTimeoutExpired

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16

        /// An event for `connectionHandle`.
        public init(connectionHandle: UInt16) {
            self.connectionHandle = connectionHandle
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readEventConnectionHandle("HCI.AuthenticatedPayloadTimeoutExpired.connectionHandle")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
        }
    }
}
