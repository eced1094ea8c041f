import BLECrypto
import BLEWire

/// Phase 2 of LE Secure Connections (Core 5.4, Vol 3, Part H, §2.3.5.6): public key
/// exchange, authentication stage 1 (Just Works / Numeric Comparison, Passkey Entry, OOB)
/// and stage 2 (f5 for MacKey and LTK, f6 DHKey checks).
extension SMPPairing {
    var ownPublicX: BLECrypto.Value256 { keyPair?.publicX ?? BLECrypto.Value256(high: 0, low: 0) }

    mutating func sendPublicKey(at now: HostTime) {
        guard let keyPair else { return }
        send(SMP.PairingPublicKey(
            x: SMP.PublicKeyCoordinate(high: keyPair.publicX.high, low: keyPair.publicX.low),
            y: SMP.PublicKeyCoordinate(high: keyPair.publicY.high, low: keyPair.publicY.low)), at: now)
    }

    /// The peer's public key. A point not on P-256 must be rejected (§2.3.5.6.1, erratum
    /// 10734, CVE-2018-5383). The specification names no reason for it; we send Invalid
    /// Parameters, as Android and Zephyr do, since the command's parameter is invalid. A
    /// key equal to ours is refused the same way (a reflected key, CVE-2020-26558).
    mutating func receivedPublicKey(_ pdu: SMP.PairingPublicKey, at now: HostTime) throws(SMPAbort) {
        guard secureConnections, phase == .awaitingPublicKey, let keyPair else { throw SMPAbort(.unspecifiedReason) }
        let peerX = BLECrypto.Value256(high: pdu.x.high, low: pdu.x.low)
        let peerY = BLECrypto.Value256(high: pdu.y.high, low: pdu.y.low)
        guard peerX != keyPair.publicX else { throw SMPAbort(.invalidParameters) }
        do {
            dhKey = try keyPair.dhKey(peerX: peerX, peerY: peerY)
        } catch {
            throw SMPAbort(error == .invalidPublicKey ? .invalidParameters : .unspecifiedReason)
        }
        peerPublicX = peerX
        if role == .responder { sendPublicKey(at: now) }
        // OOB: check the peer's commitment Cb = f4(PKb, PKb, rb, 0) when we hold it.
        if method == .outOfBand, let peerData = configuration.peerOutOfBand {
            let expected = try smpCrypto { () throws(BLECrypto.Error) in
                try BLECrypto.f4(u: peerX, v: peerX, x: peerData.random, z: 0)
            }
            guard expected == peerData.confirm else { throw SMPAbort(.confirmValueFailed) }
        }
        switch method {
        case .justWorks, .numericComparison:
            if role == .responder {
                localRandom = random.next128()
                localConfirm = try confirm(nonce: localRandom, z: 0)
                send(SMP.PairingConfirm(confirmValue: localConfirm), at: now)
                phase = .awaitingRandom
            } else {
                phase = .awaitingConfirm
            }
        case .passkeyEntry:
            if role == .responder {
                phase = .awaitingConfirm
            } else if passkey != nil {
                try sendPasskeyRoundConfirm(at: now)
            } else {
                phase = .awaitingPasskey
            }
        case .outOfBand, nil:
            if role == .initiator {
                localRandom = random.next128()
                send(SMP.PairingRandom(randomValue: localRandom), at: now)
            }
            phase = .awaitingRandom
        }
    }

    /// f4 of our public key, the peer's and a nonce: our commitment.
    func confirm(nonce: UInt128, z: UInt8) throws(SMPAbort) -> UInt128 {
        let own = ownPublicX
        let peer = peerPublicX
        return try smpCrypto { () throws(BLECrypto.Error) in try BLECrypto.f4(u: own, v: peer, x: nonce, z: z) }
    }

    /// f4 of the peer's public key, ours and the peer's nonce: what its commitment must be.
    func expectedPeerConfirm(nonce: UInt128, z: UInt8) throws(SMPAbort) -> UInt128 {
        let own = ownPublicX
        let peer = peerPublicX
        return try smpCrypto { () throws(BLECrypto.Error) in try BLECrypto.f4(u: peer, v: own, x: nonce, z: z) }
    }

    /// The passkey bit of this round as f4's Z: 0x80 | ri (§2.3.5.6.3).
    var passkeyZ: UInt8 { 0x80 | UInt8(truncatingIfNeeded: ((passkey ?? 0) >> UInt32(passkeyRound)) & 1) }

