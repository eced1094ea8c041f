import BLECrypto
import BLEHost
import BLEWire
import Testing

/// One cell of the pairing matrix: {legacy, SC} × association model × {bonding, no bonding}.
struct PairingCase: CustomTestStringConvertible, Sendable {
    enum Model: CaseIterable, Sendable {
        case justWorks, passkeyInitiatorDisplays, passkeyResponderDisplays, passkeyBothEnter, numericComparison, outOfBand
    }

    var secureConnections: Bool
    var model: Model
    var bonding: Bool

    var testDescription: String {
        "\(secureConnections ? "SC" : "legacy") \(model) \(bonding ? "bonding" : "no bonding")"
    }

    static let all: [PairingCase] = [false, true].flatMap { sc in
        Model.allCases.filter { sc || $0 != .numericComparison }.flatMap { model in
            [true, false].map { PairingCase(secureConnections: sc, model: model, bonding: $0) }
        }
    }

    var expectedMethod: SMPPairingMethod {
        switch model {
        case .justWorks: return .justWorks
        case .passkeyInitiatorDisplays: return .passkeyEntry(.initiatorDisplays)
        case .passkeyResponderDisplays: return .passkeyEntry(.responderDisplays)
        case .passkeyBothEnter: return .passkeyEntry(.bothEnter)
        case .numericComparison: return .numericComparison
        case .outOfBand: return .outOfBand
        }
    }

    var expectedLevel: LinkSecurityLevel {
        model == .justWorks ? .unauthenticated : secureConnections ? .authenticatedSecureConnections : .authenticated
    }

    func pair() throws -> BackToBack {
        let (initiatorIO, responderIO): (SMP.IOCapability, SMP.IOCapability) = switch model {
        case .justWorks, .outOfBand: (.noInputNoOutput, .noInputNoOutput)
        case .passkeyInitiatorDisplays: (.displayOnly, .keyboardOnly)
        case .passkeyResponderDisplays: (.keyboardOnly, .displayOnly)
        case .passkeyBothEnter: (.keyboardOnly, .keyboardOnly)
        case .numericComparison: (.displayYesNo, .displayYesNo)
        }
        let mitm = model != .justWorks
        var initiator = SMPFixtures.configuration(initiatorIO, initiator: true, secureConnections: secureConnections,
                                                  bonding: bonding, mitm: mitm)
        var responder = SMPFixtures.configuration(responderIO, initiator: false, secureConnections: secureConnections,
                                                  bonding: bonding, mitm: mitm)
        if model == .outOfBand {
            if secureConnections {
                let initiatorPair = try BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 1, low: 0x1234))
                let responderPair = try BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 2, low: 0x5678))
                let initiatorData = try SMPOutOfBandData.local(keyPair: initiatorPair, random: 0xAAAA_0001)
                let responderData = try SMPOutOfBandData.local(keyPair: responderPair, random: 0xBBBB_0002)
                initiator.keyPair = initiatorPair
                initiator.localOutOfBand = initiatorData
                initiator.peerOutOfBand = responderData
                responder.keyPair = responderPair
                responder.localOutOfBand = responderData
                responder.peerOutOfBand = initiatorData
            } else {
                initiator.legacyOutOfBandKey = 0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100
                responder.legacyOutOfBandKey = 0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100
            }
        }
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        return run
    }
}

@Suite("SMP pairing matrix, two cores back to back")
struct SMPPairingMatrixTests {
    @Test("Both sides complete with the same key, the expected level and the distributed keys", arguments: PairingCase.all)
    func pairs(_ cell: PairingCase) throws {
        let run = try cell.pair()
        #expect(run.failure(.initiator) == nil)
        #expect(run.failure(.responder) == nil)
        let initiator = try #require(run.result(.initiator))
        let responder = try #require(run.result(.responder))
        let key = try #require(run.initiatorKey)
        #expect(run.responderKey == key)
        #expect(run.responder.pendingLTK == key)
        for result in [initiator, responder] {
            #expect(result.method == cell.expectedMethod)
            #expect(result.level == cell.expectedLevel)
            #expect(result.secureConnections == cell.secureConnections)
            #expect(result.bonded == cell.bonding)
            #expect(result.keySize == 16)
        }
        #expect(initiator.peerKeys.identity == SMPFixtures.responderIdentity)
        #expect(initiator.peerKeys.signatureKey == SMPFixtures.responderCSRK)
        #expect(responder.peerKeys.identity == SMPFixtures.initiatorIdentity)
        #expect(responder.peerKeys.signatureKey == SMPFixtures.initiatorCSRK)
        #expect(initiator.localKeys.identity == SMPFixtures.initiatorIdentity)
        if cell.secureConnections {
            #expect(initiator.secureConnectionsLongTermKey == key)
            #expect(responder.secureConnectionsLongTermKey == key)
            #expect(initiator.peerKeys.longTermKey == nil)
            #expect(responder.peerKeys.longTermKey == nil)
        } else {
            let fromResponder = try #require(initiator.peerKeys.longTermKey)
            #expect(fromResponder == responder.localKeys.longTermKey)
            #expect(responder.peerKeys.longTermKey == initiator.localKeys.longTermKey)
            #expect(responder.peerKeys.longTermKey != nil)
            #expect(fromResponder.key != key)
        }
        #expect(run.outputs(.initiator).contains(.keysDistributed(initiator.peerKeys)))
        #expect(run.initiator.nextDeadline == nil)
        #expect(run.responder.nextDeadline == nil)
    }

