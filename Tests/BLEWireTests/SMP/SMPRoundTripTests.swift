import BLEWire
import Testing

extension SMPPDUTests {
    static func random128(using generator: inout SeededGenerator) -> UInt128 {
        UInt128(generator.next()) << 64 | UInt128(generator.next())
    }

    /// A random valid PDU with `code`.
    static func randomPDU(_ code: SMP.Code, using generator: inout SeededGenerator) -> SMP.PDU {
        func octet() -> UInt8 { UInt8.random(in: .min ... .max, using: &generator) }
        switch code {
        case .pairingRequest, .pairingResponse:
            let io = SMP.IOCapability.allCases.randomElement(using: &generator) ?? .displayOnly
            let oob = SMP.OOBDataFlag.allCases.randomElement(using: &generator) ?? .notPresent
            let auth = SMP.AuthenticationRequirements(rawValue: octet())
            let size = octet()
            let initiator = SMP.KeyDistribution(rawValue: octet())
            let responder = SMP.KeyDistribution(rawValue: octet())
            if code == .pairingRequest {
                return .pairingRequest(SMP.PairingRequest(
                    ioCapability: io, oobDataFlag: oob, authenticationRequirements: auth, maximumEncryptionKeySize: size,
                    initiatorKeyDistribution: initiator, responderKeyDistribution: responder))
            }
            return .pairingResponse(SMP.PairingResponse(
                ioCapability: io, oobDataFlag: oob, authenticationRequirements: auth, maximumEncryptionKeySize: size,
                initiatorKeyDistribution: initiator, responderKeyDistribution: responder))
        case .pairingConfirm: return .pairingConfirm(SMP.PairingConfirm(confirmValue: random128(using: &generator)))
        case .pairingRandom: return .pairingRandom(SMP.PairingRandom(randomValue: random128(using: &generator)))
        case .pairingFailed: return .pairingFailed(SMP.PairingFailed(reason: SMP.PairingFailedReason(rawValue: octet())))
        case .encryptionInformation:
            return .encryptionInformation(SMP.EncryptionInformation(longTermKey: random128(using: &generator)))
        case .centralIdentification:
            return .centralIdentification(SMP.CentralIdentification(
                encryptedDiversifier: UInt16.random(in: .min ... .max, using: &generator), random: generator.next()))
        case .identityInformation:
            return .identityInformation(SMP.IdentityInformation(identityResolvingKey: random128(using: &generator)))
        case .identityAddressInformation:
            let kind: BluetoothAddress.Kind = Bool.random(using: &generator) ? .public : .random
            return .identityAddressInformation(SMP.IdentityAddressInformation(
                address: BluetoothAddress(generator.next(), kind: kind)))
        case .signingInformation:
            return .signingInformation(SMP.SigningInformation(signatureKey: random128(using: &generator)))
        case .securityRequest:
            return .securityRequest(SMP.SecurityRequest(authenticationRequirements: SMP.AuthenticationRequirements(rawValue: octet())))
        case .pairingPublicKey:
            return .pairingPublicKey(SMP.PairingPublicKey(
                x: SMP.PublicKeyCoordinate(high: random128(using: &generator), low: random128(using: &generator)),
                y: SMP.PublicKeyCoordinate(high: random128(using: &generator), low: random128(using: &generator))))
        case .pairingDHKeyCheck: return .pairingDHKeyCheck(SMP.PairingDHKeyCheck(checkValue: random128(using: &generator)))
        case .keypressNotification:
            return .keypressNotification(SMP.KeypressNotification(
                notificationType: SMP.KeypressNotificationType.allCases.randomElement(using: &generator) ?? .passkeyCleared))
        }
    }

    /// Decodes `bytes` as the typed PDU for `code` and re-encodes it.
    static func typedRoundTrip(_ code: SMP.Code, _ bytes: [UInt8]) throws(WireError) -> [UInt8] {
        switch code {
        case .pairingRequest: return try SMP.PairingRequest(decoding: bytes).encoded()
        case .pairingResponse: return try SMP.PairingResponse(decoding: bytes).encoded()
        case .pairingConfirm: return try SMP.PairingConfirm(decoding: bytes).encoded()
        case .pairingRandom: return try SMP.PairingRandom(decoding: bytes).encoded()
        case .pairingFailed: return try SMP.PairingFailed(decoding: bytes).encoded()
        case .encryptionInformation: return try SMP.EncryptionInformation(decoding: bytes).encoded()
        case .centralIdentification: return try SMP.CentralIdentification(decoding: bytes).encoded()
        case .identityInformation: return try SMP.IdentityInformation(decoding: bytes).encoded()
        case .identityAddressInformation: return try SMP.IdentityAddressInformation(decoding: bytes).encoded()
        case .signingInformation: return try SMP.SigningInformation(decoding: bytes).encoded()
        case .securityRequest: return try SMP.SecurityRequest(decoding: bytes).encoded()
        case .pairingPublicKey: return try SMP.PairingPublicKey(decoding: bytes).encoded()
        case .pairingDHKeyCheck: return try SMP.PairingDHKeyCheck(decoding: bytes).encoded()
        case .keypressNotification: return try SMP.KeypressNotification(decoding: bytes).encoded()
        }
    }

    @Test("Generated PDUs of every code survive a round trip, typed and through SMP.PDU", arguments: SMP.Code.allCases)
    func roundTrip(code: SMP.Code) throws {
        var generator = SeededGenerator(seed: 0x5EED_0000 + UInt64(code.rawValue))
        for _ in 0 ..< 300 {
            let pdu = Self.randomPDU(code, using: &generator)
            let bytes = pdu.encoded()
            #expect(try SMP.PDU(decoding: bytes) == pdu)
            #expect(try Self.typedRoundTrip(code, bytes) == bytes)
            #expect(pdu.pdu.encoded() == bytes)
        }
    }

    @Test("Malformed input never traps and truncation is rejected", arguments: SMP.Code.allCases)
    func malformed(code: SMP.Code) throws {
        var generator = SeededGenerator(seed: 99 + UInt64(code.rawValue))
        let valid = Self.randomPDU(code, using: &generator).encoded()
        let rejectedTyped = MalformedInput.check(valid) { (bytes: [UInt8]) throws(WireError) -> [UInt8] in
            try Self.typedRoundTrip(code, bytes)
        }
        // At least every truncation and the three extensions.
        #expect(rejectedTyped >= valid.count + 3)
        let rejectedEnum = MalformedInput.check(valid, as: SMP.PDU.self)
        #expect(rejectedEnum >= valid.count + 3)
        #expect(throws: WireError.self) { try Self.typedRoundTrip(code, Array(valid.prefix(valid.count - 1))) }
    }
}