    /// Passkey Entry round i: a new nonce and its commitment (§2.3.5.6.3).
    mutating func sendPasskeyRoundConfirm(at now: HostTime) throws(SMPAbort) {
        localRandom = random.next128()
        localConfirm = try confirm(nonce: localRandom, z: passkeyZ)
        send(SMP.PairingConfirm(confirmValue: localConfirm), at: now)
        phase = role == .initiator ? .awaitingConfirm : .awaitingRandom
    }

    mutating func receivedSecureConnectionsConfirm(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        switch (method, role) {
        case (.justWorks, .initiator), (.numericComparison, .initiator):
            peerConfirm = value
            localRandom = random.next128()
            send(SMP.PairingRandom(randomValue: localRandom), at: now)
            phase = .awaitingRandom
        case (.passkeyEntry, .initiator):
            peerConfirm = value
            send(SMP.PairingRandom(randomValue: localRandom), at: now)
            phase = .awaitingRandom
        case (.passkeyEntry, .responder):
            guard peerConfirm == nil else { throw SMPAbort(.unspecifiedReason) }
            peerConfirm = value
            // Without the passkey yet, Cai waits until the user has typed it.
            if passkey != nil { try sendPasskeyRoundConfirm(at: now) }
        default:
            throw SMPAbort(.unspecifiedReason)
        }
    }

    mutating func receivedSecureConnectionsRandom(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        switch (method, role) {
        case (.justWorks, .initiator), (.numericComparison, .initiator):
            guard let peerConfirm, try expectedPeerConfirm(nonce: value, z: 0) == peerConfirm else {
                throw SMPAbort(.confirmValueFailed)
            }
            peerNonce = value
            if method == .numericComparison {
                outputs.append(.confirmNumber(try comparisonValue()))
                phase = .awaitingUserConfirmation
            } else if configuration.confirmsJustWorks {
                awaitingConsent = true
                outputs.append(.confirmPairing)
                phase = .awaitingUserConfirmation
            } else {
                userConfirmed = true
                try sendInitiatorCheck(at: now)
            }
        case (.justWorks, .responder), (.numericComparison, .responder):
            peerNonce = value
            send(SMP.PairingRandom(randomValue: localRandom), at: now)
            if method == .numericComparison {
                outputs.append(.confirmNumber(try comparisonValue()))
            } else if configuration.confirmsJustWorks {
                awaitingConsent = true
                outputs.append(.confirmPairing)
            } else {
                userConfirmed = true
            }
            phase = .awaitingDHKeyCheck
        case (.passkeyEntry, _):
            guard let peerConfirm, try expectedPeerConfirm(nonce: value, z: passkeyZ) == peerConfirm else {
                throw SMPAbort(.confirmValueFailed)
            }
            self.peerConfirm = nil
            peerNonce = value
            if role == .responder { send(SMP.PairingRandom(randomValue: localRandom), at: now) }
            passkeyRound += 1
            if passkeyRound < 20 {
                if role == .initiator { try sendPasskeyRoundConfirm(at: now) } else { phase = .awaitingConfirm }
            } else {
                userConfirmed = true
                if role == .initiator { try sendInitiatorCheck(at: now) } else { phase = .awaitingDHKeyCheck }
            }
        case (.outOfBand, _):
            peerNonce = value
            userConfirmed = true
            if role == .initiator {
                try sendInitiatorCheck(at: now)
            } else {
                localRandom = random.next128()
                send(SMP.PairingRandom(randomValue: localRandom), at: now)
                phase = .awaitingDHKeyCheck
            }
        default:
            throw SMPAbort(.unspecifiedReason)
        }
    }

    var initiatorNonce: UInt128 { role == .initiator ? localRandom : peerNonce }
    var responderNonce: UInt128 { role == .initiator ? peerNonce : localRandom }

    /// Va = Vb = g2(PKax, PKbx, Na, Nb), six digits (§2.3.5.6.2).
    func comparisonValue() throws(SMPAbort) -> UInt32 {
        let (pkax, pkbx) = role == .initiator ? (ownPublicX, peerPublicX) : (peerPublicX, ownPublicX)
        let (na, nb) = (initiatorNonce, responderNonce)
        return try smpCrypto { () throws(BLECrypto.Error) in try BLECrypto.g2(u: pkax, v: pkbx, x: na, y: nb) }
    }

