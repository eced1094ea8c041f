extension HCI {
    /// Command Complete event (Core 5.4, Vol 4, Part E, §7.7.14): a command finished and
    /// these are its return parameters; it also returns command credits.
    ///
    /// The return parameters stay raw because their layout depends on the command; use
    /// ``returnParameters(for:)`` to decode them as a typed command's `ReturnParameters`.
    public struct CommandComplete: HCIEvent {
        /// Event code 0x0E.
        public static let eventCode = EventCode.commandComplete

        /// Num_HCI_Command_Packets: how many commands the host may now send (flow control).
        public var numHCICommandPackets: UInt8
        /// The opcode of the command that completed; 0x0000 means no command, only credits.
        public var opcode: Opcode
        /// The command's return parameters, usually starting with a status octet.
        public var returnParameters: ArraySlice<UInt8>

        /// An event with every field given.
        public init(numHCICommandPackets: UInt8, opcode: Opcode, returnParameters: ArraySlice<UInt8> = []) {
            self.numHCICommandPackets = numHCICommandPackets
            self.opcode = opcode
            self.returnParameters = returnParameters
        }

        /// Whether this event only returns credits (opcode 0x0000, §7.7.14) and completes
        /// no command.
        public var isCreditsOnly: Bool { opcode.rawValue == 0x0000 }

        /// The return parameters decoded as `Command`'s; throws if this event completes a
        /// different opcode or the parameters are malformed.
        public func returnParameters<Command: HCICommand>(for command: Command.Type) throws(WireError) -> Command.ReturnParameters {
            guard opcode == Command.opcode else {
                throw WireError(field: "HCI.CommandComplete.opcode", reason: .invalidValue(UInt64(opcode.rawValue)))
            }
            return try Command.ReturnParameters(decoding: returnParameters)
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            numHCICommandPackets = try reader.readUInt8("HCI.CommandComplete.numHCICommandPackets")
            opcode = Opcode(rawValue: try reader.readUInt16("HCI.CommandComplete.opcode"))
            returnParameters = reader.readRemaining()
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(numHCICommandPackets)
            writer.write(opcode.rawValue)
            writer.write(contentsOf: returnParameters)
        }
    }

    /// Command Status event (Core 5.4, Vol 4, Part E, §7.7.15): a command was accepted (or
    /// refused) and will complete later with its own event; it also returns credits.
    public struct CommandStatus: HCIEvent {
        /// Event code 0x0F.
        public static let eventCode = EventCode.commandStatus

        /// Success if the command is now pending, otherwise why it was refused.
        public var status: StatusCode
        /// Num_HCI_Command_Packets: how many commands the host may now send.
        public var numHCICommandPackets: UInt8
        /// The opcode of the command; 0x0000 means no command, only credits.
        public var opcode: Opcode

        /// An event with every field given.
        public init(status: StatusCode, numHCICommandPackets: UInt8, opcode: Opcode) {
            self.status = status
            self.numHCICommandPackets = numHCICommandPackets
            self.opcode = opcode
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.CommandStatus.status")
            numHCICommandPackets = try reader.readUInt8("HCI.CommandStatus.numHCICommandPackets")
            opcode = Opcode(rawValue: try reader.readUInt16("HCI.CommandStatus.opcode"))
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(numHCICommandPackets)
            writer.write(opcode.rawValue)
        }
    }
}
