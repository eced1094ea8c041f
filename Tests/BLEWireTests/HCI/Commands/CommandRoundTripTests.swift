import BLEWire
import Testing

@Suite("HCI commands: generated round trips, malformed input, decode table")
struct CommandRoundTripTests {
    /// Encodes `command`, decodes it back both directly and through a command packet and
    /// `HCI.decodeCommand`, and checks both equal the original.
    private static func roundTrip<Command: HCICommand>(_ command: Command) throws {
        let bytes = command.encoded()
        #expect(try Command(decoding: bytes) == command, "\(Command.self)")
        let packet = try HCI.CommandPacket(command)
        let framed = packet.encoded()
        let decodedPacket = try HCI.CommandPacket(decoding: framed)
        #expect(decodedPacket.opcode == Command.opcode)
        let decoded = try HCI.decodeCommand(decodedPacket)
        #expect(decoded as? Command == command, "\(Command.self) through decodeCommand")
    }

    private static func roundTrip<Value: WireCodable & Equatable>(_ value: Value, opcode: HCI.Opcode) throws {
        let bytes = value.encoded()
        #expect(try Value(decoding: bytes) == value, "\(Value.self)")
        let logged = try HCI.decodeReturnParameters(for: opcode, bytes[...])
        #expect(logged as? Value == value, "\(Value.self) through decodeReturnParameters(\(opcode))")
    }

    private static func roundTripAny(_ value: any WireCodable, opcode: HCI.Opcode) throws {
        func open<Value: WireCodable>(_ value: Value) throws {
            guard let equatable = value as? any (WireCodable & Equatable) else {
                Issue.record("\(Value.self) is not Equatable")
                return
            }
            try roundTripEquatable(equatable, opcode: opcode)
        }
        try open(value)
    }

    private static func roundTripEquatable(_ value: any WireCodable & Equatable, opcode: HCI.Opcode) throws {
        try roundTrip(value, opcode: opcode)
    }

    /// Malformed-input check for one command: every mutation throws or decodes; a non-empty
    /// encoding must reject its truncations.
    private static func malformed<Command: HCICommand>(_ command: Command) {
        let bytes = command.encoded()
        let rejected = MalformedInput.check(bytes, as: Command.self)
        #expect(rejected >= max(bytes.count, 1), "\(Command.self) must reject every truncation and the extensions")
        if !bytes.isEmpty {
            #expect(throws: WireError.self, "\(Command.self)") { try Command(decoding: Array(bytes.dropLast())) }
        }
        #expect(throws: WireError.self, "\(Command.self)") { try Command(decoding: bytes + [0x00]) }
    }

    private static func malformedAny(_ value: any WireCodable) {
        func open<Value: WireCodable>(_ value: Value) {
            let bytes = value.encoded()
            let rejected = MalformedInput.check(bytes, as: Value.self)
            #expect(rejected >= bytes.count, "\(Value.self)")
            #expect(throws: WireError.self, "\(Value.self)") { try Value(decoding: Array(bytes.dropLast())) }
        }
        open(value)
    }

    @Test("Every command round-trips through its encoder, a command packet and decodeCommand")
    func commandsRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        for _ in 0 ..< 300 {
            for command in CommandGenerators.commands(using: &generator) {
                try Self.roundTrip(command)
            }
        }
    }

    @Test("The generators and the decode table cover every command of the slice")
    func coverage() {
        var generator = SeededGenerator(seed: 1)
        let generated = CommandGenerators.commands(using: &generator).map { type(of: $0).opcode }
        let table = HCI.commandTypes.map { $0.opcode }
        #expect(table.count == 90)
        #expect(Set(table).count == table.count, "opcodes are unique")
        #expect(Set(generated) == Set(table))
        for opcode in table {
            #expect(opcode.name != nil, "\(opcode) has a name")
            #expect(HCI.commandType(for: opcode) != nil)
        }
    }

    @Test("Every return-parameters type round-trips, also through decodeReturnParameters")
    func returnParametersRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xBADC0DE)
        for _ in 0 ..< 300 {
            for (opcode, value) in CommandGenerators.returnParameters(using: &generator) {
                try Self.roundTripAny(value, opcode: opcode)
            }
        }
    }

    @Test("Every command whose return parameters carry more than a status has a generated sample")
    func returnParametersCoverage() {
        var generator = SeededGenerator(seed: 2)
        let sampled = Set(CommandGenerators.returnParameters(using: &generator).map(\.0))
        func needsSample<Command: HCICommand>(_ type: Command.Type) -> Bool {
            Command.ReturnParameters.self != HCI.StatusReturnParameters.self
        }
        for type in HCI.commandTypes where needsSample(type) {
            #expect(sampled.contains(type.opcode), "\(type) return parameters")
        }
    }

    @Test("Malformed command parameters throw a WireError and never trap")
    func commandsMalformed() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0 ..< 2 {
            for command in CommandGenerators.commands(using: &generator) {
                Self.malformed(command)
            }
        }
    }

    @Test("Malformed return parameters throw a WireError and never trap")
    func returnParametersMalformed() {
        var generator = SeededGenerator(seed: 8)
        for (_, value) in CommandGenerators.returnParameters(using: &generator) {
            Self.malformedAny(value)
        }
    }

    @Test("An unknown opcode is rejected so a controller can answer Unknown HCI Command")
    func unknownOpcode() {
        for raw: UInt16 in [0xFC01, 0x2004, 0x0000, 0x2087] {
            let packet = HCI.CommandPacket(opcode: HCI.Opcode(rawValue: raw))
            #expect(throws: WireError(field: "HCI.CommandPacket.opcode", reason: .unknownCode(UInt64(raw)))) {
                try HCI.decodeCommand(packet)
            }
            #expect(HCI.Opcode(rawValue: raw).name == nil)
        }
    }

    @Test("Parameters of the wrong length for the opcode are rejected by decodeCommand")
    func wrongLengthParameters() {
        let resetWithJunk = HCI.CommandPacket(opcode: .reset, parameters: [0x00])
        #expect(throws: WireError.self) { try HCI.decodeCommand(resetWithJunk) }
        let shortDisconnect = HCI.CommandPacket(opcode: .disconnect, parameters: [0x01, 0x00])
        #expect(throws: WireError.self) { try HCI.decodeCommand(shortDisconnect) }
    }
}
