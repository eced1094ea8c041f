import BLEHost
import BLEWire
import Testing

/// The SMP SweynTooth attacks (Garbelini et al., USENIX ATC 2020) against our pairing core
/// in both roles. Each ends the way Core 5.4, Vol 3, Part H says: Pairing Failed with the
/// reason of §3.5.5, or no key at all, and never a key the attacker chose. A failure is
/// what the host logs (`pairing failed: …` on `ble.smp`) and reports to its keeper.
@Suite("SweynTooth: SMP attacks against the pairing core")
struct SweynToothSMPTests {
    static let initiatorAddress = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random)
    static let responderAddress = BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public)

    func responder(_ configuration: SMPConfiguration = SMPConfiguration()) -> SMPPairing {
        SMPPairing(role: .responder, configuration: configuration, localAddress: Self.responderAddress,
                   peerAddress: Self.initiatorAddress, random: ScriptedRandom(seed: 2))
    }

    func initiator(_ configuration: SMPConfiguration = SMPConfiguration()) -> SMPPairing {
        SMPPairing(role: .initiator, configuration: configuration, localAddress: Self.initiatorAddress,
                   peerAddress: Self.responderAddress, random: ScriptedRandom(seed: 1))
    }

    /// Pairing Request / Response octets with `keySize` as Maximum Encryption Key Size:
    /// NoInputNoOutput, no OOB, bonding with Secure Connections, no keys distributed.
    func features(_ code: UInt8, keySize: UInt8) -> [UInt8] { [code, 0x03, 0x00, 0x09, keySize, 0x00, 0x00] }

    @Test("Key Size Overflow (CVE-2019-19196): a Maximum Encryption Key Size outside 7...16 fails with Invalid Parameters, as responder",
          arguments: [UInt8(0), 6, 17, 253, 255])
    func keySizeOverflowAsResponder(keySize: UInt8) {
        var core = responder()
        #expect(core.receive(features(0x01, keySize: keySize), at: 0) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
        #expect(core.pendingLTK == nil && core.isFinished)
    }

    @Test("Key Size Overflow (CVE-2019-19196): a Pairing Response with a key size outside 7...16 fails with Invalid Parameters, as initiator",
          arguments: [UInt8(0), 17, 253])
    func keySizeOverflowAsInitiator(keySize: UInt8) {
        var core = initiator()
        #expect(core.start(at: 0).count == 1)
        #expect(core.receive(features(0x02, keySize: keySize), at: 1) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
    }

    @Test("Zero LTK Installation (CVE-2019-19194): after the feature exchange there is no key, so an early LL_ENC_REQ finds none")
    func zeroLTKInstallation() {
        var core = responder()
        let answered = core.receive(features(0x01, keySize: 16), at: 0)
        #expect(answered.count == 1)
        // The peer now skips pairing and starts encryption: the host asks for the pairing
        // key (Host.pairingKey(for:)) and finds none, so it sends the Negative Reply and our
        // controller rejects with PIN or Key Missing (Vol 6, Part B, §5.1.3.1).
        #expect(core.pendingLTK == nil)
        #expect(!answered.contains { if case .ltkReady = $0 { true } else { false } })
        // An honest pairing gives a key, and never the zero key.
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        run.run()
        #expect(run.responderKey != nil && run.responderKey != 0)
        #expect(run.result(.responder)?.secureConnectionsLongTermKey.map { $0 != 0 } == true)
    }

    @Test("DHCheck Skipping (CVE-2020-13593): without the initiator's DHKey Check the responder has no LTK, and fails at 30 s")
    func dhKeyCheckSkipped() {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        var queue: [(toResponder: Bool, pdu: [UInt8])] = []
        var responderOutputs: [SMPOutput] = []
        var now: HostTime = 0
        func sends(_ outputs: [SMPOutput]) -> [[UInt8]] { outputs.compactMap { if case let .send(pdu) = $0 { pdu } else { nil } } }
        queue += sends(run.initiator.start(at: now)).map { (true, $0) }
        var skipped = 0
        while !queue.isEmpty {
            let (toResponder, pdu) = queue.removeFirst()
            now += 1_000
            if toResponder {
                if pdu.first == SMP.Code.pairingDHKeyCheck.rawValue {
                    skipped += 1  // the attacker leaves it out and goes on to LL_ENC_REQ
                    continue
                }
                let produced = run.responder.receive(pdu, at: now)
                responderOutputs += produced
                queue += sends(produced).map { (false, $0) }
            } else {
                queue += sends(run.initiator.receive(pdu, at: now)).map { (true, $0) }
            }
        }
        #expect(skipped == 1)
        #expect(run.responder.pendingLTK == nil)
        #expect(!responderOutputs.contains { if case .ltkReady = $0 { true } else { false } })
        #expect(run.responder.isInProgress)
        // §3.4: the SMP timer ends the pairing, with no key.
        #expect(run.responder.tick(now: now + SMPPairing.timeout) == [.failed(.timedOut)])
        #expect(run.responder.pendingLTK == nil)
    }

    @Test("Public Key Crash (CVE-2019-17520): a Pairing Public Key before any Pairing Request fails with Unspecified Reason")
    func publicKeyFirst() {
        var core = responder()
        let key = [SMP.Code.pairingPublicKey.rawValue] + [UInt8](repeating: 0x5A, count: 64)
        #expect(core.receive(key, at: 0) == [.send([0x05, 0x08]), .failed(.sent(.unspecifiedReason))])
    }

    @Test("Public Key Crash (CVE-2019-17520): a Pairing Public Key in LE legacy pairing fails the pairing, no key")
    func publicKeyInLegacyPairing() {
        var core = responder()
        // Bonding without the SC bit: legacy pairing, which has no public keys.
        #expect(core.receive([0x01, 0x03, 0x00, 0x01, 0x10, 0x00, 0x00], at: 0).count == 1)
        let key = [SMP.Code.pairingPublicKey.rawValue] + [UInt8](repeating: 0x5A, count: 64)
        let outputs = core.receive(key, at: 1)
        #expect(outputs.first.map { if case let .send(pdu) = $0 { pdu.first == 0x05 } else { false } } == true)
        #expect(outputs.last.map { if case .failed = $0 { true } else { false } } == true)
        #expect(core.pendingLTK == nil)
    }

    @Test("Invalid public key: the point (0, 0) fails with Invalid Parameters, as responder and as initiator")
    func invalidPublicKey() {
        let zero = [SMP.Code.pairingPublicKey.rawValue] + [UInt8](repeating: 0, count: 64)
        var core = responder()
        #expect(core.receive(features(0x01, keySize: 16), at: 0).count == 1)
        #expect(core.receive(zero, at: 1) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
        var ours = initiator()
        _ = ours.start(at: 0)
        let afterResponse = ours.receive(features(0x02, keySize: 16), at: 1)
        #expect(afterResponse.contains { if case let .send(pdu) = $0 { pdu.first == SMP.Code.pairingPublicKey.rawValue } else { false } })
        #expect(ours.receive(zero, at: 2) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
    }
}
