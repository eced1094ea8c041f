import BLECrypto
import BLEHost
import BLEWire
import Testing

@Suite("SMP pairing failures")
struct SMPFailureTests {
    /// Both sides ended with `reason`, one sending and one receiving it, and no key exists.
    func expectFailed(_ run: BackToBack, _ reason: SMP.PairingFailedReason, sentBy sender: BackToBack.Side,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let receiver: BackToBack.Side = sender == .initiator ? .responder : .initiator
        #expect(run.failure(sender) == .sent(reason), sourceLocation: sourceLocation)
        #expect(run.failure(receiver) == .received(reason), sourceLocation: sourceLocation)
        #expect(run.sent(sender).last == [0x05, reason.rawValue], sourceLocation: sourceLocation)
        #expect(run.result(.initiator) == nil && run.result(.responder) == nil, sourceLocation: sourceLocation)
        #expect(run.responder.pendingLTK == nil, sourceLocation: sourceLocation)
        #expect(run.initiator.isFinished && run.responder.isFinished, sourceLocation: sourceLocation)
    }

    @Test("A wrong passkey fails with Confirm Value Failed on both sides", arguments: [false, true])
    func wrongPasskey(secureConnections: Bool) {
        var run = BackToBack(
            initiator: SMPFixtures.configuration(.displayOnly, initiator: true, secureConnections: secureConnections, mitm: true),
            responder: SMPFixtures.configuration(.keyboardOnly, initiator: false, secureConnections: secureConnections))
        run.typedPasskey[.responder] = 999_999
        run.run()
        expectFailed(run, .confirmValueFailed, sentBy: .responder)
        #expect(run.initiatorKey == nil)
    }

    @Test("A wrong passkey typed on the initiator fails with Confirm Value Failed", arguments: [false, true])
    func wrongPasskeyOnInitiator(secureConnections: Bool) {
        var run = BackToBack(
            initiator: SMPFixtures.configuration(.keyboardOnly, initiator: true, secureConnections: secureConnections, mitm: true),
            responder: SMPFixtures.configuration(.displayOnly, initiator: false, secureConnections: secureConnections))
        run.typedPasskey[.initiator] = 1
        run.run()
        #expect(run.failure(.initiator)?.reason == .confirmValueFailed)
        #expect(run.failure(.responder)?.reason == .confirmValueFailed)
        #expect(run.result(.initiator) == nil && run.result(.responder) == nil)
    }

    @Test("A cancelled passkey fails with Passkey Entry Failed")
    func cancelledPasskey() {
        var run = BackToBack(
            initiator: SMPFixtures.configuration(.displayOnly, initiator: true, secureConnections: true, mitm: true),
            responder: SMPFixtures.configuration(.keyboardOnly, initiator: false, secureConnections: true))
        run.cancels = [.responder]
        run.run()
        expectFailed(run, .passkeyEntryFailed, sentBy: .responder)
    }

    @Test("A rejected number fails with Numeric Comparison Failed", arguments: [BackToBack.Side.initiator, .responder])
    func numericComparisonRejected(by side: BackToBack.Side) {
        var run = BackToBack(
            initiator: SMPFixtures.configuration(.displayYesNo, initiator: true, secureConnections: true, mitm: true),
            responder: SMPFixtures.configuration(.displayYesNo, initiator: false, secureConnections: true, mitm: true))
        run.accepts[side] = false
        run.run()
        expectFailed(run, .numericComparisonFailed, sentBy: side)
    }

    @Test("Secure Connections Only refuses a legacy-only peer with Authentication Requirements",
          arguments: [BackToBack.Side.initiator, .responder])
    func secureConnectionsOnly(strictSide: BackToBack.Side) {
        var strict = SMPConfiguration(secureConnectionsOnly: true)
        strict.secureConnections = true
        let legacy = SMPConfiguration(secureConnections: false)
        var run = strictSide == .initiator ? BackToBack(initiator: strict, responder: legacy)
            : BackToBack(initiator: legacy, responder: strict)
        run.run()
        expectFailed(run, .authenticationRequirements, sentBy: strictSide)
    }

