extension HCI {
    /// HCI_LE_Read_Buffer_Size [v1] (Core 5.4, Vol 4, Part E, §7.8.2): the controller's LE
    /// ACL data buffers, which pace the host's ACL sends.
    public struct LEReadBufferSize: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadBufferSize``.
        public static let opcode = Opcode.leReadBufferSize
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Largest LE ACL data payload, in octets; 0 means "use Read Buffer Size".
            public var leACLDataPacketLength: UInt16
            /// How many LE ACL data packets the controller can hold.
            public var totalNumLEACLDataPackets: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
                self.status = status
                self.leACLDataPacketLength = leACLDataPacketLength
                self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            }
        }
    }

    /// HCI_LE_Read_Buffer_Size [v2] (Core 5.4, Vol 4, Part E, §7.8.2): the LE ACL buffers
    /// and, for isochronous channels, the ISO data buffers.
    public struct LEReadBufferSizeV2: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadBufferSizeV2``.
        public static let opcode = Opcode.leReadBufferSizeV2
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Largest LE ACL data payload, in octets; 0 means "use Read Buffer Size".
            public var leACLDataPacketLength: UInt16
            /// How many LE ACL data packets the controller can hold.
            public var totalNumLEACLDataPackets: UInt8
            /// Largest ISO data payload, in octets.
            public var isoDataPacketLength: UInt16
            /// How many ISO data packets the controller can hold.
            public var totalNumISODataPackets: UInt8

            /// Return parameters with every field.
            public init(
                status: StatusCode, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8,
                isoDataPacketLength: UInt16, totalNumISODataPackets: UInt8
            ) {
                self.status = status
                self.leACLDataPacketLength = leACLDataPacketLength
                self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
                self.isoDataPacketLength = isoDataPacketLength
                self.totalNumISODataPackets = totalNumISODataPackets
            }
        }
    }

    /// HCI_LE_Read_Supported_States (Core 5.4, Vol 4, Part E, §7.8.27): which combinations of
    /// advertising, scanning, initiating and connection roles the link layer can run at once.
    public struct LEReadSupportedStates: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadSupportedStates``.
        public static let opcode = Opcode.leReadSupportedStates
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// LE_States: bit n set means state combination n of the §7.8.27 table is supported.
            public var leStates: UInt64

            /// Return parameters with every field.
            public init(status: StatusCode, leStates: UInt64) {
                self.status = status
                self.leStates = leStates
            }
        }
    }

    /// HCI_LE_Read_Transmit_Power (Core 5.4, Vol 4, Part E, §7.8.74): the lowest and highest
    /// transmit power the controller supports.
    public struct LEReadTransmitPower: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadTransmitPower``.
        public static let opcode = Opcode.leReadTransmitPower
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Lowest transmit power, dBm (-127 to +20).
            public var minTxPower: Int8
            /// Highest transmit power, dBm (-127 to +20).
            public var maxTxPower: Int8

            /// Return parameters with every field.
            public init(status: StatusCode, minTxPower: Int8, maxTxPower: Int8) {
                self.status = status
                self.minTxPower = minTxPower
                self.maxTxPower = maxTxPower
            }
        }
    }
}
