import BLEController
import BLEWire
import Testing

@Suite("Link Layer connection: encryption")
struct ConnectionEncryptionTests {
    /// The LTK of the Core specification's encryption sample data (Vol 6, Part C, §1).
    static let longTermKey: UInt128 = 0x4C68_3841_39F5_74D8_36BC_F34E_9DFB_01BF
    static let random: UInt64 = 0xABCD_EF12_3456_7890
    static let ediv: UInt16 = 0x2474

    /// A pair whose peripheral host answers the LTK request with `reply`, after the central
    /// host starts encryption.
    static func encrypted(reply: UInt128?) -> ConnectionPair {
        var pair = ConnectionPair()
        pair.react = { role, output, _ in
            guard role == .peripheral, case let .event(.leMeta(.longTermKeyRequest(request))) = output else { return [] }
            #expect(request.randomNumber == random && request.encryptedDiversifier == ediv)
            return [.command(.longTermKeyReply(reply))]
        }
        pair.run(until: 30_000)
        pair.feed(.central, .command(.startEncryption(random: random, ediv: ediv, longTermKey: longTermKey)))
        pair.run(until: 200_000)
        return pair
    }

    @Test("Encryption start with a shared LTK: Encryption Change on both sides and data still byte-exact")
    func start() throws {
        var pair = Self.encrypted(reply: Self.longTermKey)
        #expect(pair.events(.central) == [.encryptionChange(.init(status: .success, connectionHandle: 0x40, encryptionEnabled: .on))])
        #expect(pair.events(.peripheral).last == .encryptionChange(.init(status: .success, connectionHandle: 0x41, encryptionEnabled: .on)))
        #expect(pair.central.isEncrypted && pair.peripheral.isEncrypted)
        // The procedure's PDUs in the order of §5.1.3.1 (the START_ENC_RSPs are encrypted, so not decoded here).
        let plainCentral = pair.controlPDUs(from: .central)
        #expect(plainCentral.first.map { if case .encryptionRequest = $0 { true } else { false } } == true)
        let plainPeripheral = pair.controlPDUs(from: .peripheral)
        #expect(plainPeripheral.count >= 2)
        #expect(plainPeripheral.first.map { if case .encryptionResponse = $0 { true } else { false } } == true)
        #expect(plainPeripheral.dropFirst().first == .startEncryptionRequest)
        // LL_START_ENC_RSP goes encrypted both ways: 1 opcode octet + 4 MIC octets.
        let encryptedControl = pair.sent.filter { $0.pdu?.llid == .control && $0.pdu?.payload.count == 5 }
        #expect(Set(encryptedControl.map(\.from)) == [.central, .peripheral])
        let marker = pair.sent.count
        let toPeripheral = patternBytes(300, seed: 6)
        let toCentral = patternBytes(120, seed: 8)
        pair.sendFromHost(.central, toPeripheral)
        pair.sendFromHost(.peripheral, toCentral)
        pair.run(until: 500_000)
        #expect(pair.receivedBytes(.peripheral) == toPeripheral)
        #expect(pair.receivedBytes(.central) == toCentral)
        // On the air every data PDU carries a MIC and no plaintext.
        let first = try #require(pair.sent[marker...].first { $0.from == .central && $0.pdu?.llid == .start }?.pdu)
        #expect(first.payload.count == 27 + 4)
        #expect(Array(first.payload.prefix(27)) != Array(toPeripheral.prefix(27)))
        #expect(!pair.central.isClosed && !pair.peripheral.isClosed)
    }

    @Test("A wrong LTK fails the MIC: both sides end the link with 0x3D")
    func wrongKey() {
        let pair = Self.encrypted(reply: Self.longTermKey ^ 1)
        #expect(pair.closeReason(.peripheral) == .connectionTerminatedMICFailure)
        #expect(pair.closeReason(.central) == .connectionTerminatedMICFailure)
        #expect(pair.events(.central).contains(.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .connectionTerminatedMICFailure))))
    }

    @Test("A negative LTK reply rejects with 0x06 PIN or Key Missing and leaves the link up, unencrypted")
    func negativeReply() {
        var pair = Self.encrypted(reply: nil)
        #expect(pair.controlPDUs(from: .peripheral).contains(.rejectExtendedIndication(rejectOpcode: 0x03, errorCode: .pinOrKeyMissing)))
        #expect(pair.events(.central) == [.encryptionChange(.init(status: .pinOrKeyMissing, connectionHandle: 0x40, encryptionEnabled: .off))])
        #expect(!pair.central.isEncrypted && !pair.central.isClosed)
        let message = patternBytes(60, seed: 1)
        pair.sendFromHost(.central, message)
        pair.run(until: 300_000)
        #expect(pair.receivedBytes(.peripheral) == message)
    }

    @Test("Restarting encryption on an encrypted link pauses, restarts and reports Encryption Key Refresh Complete")
    func keyRefresh() {
        var pair = Self.encrypted(reply: Self.longTermKey)
        pair.feed(.central, .command(.startEncryption(random: Self.random, ediv: Self.ediv, longTermKey: Self.longTermKey)))
        pair.run(until: 400_000)
        #expect(pair.events(.central).last == .encryptionKeyRefreshComplete(.init(status: .success, connectionHandle: 0x40)))
        #expect(pair.events(.peripheral).last == .encryptionKeyRefreshComplete(.init(status: .success, connectionHandle: 0x41)))
        let message = patternBytes(100, seed: 2)
        pair.sendFromHost(.peripheral, message)
        pair.run(until: 600_000)
        #expect(pair.receivedBytes(.central) == message)
        #expect(pair.central.isEncrypted && !pair.central.isClosed)
    }

    @Test("Every mutation of a valid encrypted data PDU fed to a peripheral never traps")
    func encryptedMutations() throws {
        var pair = Self.encrypted(reply: Self.longTermKey)
        pair.sendFromHost(.central, patternBytes(27, seed: 5))
        var snapshot: (LinkLayerConnection, RadioReception, Microseconds)?
        pair.beforeDelivery = { role, reception, at, connection in
            guard snapshot == nil, role == .peripheral,
                  (try? LL.DataChannelPDU(decoding: reception.transmission.pdu))?.llid == .start else { return }
            snapshot = (connection, reception, at)
        }
        pair.run(until: 400_000)
        let (peripheral, reception, at) = try #require(snapshot)
        var accepted = peripheral
        #expect(accepted.handle(.radio(reception), at: at).contains { if case .aclToHost = $0 { true } else { false } })
        let valid = reception.transmission.pdu
        var micFailures = 0
        for index in valid.indices {
            for bit in 0 ..< 8 {
                var copy = peripheral
                var air = reception.transmission
                air.pdu[index] ^= 1 << UInt8(bit)
                let outputs = copy.handle(.radio(RadioReception(transmission: air, rssi: -40)), at: at)
                if outputs.contains(where: { if case .closed(.connectionTerminatedMICFailure) = $0 { true } else { false } }) { micFailures += 1 }
            }
        }
        // Any flipped payload or MIC bit is caught by the MIC.
        #expect(micFailures >= (valid.count - 2) * 8)
    }
}
