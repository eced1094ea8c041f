extension HCI {
    /// HCI_Read_Transmit_Power_Level (Core 5.4, Vol 4, Part E, §7.3.35): the transmit power
    /// of a connection, current or maximum.
    public struct ReadTransmitPowerLevel: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readTransmitPowerLevel``.
        public static let opcode = Opcode.readTransmitPowerLevel

        /// Type: which level to read.
        public enum LevelType: UInt8, Hashable, Sendable, CaseIterable {
            /// The current transmit power level.
            case current = 0x00
            /// The maximum transmit power level.
            case maximum = 0x01
        }

        // Codec: generated from the stored properties below.
        /// The connection to read.
        public var connectionHandle: UInt16
        /// Current or maximum.
        public var type: LevelType

        /// The command reading `type` power of `connectionHandle`.
        public init(connectionHandle: UInt16, type: LevelType) {
            self.connectionHandle = connectionHandle
            self.type = type
        }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The connection that was read.
            public var connectionHandle: UInt16
            /// The power level in dBm (-30 to +20).
            public var transmitPowerLevel: Int8

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, transmitPowerLevel: Int8) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.transmitPowerLevel = transmitPowerLevel
            }
        }
    }

    /// HCI_Read_LE_Host_Support (Core 5.4, Vol 4, Part E, §7.3.78): whether the host
    /// supports LE, as the controller last heard.
    public struct ReadLEHostSupport: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readLEHostSupport``.
        public static let opcode = Opcode.readLEHostSupport
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// LE_Supported_Host: 0x01 if the host supports LE.
            public var leSupportedHost: UInt8
            /// Simultaneous_LE_Host: unused since Core 5.1, kept as received.
            public var unused: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, leSupportedHost: UInt8, unused: UInt8 = 0) {
                self.status = status
                self.leSupportedHost = leSupportedHost
                self.unused = unused
            }
        }
    }

    /// HCI_Write_LE_Host_Support (Core 5.4, Vol 4, Part E, §7.3.79): tells a dual-mode
    /// controller that the host supports LE.
    public struct WriteLEHostSupport: HCICommand {
        /// The command's opcode, ``HCI/Opcode/writeLEHostSupport``.
        public static let opcode = Opcode.writeLEHostSupport

        // Codec: generated from the stored properties below.
        /// Whether the host supports LE (LE_Supported_Host).
        public var leSupportedHost: Bool
        /// The second parameter, unused since Core 5.1 (shall be 0x00); kept as given.
        public var unused: UInt8

        /// The command with the host's LE support.
        public init(leSupportedHost: Bool, unused: UInt8 = 0) {
            self.leSupportedHost = leSupportedHost
            self.unused = unused
        }
    }

    /// HCI_Read_Authenticated_Payload_Timeout (Core 5.4, Vol 4, Part E, §7.3.93): how long an
    /// encrypted link may go without a packet that carries a MIC.
    public struct ReadAuthenticatedPayloadTimeout: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readAuthenticatedPayloadTimeout``.
        public static let opcode = Opcode.readAuthenticatedPayloadTimeout

        // Codec: generated from the stored properties below.
        /// The connection to read.
        public var connectionHandle: UInt16

        /// The command reading `connectionHandle`'s timeout.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The connection that was read.
            public var connectionHandle: UInt16
            /// The timeout in units of 10 ms.
            public var authenticatedPayloadTimeout: UInt16

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, authenticatedPayloadTimeout: UInt16) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.authenticatedPayloadTimeout = authenticatedPayloadTimeout
            }
        }
    }

    /// HCI_Write_Authenticated_Payload_Timeout (Core 5.4, Vol 4, Part E, §7.3.94): sets how
    /// long an encrypted link may go without a MIC-carrying packet before the controller
    /// raises Authenticated Payload Timeout Expired (LE Ping keeps it alive).
    public struct WriteAuthenticatedPayloadTimeout: HCICommand {
        /// The command's opcode, ``HCI/Opcode/writeAuthenticatedPayloadTimeout``.
        public static let opcode = Opcode.writeAuthenticatedPayloadTimeout
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        // Codec: generated from the stored properties below.
        /// The connection to configure.
        public var connectionHandle: UInt16
        /// The timeout in units of 10 ms (0x0001 to 0xFFFF; 0x0BB8 = 30 s is the default).
        public var authenticatedPayloadTimeout: UInt16

        /// The command setting `authenticatedPayloadTimeout` on `connectionHandle`.
        public init(connectionHandle: UInt16, authenticatedPayloadTimeout: UInt16) {
            self.connectionHandle = connectionHandle
            self.authenticatedPayloadTimeout = authenticatedPayloadTimeout
        }
    }
}