    @Test("Passkey Entry shows six digits on one side and asks on the other")
    func passkeyPrompts() throws {
        let run = try PairingCase(secureConnections: true, model: .passkeyResponderDisplays, bonding: true).pair()
        let shown = run.outputs(.responder).compactMap { if case let .displayPasskey(value) = $0 { value } else { nil } }
        #expect(shown.count == 1)
        #expect(shown.allSatisfy { $0 <= 999_999 })
        #expect(run.outputs(.initiator).contains(.requestPasskey))
        #expect(!run.outputs(.responder).contains(.requestPasskey))
        // 20 rounds: 20 confirms and 20 randoms from each side.
        let confirms = run.sent(.initiator).filter { $0.first == SMP.Code.pairingConfirm.rawValue }
        #expect(confirms.count == 20)
    }

    @Test("Numeric Comparison shows the same six-digit number on both sides")
    func numericComparisonValue() throws {
        let run = try PairingCase(secureConnections: true, model: .numericComparison, bonding: false).pair()
        let numbers = [BackToBack.Side.initiator, .responder].map { side in
            run.outputs(side).compactMap { if case let .confirmNumber(value) = $0 { value } else { nil } }
        }
        #expect(numbers[0].count == 1)
        #expect(numbers[0] == numbers[1])
        #expect(numbers[0].allSatisfy { $0 < 1_000_000 })
    }

    @Test("Security Request from the peripheral makes the central send Pairing Request")
    func securityRequest() throws {
        var run = BackToBack(initiator: SMPConfiguration(), responder: SMPConfiguration())
        let request = run.responder.requestSecurity(at: 0)
        #expect(request == [.send([0x0B, 0x09])])
        #expect(run.responder.nextDeadline == SMPPairing.timeout)
        guard case let .send(bytes) = request.first else { return }
        let answer = run.initiator.receive(bytes, at: 10)
        #expect(answer.count == 1)
        guard case let .send(pdu) = answer.first else { return }
        #expect(pdu.first == SMP.Code.pairingRequest.rawValue)
        // A second Security Request during pairing is ignored.
        #expect(run.initiator.receive(bytes, at: 20).isEmpty)
    }

    @Test("SC out of band works when only the initiator holds the responder's data")
    func oneSidedOutOfBand() throws {
        let responderPair = try BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 3, low: 3))
        let responderData = try SMPOutOfBandData.local(keyPair: responderPair, random: 0x1234_5678)
        var initiator = SMPFixtures.configuration(.noInputNoOutput, initiator: true, secureConnections: true)
        initiator.peerOutOfBand = responderData
        var responder = SMPFixtures.configuration(.noInputNoOutput, initiator: false, secureConnections: true)
        responder.keyPair = responderPair
        responder.localOutOfBand = responderData
        var run = BackToBack(initiator: initiator, responder: responder)
        run.run()
        #expect(run.result(.initiator)?.method == .outOfBand)
        #expect(run.result(.responder)?.level == .authenticatedSecureConnections)
        #expect(run.initiatorKey != nil && run.initiatorKey == run.responderKey)
    }

    @Test("A smaller negotiated key size masks the STK and LTK and lowers level 4 to 3")
    func smallKey() throws {
        var initiator = SMPFixtures.configuration(.keyboardDisplay, initiator: true, secureConnections: true, mitm: true)
        initiator.maximumKeySize = 10
        var run = BackToBack(initiator: initiator,
                             responder: SMPFixtures.configuration(.keyboardDisplay, initiator: false, secureConnections: true))
        run.run()
        let result = try #require(run.result(.responder))
        #expect(result.keySize == 10)
        #expect(result.level == .authenticated)
        let key = try #require(run.initiatorKey)
        #expect(key >> 80 == 0)
        #expect(key != 0)
    }
}
