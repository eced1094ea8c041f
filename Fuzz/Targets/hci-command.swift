// Fuzz target: HCI command packets through the opcode table of typed commands
// (Core 5.4, Vol 4, Part E, §5.4.1 and §7), and their return parameters.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCICommand(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let packet = try? HCI.CommandPacket(decoding: bytes) else { return 0 }
    if let command = try? HCI.decodeCommand(packet) {
        let parameters = command.encoded()
        let again = HCI.CommandPacket(opcode: packet.opcode, parameters: parameters[...])
        guard let decodedAgain = try? HCI.decodeCommand(again), decodedAgain.encoded() == parameters else {
            fatalError("command round trip changed \(Hex.encode(bytes))")
        }
    }
    // The same octets read as the return parameters of that opcode.
    if let returned = try? HCI.decodeReturnParameters(for: packet.opcode, packet.parameters) {
        _ = returned.encoded()
    }
    return 0
}
