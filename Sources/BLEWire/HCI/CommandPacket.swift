extension HCI {
    /// An HCI command packet without its H4 type octet: opcode, parameter total length and
    /// parameters (Core 5.4, Vol 4, Part E, §5.4.1).
    ///
    /// This is the untyped form a transport or a controller sees first; typed commands
    /// come from ``decode(as:)``.
    public struct CommandPacket: WireCodable, Hashable {
        /// The largest parameter block the one-octet length field can describe.
        public static let maximumParameterLength = 255

        /// The command's opcode.
        public var opcode: Opcode
        /// The command parameters, at most 255 octets.
        public var parameters: ArraySlice<UInt8>

        /// A packet carrying `parameters` for `opcode`.
        public init(opcode: Opcode, parameters: ArraySlice<UInt8> = []) {
            self.opcode = opcode
            self.parameters = parameters
        }

        /// The packet for a typed command; throws if its parameters exceed 255 octets.
        public init<Command: HCICommand>(_ command: Command) throws(WireError) {
            let parameters = command.encoded()
            guard parameters.count <= CommandPacket.maximumParameterLength else {
                throw WireError(
                    field: "HCI.CommandPacket.parameterTotalLength",
                    reason: .constraint("\(parameters.count) octets of parameters exceed 255")
                )
            }
            self.init(opcode: Command.opcode, parameters: parameters[...])
        }

        /// The typed command; throws if the opcode is not `Command`'s or its parameters
        /// are malformed.
        public func decode<Command: HCICommand>(as type: Command.Type) throws(WireError) -> Command {
            guard opcode == Command.opcode else {
                throw WireError(field: "HCI.CommandPacket.opcode", reason: .invalidValue(UInt64(opcode.rawValue)))
            }
            return try Command(decoding: parameters)
        }

        /// Header plus parameters.
        public var encodedCountEstimate: Int { 3 + parameters.count }

        public init(from reader: inout ByteReader) throws(WireError) {
            opcode = Opcode(rawValue: try reader.readUInt16("HCI.CommandPacket.opcode"))
            let length = Int(try reader.readUInt8("HCI.CommandPacket.parameterTotalLength"))
            guard reader.remainingCount >= length else {
                throw WireError(
                    field: "HCI.CommandPacket.parameters",
                    reason: .lengthMismatch(declared: length, actual: reader.remainingCount)
                )
            }
            parameters = try reader.readBytes(length, "HCI.CommandPacket.parameters")
        }

        /// Appends opcode, length and parameters. A parameter block over 255 octets (only
        /// possible when built by hand) is cut at 255 so the length field stays true;
        /// ``init(_:)`` refuses such blocks up front.
        public func encode(to writer: inout ByteWriter) {
            writer.write(opcode.rawValue)
            let length = min(parameters.count, CommandPacket.maximumParameterLength)
            writer.write(UInt8(length))
            writer.write(contentsOf: parameters.prefix(length))
        }
    }
}
