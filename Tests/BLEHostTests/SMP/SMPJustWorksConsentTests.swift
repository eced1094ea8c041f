import BLEHost
import BLEWire
import Testing

/// The user's Pair or Cancel for a Just Works pairing (`SMPConfiguration.confirmsJustWorks`),
/// as iOS asks with its pairing request alert: legacy pairing (Core 5.4, Vol 3, Part H,
/// §2.3.5.2) and Secure Connections (§2.3.5.6.2), asked on either side.
@Suite("SMP: the user's consent to Just Works")
struct SMPJustWorksConsentTests {
    /// Two devices without IO (Just Works), the `asking` sides asking their user.
    func run(secureConnections: Bool, asking: Set<BackToBack.Side>) -> BackToBack {
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: secureConnections)
        var responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: secureConnections)
        initiator.confirmsJustWorks = asking.contains(.initiator)
        responder.confirmsJustWorks = asking.contains(.responder)
        return BackToBack(initiator: initiator, responder: responder)
    }

    func asked(_ run: BackToBack, _ side: BackToBack.Side) -> Int {
        run.outputs(side).filter { $0 == .confirmPairing }.count
    }

    @Test("Pair goes on: the same keys as without asking, and each asking side asked once",
          arguments: [false, true], [[BackToBack.Side.initiator], [.responder], [.initiator, .responder]])
    func pairGoesOn(secureConnections: Bool, asking: [BackToBack.Side]) throws {
        var asked = run(secureConnections: secureConnections, asking: Set(asking))
        asked.run()
        var silent = run(secureConnections: secureConnections, asking: [])
        silent.run()
        let result = try #require(asked.result(.initiator))
        #expect(result.method == .justWorks && result.secureConnections == secureConnections)
        #expect(asked.result(.responder) != nil)
        #expect(asked.initiatorKey != nil && asked.initiatorKey == silent.initiatorKey, "the user's Pair changes no key")
        for side in [BackToBack.Side.initiator, .responder] {
            #expect(self.asked(asked, side) == (asking.contains(side) ? 1 : 0))
            #expect(self.asked(silent, side) == 0)
        }
    }

    @Test("Cancel fails with Unspecified Reason (0x08) sent by the side whose user cancelled, and no key",
          arguments: [false, true], [BackToBack.Side.initiator, .responder])
    func cancelFails(secureConnections: Bool, side: BackToBack.Side) {
        var run = run(secureConnections: secureConnections, asking: [side])
        run.accepts[side] = false
        run.run()
        SMPFailureTests().expectFailed(run, .unspecifiedReason, sentBy: side)
        #expect(run.initiatorKey == nil)
    }

    @Test("No answer: the SMP timer ends the pairing on both sides 30 s after the last PDU, sending nothing (§3.4)",
          arguments: [false, true], [BackToBack.Side.initiator, .responder])
    func noAnswerTimesOut(secureConnections: Bool, side: BackToBack.Side) throws {
        var run = run(secureConnections: secureConnections, asking: [side])
        run.ignores = [side]
        run.run()
        #expect(run.failure(.initiator) == nil && run.failure(.responder) == nil, "waiting for the user")
        let initiatorDeadline = try #require(run.initiator.nextDeadline)
        let responderDeadline = try #require(run.responder.nextDeadline)
        #expect(initiatorDeadline <= run.now + SMPPairing.timeout && responderDeadline <= run.now + SMPPairing.timeout)
        #expect(run.initiator.tick(now: initiatorDeadline - 1).isEmpty && run.responder.tick(now: responderDeadline - 1).isEmpty)
        #expect(run.initiator.tick(now: initiatorDeadline) == [.failed(.timedOut)])
        #expect(run.responder.tick(now: responderDeadline) == [.failed(.timedOut)])
        let late = max(initiatorDeadline, responderDeadline)
        // The user's answer after the timeout changes nothing.
        #expect(run.initiator.pairingConfirmed(true, at: late + 1).isEmpty && run.responder.pairingConfirmed(true, at: late + 1).isEmpty)
    }

    @Test("An answer when no consent was asked does nothing")
    func unaskedAnswer() {
        var run = run(secureConnections: true, asking: [])
        run.run()
        #expect(run.result(.initiator) != nil)
        #expect(run.initiator.pairingConfirmed(false, at: run.now).isEmpty)
    }
}