    @Test("A negotiated key size below our minimum fails with Encryption Key Size")
    func keySizeTooSmall() {
        var run = BackToBack(initiator: SMPConfiguration(minimumKeySize: 16), responder: SMPConfiguration(maximumKeySize: 7))
        run.run()
        expectFailed(run, .encryptionKeySize, sentBy: .initiator)
        var other = BackToBack(initiator: SMPConfiguration(maximumKeySize: 10), responder: SMPConfiguration(minimumKeySize: 12))
        other.run()
        expectFailed(other, .encryptionKeySize, sentBy: .responder)
    }

    @Test("MITM required with no IO on the other side fails with Authentication Requirements")
    func mitmImpossible() {
        var run = BackToBack(initiator: SMPConfiguration(ioCapability: .keyboardDisplay, mitmRequired: true),
                             responder: SMPConfiguration(ioCapability: .noInputNoOutput))
        run.run()
        expectFailed(run, .authenticationRequirements, sentBy: .initiator)
    }

    @Test("A responder that is not pairable answers Pairing Not Supported")
    func notPairable() {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration(pairable: false))
        run.run()
        expectFailed(run, .pairingNotSupported, sentBy: .responder)
    }

    @Test("A peer public key not on the curve fails with Invalid Parameters, no key",
          arguments: [BackToBack.Side.initiator, .responder])
    func publicKeyOffCurve(tamperedSender: BackToBack.Side) {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        run.tamper = { side, bytes in
            guard side == tamperedSender, bytes.first == SMP.Code.pairingPublicKey.rawValue else { return bytes }
            var changed = bytes
            changed[33] ^= 0x01  // the lowest octet of Y: the point leaves the curve
            return changed
        }
        run.run()
        let receiver: BackToBack.Side = tamperedSender == .initiator ? .responder : .initiator
        expectFailed(run, .invalidParameters, sentBy: receiver)
        #expect(run.initiatorKey == nil && run.responderKey == nil)
    }

    @Test("A reflected public key (our own) is refused with Invalid Parameters")
    func reflectedPublicKey() {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        var initiatorKey: [UInt8] = []
        run.tamper = { side, bytes in
            guard bytes.first == SMP.Code.pairingPublicKey.rawValue else { return bytes }
            if side == .initiator { initiatorKey = bytes; return bytes }
            return initiatorKey
        }
        run.run()
        expectFailed(run, .invalidParameters, sentBy: .initiator)
    }

    @Test("A changed confirm value fails with Confirm Value Failed", arguments: [false, true])
    func changedConfirm(secureConnections: Bool) {
        var run = BackToBack(initiator: SMPConfiguration(secureConnections: secureConnections),
                             responder: SMPConfiguration(secureConnections: secureConnections))
        run.tamper = { side, bytes in
            guard side == .responder, bytes.first == SMP.Code.pairingConfirm.rawValue else { return bytes }
            var changed = bytes
            changed[1] ^= 0xFF
            return changed
        }
        run.run()
        expectFailed(run, .confirmValueFailed, sentBy: .initiator)
    }

    @Test("A changed DHKey check fails with DHKey Check Failed", arguments: [BackToBack.Side.initiator, .responder])
    func changedDHKeyCheck(tamperedSender: BackToBack.Side) {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        run.tamper = { side, bytes in
            guard side == tamperedSender, bytes.first == SMP.Code.pairingDHKeyCheck.rawValue else { return bytes }
            var changed = bytes
            changed[16] ^= 0x80
            return changed
        }
        run.run()
        expectFailed(run, .dhKeyCheckFailed, sentBy: tamperedSender == .initiator ? .responder : .initiator)
    }

    @Test("A Pairing Response that adds keys fails with Invalid Parameters")
    func responseAddsKeys() {
        var initiator = SMPPairing(role: .initiator, configuration: SMPConfiguration(localKeys: [], peerKeys: []),
                                   localAddress: BluetoothAddress(1), peerAddress: BluetoothAddress(2), random: ScriptedRandom(seed: 1))
        _ = initiator.start(at: 0)
        let response = SMP.PairingResponse(ioCapability: .noInputNoOutput, authenticationRequirements: [.bonding],
                                           initiatorKeyDistribution: [], responderKeyDistribution: [.identityKey])
        #expect(initiator.receive(response.encoded(), at: 1) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
    }
}

