extension HCI {
    /// HCI_LE_Set_Data_Length (Core 5.4, Vol 4, Part E, §7.8.33): asks for larger (or
    /// smaller) link layer data PDUs on one connection.
    public struct LESetDataLength: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetDataLength``.
        public static let opcode = Opcode.leSetDataLength
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        // Codec: generated from the stored properties below.
        /// The connection to change.
        public var connectionHandle: UInt16
        /// TX_Octets: preferred payload octets per PDU (0x001B to 0x00FB).
        public var txOctets: UInt16
        /// TX_Time: preferred microseconds per PDU (0x0148 to 0x4290).
        public var txTime: UInt16

        /// The command with every parameter.
        public init(connectionHandle: UInt16, txOctets: UInt16, txTime: UInt16) {
            self.connectionHandle = connectionHandle
            self.txOctets = txOctets
            self.txTime = txTime
        }
    }

    /// HCI_LE_Read_Suggested_Default_Data_Length (Core 5.4, Vol 4, Part E, §7.8.34): the data
    /// length new connections start with.
    public struct LEReadSuggestedDefaultDataLength: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadSuggestedDefaultDataLength``.
        public static let opcode = Opcode.leReadSuggestedDefaultDataLength
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Suggested_Max_TX_Octets.
            public var suggestedMaxTxOctets: UInt16
            /// Suggested_Max_TX_Time, in microseconds.
            public var suggestedMaxTxTime: UInt16

            /// Return parameters with every field.
            public init(status: StatusCode, suggestedMaxTxOctets: UInt16, suggestedMaxTxTime: UInt16) {
                self.status = status
                self.suggestedMaxTxOctets = suggestedMaxTxOctets
                self.suggestedMaxTxTime = suggestedMaxTxTime
            }
        }
    }

    /// HCI_LE_Write_Suggested_Default_Data_Length (Core 5.4, Vol 4, Part E, §7.8.35): sets
    /// the data length new connections start with.
    public struct LEWriteSuggestedDefaultDataLength: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leWriteSuggestedDefaultDataLength``.
        public static let opcode = Opcode.leWriteSuggestedDefaultDataLength

        // Codec: generated from the stored properties below.
        /// Suggested_Max_TX_Octets (0x001B to 0x00FB).
        public var suggestedMaxTxOctets: UInt16
        /// Suggested_Max_TX_Time, in microseconds (0x0148 to 0x4290).
        public var suggestedMaxTxTime: UInt16

        /// The command with both values.
        public init(suggestedMaxTxOctets: UInt16, suggestedMaxTxTime: UInt16) {
            self.suggestedMaxTxOctets = suggestedMaxTxOctets
            self.suggestedMaxTxTime = suggestedMaxTxTime
        }
    }

    /// HCI_LE_Read_Maximum_Data_Length (Core 5.4, Vol 4, Part E, §7.8.46): the largest data
    /// PDUs the controller supports.
    public struct LEReadMaximumDataLength: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadMaximumDataLength``.
        public static let opcode = Opcode.leReadMaximumDataLength
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Supported_Max_TX_Octets.
            public var supportedMaxTxOctets: UInt16
            /// Supported_Max_TX_Time, in microseconds.
            public var supportedMaxTxTime: UInt16
            /// Supported_Max_RX_Octets.
            public var supportedMaxRxOctets: UInt16
            /// Supported_Max_RX_Time, in microseconds.
            public var supportedMaxRxTime: UInt16

            /// Return parameters with every field.
            public init(
                status: StatusCode, supportedMaxTxOctets: UInt16, supportedMaxTxTime: UInt16,
                supportedMaxRxOctets: UInt16, supportedMaxRxTime: UInt16
            ) {
                self.status = status
                self.supportedMaxTxOctets = supportedMaxTxOctets
                self.supportedMaxTxTime = supportedMaxTxTime
                self.supportedMaxRxOctets = supportedMaxRxOctets
                self.supportedMaxRxTime = supportedMaxRxTime
            }
        }
    }
}
