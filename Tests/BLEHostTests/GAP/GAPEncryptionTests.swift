import BLEHost
import BLEWire
import Testing

/// GAPCore's encryption procedures fed by hand (Core 5.4, Vol 4, Part E, §7.7.8, §7.7.39,
/// §7.7.65.5, §7.8.24–7.8.26): the paths our controller does not take, byte-exact commands.
@Suite("GAP encryption without a controller")
struct GAPEncryptionTests {
    static let peer = BluetoothAddress(0xC0_11_22_33_44_55)

    /// A core with link 0x0040 up in `role`.
    static func core(_ role: HCI.Role, readsKeySize: Bool = true) -> GAPCore {
        var gap = GAPCore()
        var commands = HCI.SupportedCommands(words: (0, 0, 0, 0))
        if readsKeySize { commands.insert(.readEncryptionKeySize) }
        _ = gap.handle(.ready(ControllerInfo(supportedCommands: commands)), at: 0)
        _ = gap.handle(.event(.leMeta(.connectionComplete(HCI.LEConnectionComplete(
            status: .success, connectionHandle: 0x0040, role: role, peerAddressType: .public, peerAddress: peer,
            connectionInterval: 6, peripheralLatency: 0, supervisionTimeout: 200, centralClockAccuracy: .ppm500)))), at: 0)
        return gap
    }

    static func submitted(_ outputs: [GAPOutput]) -> [(any HCICommand, HCICommandToken)] {
        outputs.compactMap { if case let .submit(command, token) = $0 { (command, token) } else { nil } }
    }