@Suite("SMP malformed and out-of-order PDUs")
struct SMPMalformedTests {
    func responder() -> SMPPairing {
        SMPPairing(role: .responder, configuration: SMPConfiguration(), localAddress: BluetoothAddress(1),
                   peerAddress: BluetoothAddress(2), random: ScriptedRandom(seed: 9))
    }

    @Test("A reserved command code fails with Command Not Supported")
    func reservedCode() {
        var core = responder()
        #expect(core.receive([0x20, 0x00], at: 0) == [.send([0x05, 0x07]), .failed(.sent(.commandNotSupported))])
        // Nothing more after a failure.
        #expect(core.receive(SMP.PairingRequest(ioCapability: .noInputNoOutput, authenticationRequirements: [],
                                                initiatorKeyDistribution: [], responderKeyDistribution: []).encoded(), at: 1).isEmpty)
    }

    @Test("A PDU of the wrong length or an empty PDU fails with Invalid Parameters")
    func wrongLength() {
        var core = responder()
        #expect(core.receive([0x01, 0x03, 0x00, 0x01, 0x10, 0x00], at: 0) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
        var empty = responder()
        #expect(empty.receive([], at: 0) == [.send([0x05, 0x0A]), .failed(.sent(.invalidParameters))])
        var reservedIO = responder()
        #expect(reservedIO.receive([0x01, 0x07, 0x00, 0x01, 0x10, 0x00, 0x00], at: 0).last == .failed(.sent(.invalidParameters)))
    }

    @Test("A command for the other role fails with Command Not Supported")
    func wrongRole() {
        var core = responder()
        let response = SMP.PairingResponse(ioCapability: .noInputNoOutput, authenticationRequirements: [],
                                           initiatorKeyDistribution: [], responderKeyDistribution: [])
        #expect(core.receive(response.encoded(), at: 0).last == .failed(.sent(.commandNotSupported)))
    }

    @Test("A PDU out of order fails with Unspecified Reason", arguments: [
        SMP.PairingRandom(randomValue: 1).encoded(), SMP.PairingConfirm(confirmValue: 1).encoded(),
        SMP.PairingDHKeyCheck(checkValue: 1).encoded(), SMP.EncryptionInformation(longTermKey: 1).encoded(),
        SMP.IdentityInformation(identityResolvingKey: 1).encoded(),
    ])
    func outOfOrder(pdu: [UInt8]) {
        var core = responder()
        #expect(core.receive(pdu, at: 0) == [.send([0x05, 0x08]), .failed(.sent(.unspecifiedReason))])
        #expect(core.pendingLTK == nil)
    }

    @Test("A Pairing Confirm before the public keys in Secure Connections is out of order")
    func confirmBeforePublicKey() {
        var core = responder()
        let request = SMP.PairingRequest(ioCapability: .noInputNoOutput, authenticationRequirements: [.bonding, .secureConnections],
                                         initiatorKeyDistribution: [], responderKeyDistribution: [])
        #expect(core.receive(request.encoded(), at: 0).count == 1)
        #expect(core.receive(SMP.PairingConfirm(confirmValue: 5).encoded(), at: 1).last == .failed(.sent(.unspecifiedReason)))
    }

    @Test("Random, truncated and reordered PDUs at every step never trap and never complete with different keys")
    func fuzz() {
        var generator = ScriptedRandom(seed: 0xF00D)
        var failedRuns = 0
        for trial in 0 ..< 300 {
            let sc = trial % 2 == 0
            let models: [(SMP.IOCapability, SMP.IOCapability)] = [(.noInputNoOutput, .noInputNoOutput),
                                                                 (.displayOnly, .keyboardOnly), (.displayYesNo, .displayYesNo)]
            let (initiatorIO, responderIO) = models[trial % 3]
            var run = BackToBack(
                initiator: SMPFixtures.configuration(initiatorIO, initiator: true, secureConnections: sc, mitm: trial % 3 != 0),
                responder: SMPFixtures.configuration(responderIO, initiator: false, secureConnections: sc),
                initiatorSeed: UInt64(trial), responderSeed: UInt64(trial) + 1000)
            let target = Int(generator.next64() % 30)
            let mode = generator.next64() % 4
            let noise = (0 ..< 80).map { _ in UInt8(truncatingIfNeeded: generator.next64()) }
            var count = 0
            var previous: [UInt8] = [0x04]
            run.tamper = { _, bytes in
                defer { count += 1; previous = bytes }
                guard count == target else { return bytes }
                switch mode {
                case 0: return Array(noise.prefix(Int(noise[0]) % 70))
                case 1: return Array(bytes.prefix(max(0, bytes.count - 1 - Int(noise[1]) % bytes.count)))
                case 2: return previous
                default: return [bytes.first ?? 0] + noise.prefix(max(0, bytes.count - 1))
                }
            }
            run.run()
            let initiatorResult = run.result(.initiator)
            let responderResult = run.result(.responder)
            if initiatorResult != nil && responderResult != nil {
                #expect(run.initiatorKey == run.responderKey)
            }
            for side in [BackToBack.Side.initiator, .responder] where run.failure(side) != nil {
                #expect(run.result(side) == nil)
            }
            if run.failure(.responder) != nil { #expect(run.responder.pendingLTK == nil) }
            if run.failure(.initiator) != nil || run.failure(.responder) != nil { failedRuns += 1 }
        }
        // Most damage is detected (the rest hit PDUs past the end of the run).
        #expect(failedRuns > 150)
    }
}

