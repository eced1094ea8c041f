extension HCI {
    /// All_PHYs of LE Set Default PHY and LE Set PHY (Core 5.4, Vol 4, Part E, §7.8.48): which
    /// directions the host has no preference for. Reserved bits are kept.
    public struct AllPHYsPreference: OptionSet, Hashable, Sendable {
        /// The bit field as on the wire.
        public var rawValue: UInt8
        /// A preference from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: no preference for the transmitter PHY (TX_PHYs is ignored).
        public static let noTransmitPreference = AllPHYsPreference(rawValue: 1 << 0)
        /// Bit 1: no preference for the receiver PHY (RX_PHYs is ignored).
        public static let noReceivePreference = AllPHYsPreference(rawValue: 1 << 1)
    }

    /// HCI_LE_Read_PHY (Core 5.4, Vol 4, Part E, §7.8.47): the PHYs a connection uses now.
    public struct LEReadPHY: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leReadPHY``.
        public static let opcode = Opcode.leReadPHY

        // Codec: generated from the stored properties below.
        /// The connection to read.
        public var connectionHandle: UInt16

        /// The command reading `connectionHandle`'s PHYs.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The connection that was read.
            public var connectionHandle: UInt16
            /// TX_PHY: the transmitter PHY.
            public var txPHY: PHY
            /// RX_PHY: the receiver PHY.
            public var rxPHY: PHY

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, txPHY: PHY, rxPHY: PHY) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.txPHY = txPHY
                self.rxPHY = rxPHY
            }
        }
    }

    /// HCI_LE_Set_Default_PHY (Core 5.4, Vol 4, Part E, §7.8.48): the PHYs the host prefers
    /// for new connections.
    public struct LESetDefaultPHY: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetDefaultPHY``.
        public static let opcode = Opcode.leSetDefaultPHY

        // Codec: generated from the stored properties below.
        /// Directions without a preference.
        public var allPHYs: AllPHYsPreference
        /// TX_PHYs: transmitter PHYs the host prefers.
        public var txPHYs: LEPHYs
        /// RX_PHYs: receiver PHYs the host prefers.
        public var rxPHYs: LEPHYs

        /// The command with every parameter.
        public init(allPHYs: AllPHYsPreference = [], txPHYs: LEPHYs, rxPHYs: LEPHYs) {
            self.allPHYs = allPHYs
            self.txPHYs = txPHYs
            self.rxPHYs = rxPHYs
        }
    }

    /// HCI_LE_Set_PHY (Core 5.4, Vol 4, Part E, §7.8.49): asks to change one connection's
    /// PHYs. Answered by Command Status, then LE PHY Update Complete.
    public struct LESetPHY: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetPHY``.
        public static let opcode = Opcode.leSetPHY
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        /// PHY_Options: the coding the host prefers when transmitting on LE Coded.
        public enum CodedPHYOptions: UInt16, Hashable, Sendable, CaseIterable {
            /// No preference.
            case noPreference = 0x0000
            /// Prefer S=2 coding.
            case s2 = 0x0001
            /// Prefer S=8 coding.
            case s8 = 0x0002
        }

        /// The connection to change.
        public var connectionHandle: UInt16
        /// Directions without a preference.
        public var allPHYs: AllPHYsPreference
        /// TX_PHYs: transmitter PHYs the host prefers.
        public var txPHYs: LEPHYs
        /// RX_PHYs: receiver PHYs the host prefers.
        public var rxPHYs: LEPHYs
        /// PHY_Options.
        public var phyOptions: CodedPHYOptions

        /// The command with every parameter.
        public init(
            connectionHandle: UInt16, allPHYs: AllPHYsPreference = [], txPHYs: LEPHYs, rxPHYs: LEPHYs,
            phyOptions: CodedPHYOptions = .noPreference
        ) {
            self.connectionHandle = connectionHandle
            self.allPHYs = allPHYs
            self.txPHYs = txPHYs
            self.rxPHYs = rxPHYs
            self.phyOptions = phyOptions
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readConnectionHandle("HCI.LESetPHY.connectionHandle")
            allPHYs = AllPHYsPreference(rawValue: try reader.readUInt8("HCI.LESetPHY.allPHYs"))
            txPHYs = LEPHYs(rawValue: try reader.readUInt8("HCI.LESetPHY.txPHYs"))
            rxPHYs = LEPHYs(rawValue: try reader.readUInt8("HCI.LESetPHY.rxPHYs"))
            let options = try reader.readUInt16("HCI.LESetPHY.phyOptions")
            guard let phyOptions = CodedPHYOptions(rawValue: options) else {
                throw WireError(field: "HCI.LESetPHY.phyOptions", reason: .invalidValue(UInt64(options)))
            }
            self.phyOptions = phyOptions
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            writer.write(allPHYs.rawValue)
            writer.write(txPHYs.rawValue)
            writer.write(rxPHYs.rawValue)
            writer.write(phyOptions.rawValue)
        }
    }
}