    static func complete(_ opcode: HCI.Opcode, _ parameters: [UInt8]) -> Result<HCI.Event, HCIDriverError> {
        .success(.commandComplete(HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: parameters[...])))
    }

    @Test("The central sends LE Enable Encryption with the key; v1 Encryption Change asks the key size, which sets the link's security")
    func centralEncrypts() throws {
        var gap = Self.core(.central)
        let outputs = try gap.startEncryption(
            0x0040, key: GAPEncryptionKey(longTermKey: 0x0102, ediv: 0x1234, rand: 0x5678, level: .authenticated), at: 1)
        let (command, token) = try #require(Self.submitted(outputs).first)
        let enable = try #require(command as? HCI.LEEnableEncryption)
        #expect(enable == HCI.LEEnableEncryption(connectionHandle: 0x0040, randomNumber: 0x5678, encryptedDiversifier: 0x1234, longTermKey: 0x0102))
        #expect(throws: GAPError.encryptionInProgress(handle: 0x0040)) {
            try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 1)
        }
        _ = gap.handle(.commandCompleted(token, .success(.commandStatus(HCI.CommandStatus(
            status: .success, numHCICommandPackets: 1, opcode: HCI.LEEnableEncryption.opcode)))), at: 2)
        let changed = gap.handle(.event(.encryptionChange(HCI.EncryptionChange(
            status: .success, connectionHandle: 0x0040, encryptionEnabled: .on))), at: 3)
        let (read, readToken) = try #require(Self.submitted(changed).first)
        #expect((read as? HCI.ReadEncryptionKeySize)?.connectionHandle == 0x0040)
        #expect(gap.linkSecurity(0x0040) == LinkSecurity(level: .none), "not reported before the key size is known")
        #expect(gap.isAwaitingKeySize(0x0040), "the host holds ATT and SMP meanwhile")
        let answer = HCI.ReadEncryptionKeySize.ReturnParameters(status: .success, connectionHandle: 0x0040, keySize: 7)
        let done = gap.handle(.commandCompleted(readToken, Self.complete(.readEncryptionKeySize, answer.encoded())), at: 4)
        #expect(GAPCoreUnitTests.events(done) == [.encryptionChanged(handle: 0x0040, LinkEncryption(level: .authenticated, keySize: 7))])
        #expect(gap.linkSecurity(0x0040) == LinkSecurity(level: .authenticated, keySize: 7, hasKey: true))
        #expect(!gap.isAwaitingKeySize(0x0040))
    }

    @Test("Encryption Change v2 carries the key size; no Read Encryption Key Size is sent")
    func changeV2() throws {
        var gap = Self.core(.central)
        _ = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .authenticatedSecureConnections), at: 1)
        let outputs = gap.handle(.event(.encryptionChangeV2(HCI.EncryptionChangeV2(
            status: .success, connectionHandle: 0x0040, encryptionEnabled: .on, encryptionKeySize: 12))), at: 2)
        #expect(Self.submitted(outputs).isEmpty)
        #expect(GAPCoreUnitTests.events(outputs) == [
            .encryptionChanged(handle: 0x0040, LinkEncryption(level: .authenticatedSecureConnections, keySize: 12))])
    }

    @Test("A controller without Read Encryption Key Size gets the 16-octet link-layer key size")
    func assumedKeySize() throws {
        var gap = Self.core(.central, readsKeySize: false)
        _ = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 1)
        let outputs = gap.handle(.event(.encryptionChange(HCI.EncryptionChange(
            status: .success, connectionHandle: 0x0040, encryptionEnabled: .on))), at: 2)
        #expect(GAPCoreUnitTests.events(outputs) == [.encryptionChanged(handle: 0x0040, LinkEncryption(level: .unauthenticated, keySize: 16))])
        // Bumble's controller reports a refresh as a second Encryption Change.
        _ = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 2, level: .authenticated), at: 3)
        let again = gap.handle(.event(.encryptionChange(HCI.EncryptionChange(
            status: .success, connectionHandle: 0x0040, encryptionEnabled: .on))), at: 4)
        #expect(GAPCoreUnitTests.events(again) == [.encryptionKeyRefreshed(handle: 0x0040, LinkEncryption(level: .authenticated, keySize: 16))])
    }

    @Test("A refused LE Enable Encryption and a failed Encryption Change report the status and leave the link unencrypted")
    func failures() throws {
        var gap = Self.core(.central)
        let outputs = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 1)
        let (_, token) = try #require(Self.submitted(outputs).first)
        let refused = gap.handle(.commandCompleted(token, .success(.commandStatus(HCI.CommandStatus(
            status: .commandDisallowed, numHCICommandPackets: 1, opcode: HCI.LEEnableEncryption.opcode)))), at: 2)
        #expect(GAPCoreUnitTests.events(refused) == [.encryptionFailed(handle: 0x0040, .controller(.commandDisallowed))])
        _ = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 3)
        let missing = gap.handle(.event(.encryptionChange(HCI.EncryptionChange(
            status: .pinOrKeyMissing, connectionHandle: 0x0040, encryptionEnabled: .off))), at: 4)
        #expect(GAPCoreUnitTests.events(missing) == [.encryptionFailed(handle: 0x0040, .controller(.pinOrKeyMissing))])
        #expect(gap.linkSecurity(0x0040) == .unencrypted)
        #expect(throws: GAPError.notCentral(handle: 0x0040)) {
            var peripheral = Self.core(.peripheral)
            _ = try peripheral.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 0)
        }
    }

    @Test("The peripheral reports the LTK request with the peer and answers with Reply or Negative Reply")
    func peripheralReplies() throws {
        var gap = Self.core(.peripheral)
        let request = gap.handle(.event(.leMeta(.longTermKeyRequest(HCI.LELongTermKeyRequest(
            connectionHandle: 0x0040, randomNumber: 0xAABB, encryptedDiversifier: 0x77)))), at: 1)
        #expect(GAPCoreUnitTests.events(request) == [
            .longTermKeyRequested(LongTermKeyRequest(handle: 0x0040, peer: Self.peer, ediv: 0x77, rand: 0xAABB))])
        let negative = try gap.replyLongTermKey(0x0040, key: nil, at: 2)
        #expect((Self.submitted(negative).first?.0 as? HCI.LELongTermKeyRequestNegativeReply)?.connectionHandle == 0x0040)
        let reply = try gap.replyLongTermKey(0x0040, key: (longTermKey: 0x99, level: .authenticated), at: 3)
        #expect(Self.submitted(reply).first?.0 as? HCI.LELongTermKeyRequestReply == HCI.LELongTermKeyRequestReply(
            connectionHandle: 0x0040, longTermKey: 0x99))
        // A key refresh completes with the level of the key just given.
        let refreshed = gap.handle(.event(.encryptionKeyRefreshComplete(HCI.EncryptionKeyRefreshComplete(
            status: .success, connectionHandle: 0x0040))), at: 4)
        #expect((Self.submitted(refreshed).first?.0 as? HCI.ReadEncryptionKeySize) != nil)
        #expect(gap.linkSecurity(0x0040).hasKey == false)
        gap.setHasKey(0x0040, true)
        #expect(gap.linkSecurity(0x0040) == LinkSecurity(level: .none, keySize: 0, hasKey: true))
    }

    @Test("A lost link forgets its encryption")
    func linkLostForgets() throws {
        var gap = Self.core(.central, readsKeySize: false)
        _ = try gap.startEncryption(0x0040, key: GAPEncryptionKey(longTermKey: 1, level: .unauthenticated), at: 1)
        _ = gap.handle(.event(.encryptionChange(HCI.EncryptionChange(status: .success, connectionHandle: 0x0040, encryptionEnabled: .on))), at: 2)
        #expect(gap.linkSecurity(0x0040).isEncrypted)
        _ = gap.handle(.linkLost(handle: 0x0040, reason: .connectionTimeout), at: 3)
        #expect(gap.linkSecurity(0x0040) == .unencrypted)
    }
}
