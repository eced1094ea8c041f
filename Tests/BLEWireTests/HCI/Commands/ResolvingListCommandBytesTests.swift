import BLEWire
import Testing

/// The resolving list commands byte for byte from their field layouts (Core 5.4, Vol 4,
/// Part E, §7.8.38–§7.8.45, §7.8.77): OGF 0x08, multi-octet fields little-endian, an IRK as
/// its 16 octets least significant first (§5.2).
@Suite("HCI resolving list commands: bytes from the field layout")
struct ResolvingListCommandBytesTests {
    static let peer = BluetoothAddress(0xC1_22_33_44_55_66, kind: .random)
    static let peerIRK: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
    static let localIRK: UInt128 = 0xF0E0_D0C0_B0A0_9080_7060_5040_3020_1000

    /// The command's whole packet: opcode (LE), length, parameters; and it decodes back.
    private func packet<Command: HCICommand & Equatable>(_ command: Command) throws -> [UInt8] {
        let bytes = try HCI.CommandPacket(command).encoded()
        let decoded = try HCI.decodeCommand(HCI.CommandPacket(decoding: bytes))
        #expect(decoded as? Command == command)
        return bytes
    }

    private static let peerBytes: [UInt8] = [0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0xC1]

    @Test("LE Add Device To Resolving List is 27 20 27, the typed identity, the peer IRK and the local IRK")
    func add() throws {
        let bytes = try packet(HCI.LEAddDeviceToResolvingList(
            peerIdentityAddress: Self.peer, peerIRK: Self.peerIRK, localIRK: Self.localIRK))
        let peerIRK: [UInt8] = [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00]
        let localIRK: [UInt8] = [0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0xE0, 0xF0]
        #expect(bytes == [0x27, 0x20, 0x27] + Self.peerBytes + peerIRK + localIRK)
    }

    @Test("Remove, Read Peer and Read Local Resolvable Address carry the typed identity (opcodes 0x2028, 0x202B, 0x202C)")
    func identityCommands() throws {
        #expect(try packet(HCI.LERemoveDeviceFromResolvingList(peerIdentityAddress: Self.peer)) == [0x28, 0x20, 0x07] + Self.peerBytes)
        #expect(try packet(HCI.LEReadPeerResolvableAddress(peerIdentityAddress: Self.peer)) == [0x2B, 0x20, 0x07] + Self.peerBytes)
        #expect(try packet(HCI.LEReadLocalResolvableAddress(peerIdentityAddress: Self.peer)) == [0x2C, 0x20, 0x07] + Self.peerBytes)
    }

    @Test("Clear (0x2029) and Read Resolving List Size (0x202A) have no parameters; the size answer is status then size")
    func parameterless() throws {
        #expect(try packet(HCI.LEClearResolvingList()) == [0x29, 0x20, 0x00])
        #expect(try packet(HCI.LEReadResolvingListSize()) == [0x2A, 0x20, 0x00])
        let answer = try HCI.LEReadResolvingListSize.ReturnParameters(decoding: [0x00, 0x10])
        #expect(answer.status == .success)
        #expect(answer.resolvingListSize == 16)
    }

    @Test("Read Peer and Local Resolvable Address answers: status then the address, little-endian")
    func addressAnswers() throws {
        let bytes: [UInt8] = [0x00, 0x06, 0x05, 0x04, 0x03, 0x02, 0x41]
        let peer = try HCI.LEReadPeerResolvableAddress.ReturnParameters(decoding: bytes)
        #expect(peer.peerResolvableAddress == BluetoothAddress(0x41_02_03_04_05_06, kind: .random))
        let local = try HCI.LEReadLocalResolvableAddress.ReturnParameters(decoding: bytes)
        #expect(local.localResolvableAddress == BluetoothAddress(0x41_02_03_04_05_06, kind: .random))
        #expect(local.encoded() == bytes)
        #expect(throws: WireError.self) { try HCI.LEReadPeerResolvableAddress.ReturnParameters(decoding: [0x00, 1, 2]) }
    }

    @Test("Set Address Resolution Enable (0x202D), RPA Timeout (0x202E, seconds LE) and Privacy Mode (0x204E)")
    func settings() throws {
        #expect(try packet(HCI.LESetAddressResolutionEnable(addressResolutionEnable: true)) == [0x2D, 0x20, 0x01, 0x01])
        #expect(try packet(HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: 0x0384)) == [0x2E, 0x20, 0x02, 0x84, 0x03])
        #expect(try packet(HCI.LESetPrivacyMode(peerIdentityAddress: Self.peer, privacyMode: .device))
            == [0x4E, 0x20, 0x08] + Self.peerBytes + [0x01])
        #expect(throws: WireError.self) { try HCI.LESetAddressResolutionEnable(decoding: [0x02]) }
        #expect(throws: WireError.self) { try HCI.LESetPrivacyMode(decoding: Self.peerBytes + [0x02]) }
    }
}