@Suite("SMP timer and repeated attempts")
struct SMPTimerTests {
    @Test("Thirty seconds without progress fail the pairing without a PDU; later PDUs are ignored")
    func timeout() {
        var core = SMPPairing(role: .initiator, configuration: SMPConfiguration(), localAddress: BluetoothAddress(1),
                              peerAddress: BluetoothAddress(2), random: ScriptedRandom(seed: 3))
        #expect(core.start(at: 1_000).count == 1)
        #expect(core.nextDeadline == 30_001_000)
        #expect(core.tick(now: 30_000_999).isEmpty)
        #expect(core.tick(now: 30_001_000) == [.failed(.timedOut)])
        #expect(core.isFinished)
        let response = SMP.PairingResponse(ioCapability: .noInputNoOutput, authenticationRequirements: [],
                                           initiatorKeyDistribution: [], responderKeyDistribution: [])
        #expect(core.receive(response.encoded(), at: 30_001_001).isEmpty)
        #expect(core.tick(now: 100_000_000).isEmpty)
    }

    @Test("Repeated attempts: refused inside a doubling interval, allowed after it, reset by success")
    func repeatedAttempts() {
        var tracker = SMPAttemptTracker(minimumInterval: 1_000, maximumInterval: 8_000)
        let peer = BluetoothAddress(0xAABB_CCDD_EEFF)
        let other = BluetoothAddress(0x1122_3344_5566)
        #expect(!tracker.isBlocked(peer, at: 0))
        tracker.recordFailure(peer, at: 0)
        #expect(tracker.isBlocked(peer, at: 999))
        #expect(!tracker.isBlocked(peer, at: 1_000))
        #expect(!tracker.isBlocked(other, at: 500))
        tracker.recordFailure(peer, at: 1_000)
        #expect(tracker.blockedUntil(peer, at: 1_500) == 3_000)
        tracker.recordFailure(peer, at: 3_000)
        #expect(tracker.blockedUntil(peer, at: 3_000) == 7_000)
        tracker.recordFailure(peer, at: 7_000)
        tracker.recordFailure(peer, at: 15_000)
        #expect(tracker.blockedUntil(peer, at: 15_000) == 23_000)  // capped at the maximum
        tracker.recordSuccess(peer)
        #expect(!tracker.isBlocked(peer, at: 15_001))
        tracker.recordFailure(peer, at: 20_000)
        #expect(tracker.blockedUntil(peer, at: 20_000) == 21_000)
        #expect(SMPAttemptTracker.refusal == [0x05, 0x09])
    }
}