    mutating func userConfirmedNumber(at now: HostTime) throws(SMPAbort) {
        if role == .initiator {
            try sendInitiatorCheck(at: now)
        } else if let held = heldPeerCheck {
            heldPeerCheck = nil
            try verifyInitiatorCheck(held, at: now)
        }
    }

    /// f6's 24-bit IOcap: AuthReq, OOB data flag, IO capability (§2.2.8).
    static func ioCap(_ pdu: some SMPPairingFeatureExchangePDU) -> UInt32 {
        UInt32(pdu.authenticationRequirements.rawValue) << 16 | UInt32(pdu.oobDataFlag.rawValue) << 8
            | UInt32(pdu.ioCapability.rawValue)
    }

    /// Stage 2 (§2.3.5.6.5): MacKey and LTK from f5, and the expected Ea and Eb.
    mutating func checkValues() throws(SMPAbort) -> (ea: UInt128, eb: UInt128) {
        guard let request, let response else { throw SMPAbort(.unspecifiedReason) }
        let initiator = initiatorAddress
        let responder = responderAddress
        let a = BLECrypto.addressField(isRandom: initiator.kind == .random, address: initiator.value)
        let b = BLECrypto.addressField(isRandom: responder.kind == .random, address: responder.value)
        let (na, nb, w) = (initiatorNonce, responderNonce, dhKey)
        var ra: UInt128 = 0
        var rb: UInt128 = 0
        switch method {
        case .passkeyEntry:
            ra = UInt128(passkey ?? 0)
            rb = ra
        case .outOfBand:
            // Each side's r counts only when the other said it holds it (§2.3.5.6.4).
            let peerFlag = role == .initiator ? response.oobDataFlag : request.oobDataFlag
            let localR = peerFlag == .present ? configuration.localOutOfBand?.random ?? 0 : 0
            let peerR = configuration.peerOutOfBand?.random ?? 0
            (ra, rb) = role == .initiator ? (localR, peerR) : (peerR, localR)
        default:
            break
        }
        let (ioCapA, ioCapB) = (Self.ioCap(request), Self.ioCap(response))
        let keys = try smpCrypto { () throws(BLECrypto.Error) in try BLECrypto.f5(w: w, n1: na, n2: nb, a1: a, a2: b) }
        macKey = keys.macKey
        secureConnectionsLTK = masked(keys.longTermKey)
        let mac = keys.macKey
        let ea = try smpCrypto { () throws(BLECrypto.Error) in
            try BLECrypto.f6(w: mac, n1: na, n2: nb, r: rb, ioCap: ioCapA, a1: a, a2: b)
        }
        let eb = try smpCrypto { () throws(BLECrypto.Error) in
            try BLECrypto.f6(w: mac, n1: nb, n2: na, r: ra, ioCap: ioCapB, a1: b, a2: a)
        }
        return (ea, eb)
    }

    mutating func sendInitiatorCheck(at now: HostTime) throws(SMPAbort) {
        let (ea, _) = try checkValues()
        send(SMP.PairingDHKeyCheck(checkValue: ea), at: now)
        phase = .awaitingDHKeyCheck
    }

    mutating func receivedDHKeyCheck(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        guard secureConnections, phase == .awaitingDHKeyCheck else { throw SMPAbort(.unspecifiedReason) }
        if role == .initiator {
            let (_, eb) = try checkValues()
            guard eb == value, let ltk = secureConnectionsLTK else { throw SMPAbort(.dhKeyCheckFailed) }
            outputs.append(.startEncryption(ltk: ltk, ediv: 0, rand: 0))
            phase = .awaitingEncryption
        } else if userConfirmed {
            try verifyInitiatorCheck(value, at: now)
        } else {
            // Numeric Comparison: Ea may come before our user has answered (§2.3.5.6.5).
            guard heldPeerCheck == nil else { throw SMPAbort(.unspecifiedReason) }
            heldPeerCheck = value
        }
    }

    mutating func verifyInitiatorCheck(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        let (ea, eb) = try checkValues()
        guard ea == value, let ltk = secureConnectionsLTK else { throw SMPAbort(.dhKeyCheckFailed) }
        send(SMP.PairingDHKeyCheck(checkValue: eb), at: now)
        pendingLTK = ltk
        outputs.append(.ltkReady(ltk))
        phase = .awaitingEncryption
    }
}
