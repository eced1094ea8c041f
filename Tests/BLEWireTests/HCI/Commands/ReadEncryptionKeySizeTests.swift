import BLEWire
import Testing

/// HCI_Read_Encryption_Key_Size (Core 5.4, Vol 4, Part E, §7.5.7) byte for byte.
@Suite("HCI Read Encryption Key Size")
struct ReadEncryptionKeySizeTests {
    @Test("The command is opcode 0x1408 with the handle; the answer carries status, handle and key size")
    func bytes() throws {
        let packet = try HCI.CommandPacket(HCI.ReadEncryptionKeySize(connectionHandle: 0x0040))
        #expect(packet.encoded() == [0x08, 0x14, 0x02, 0x40, 0x00])
        #expect(HCI.Opcode.readEncryptionKeySize.name == "Read Encryption Key Size")
        let decoded = try HCI.decodeCommand(HCI.CommandPacket(decoding: [0x08, 0x14, 0x02, 0x41, 0x00]))
        #expect((decoded as? HCI.ReadEncryptionKeySize)?.connectionHandle == 0x0041)
        let answer = try HCI.ReadEncryptionKeySize.ReturnParameters(decoding: [0x00, 0x40, 0x00, 0x10])
        #expect(answer == HCI.ReadEncryptionKeySize.ReturnParameters(status: .success, connectionHandle: 0x0040, keySize: 16))
        #expect(throws: WireError.self) { try HCI.ReadEncryptionKeySize.ReturnParameters(decoding: [0x00, 0x40, 0x00]) }
        var commands = HCI.SupportedCommands(words: (0, 0, 0, 0))
        commands.insert(.readEncryptionKeySize)
        #expect(commands.contains(.readEncryptionKeySize))
    }
}
