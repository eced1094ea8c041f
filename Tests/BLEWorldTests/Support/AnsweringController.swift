import BLEController
import BLEWire

/// A test controller that answers every HCI command with a successful Command Complete
/// (or, for the opcodes in `failing`, with the given status), and never transmits. It lets
/// scenario tests drive scripted hosts without the real link layer.
struct AnsweringController: SimulatedController {
    var failing: [HCI.Opcode: HCI.StatusCode] = [:]

    mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        guard case let .hci(.command(command)) = input else { return [] }
        let status = failing[command.opcode] ?? .success
        let complete = HCI.CommandComplete(numHCICommandPackets: 1, opcode: command.opcode,
                                           returnParameters: [status.rawValue])
        guard let packet = try? HCI.EventPacket(complete) else { return [] }
        return [.hci(.event(packet))]
    }

    var nextDeadline: Microseconds? { nil }

    mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] { [] }
}

/// The commands a device's host sent, read back from the world's btsnoop capture.
func sentCommands(in snoop: [UInt8]) throws -> [HCI.CommandPacket] {
    var reader = try BTSnoop.Reader(snoop)
    var commands: [HCI.CommandPacket] = []
    while let record = try reader.next() {
        guard record.direction == .sent, case let .command(command) = try H4.Packet(decoding: record.data) else { continue }
        commands.append(command)
    }
    return commands
}

/// `0x0C03`-style names of opcodes, for readable expectations.
func opcodes(_ commands: [HCI.CommandPacket]) -> [String] { commands.map(\.opcode.description) }
