import BLECrypto
import BLEWire

/// Phase 2 of LE legacy pairing (Core 5.4, Vol 3, Part H, §2.3.5.5): Mconfirm/Sconfirm
/// with c1, Mrand/Srand, and the STK from s1 masked to the key size.
extension SMPPairing {
    /// A 7-octet Pairing Request/Response as c1's 56-bit `preq`/`pres` (§2.2.3): the first
    /// octet sent is the least significant.
    static func c1Operand(_ octets: [UInt8]) -> UInt64 {
        octets.prefix(7).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    func legacyConfirm(random value: UInt128) throws(SMPAbort) -> UInt128 {
        guard let temporaryKey, let request, let response else { throw SMPAbort(.unspecifiedReason) }
        let preq = Self.c1Operand(request.encoded())
        let pres = Self.c1Operand(response.encoded())
        let initiator = initiatorAddress
        let responder = responderAddress
        return try smpCrypto { () throws(BLECrypto.Error) in
            try BLECrypto.c1(
                k: temporaryKey, r: value, preq: preq, pres: pres,
                iat: initiator.kind.rawValue, ia: initiator.value, rat: responder.kind.rawValue, ra: responder.value)
        }
    }

    /// Initiator: Mrand and Mconfirm (§2.3.5.5).
    mutating func sendLegacyConfirm(at now: HostTime) throws(SMPAbort) {
        localRandom = random.next128()
        localConfirm = try legacyConfirm(random: localRandom)
        send(SMP.PairingConfirm(confirmValue: localConfirm), at: now)
        phase = .legacyAwaitingConfirm
    }

    /// Responder: Srand and Sconfirm, once both Mconfirm and the TK are known.
    mutating func sendLegacyResponderConfirm(at now: HostTime) throws(SMPAbort) {
        localRandom = random.next128()
        localConfirm = try legacyConfirm(random: localRandom)
        send(SMP.PairingConfirm(confirmValue: localConfirm), at: now)
        phase = .legacyAwaitingRandom
    }

    mutating func receivedConfirm(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        if secureConnections {
            guard phase == .awaitingConfirm else { throw SMPAbort(.unspecifiedReason) }
            try receivedSecureConnectionsConfirm(value, at: now)
            return
        }
        guard phase == .legacyAwaitingConfirm, peerConfirm == nil else { throw SMPAbort(.unspecifiedReason) }
        peerConfirm = value
        if role == .initiator {
            send(SMP.PairingRandom(randomValue: localRandom), at: now)
            phase = .legacyAwaitingRandom
        } else if temporaryKey != nil {
            try sendLegacyResponderConfirm(at: now)
        }
    }

    mutating func receivedRandom(_ value: UInt128, at now: HostTime) throws(SMPAbort) {
        if secureConnections {
            guard phase == .awaitingRandom else { throw SMPAbort(.unspecifiedReason) }
            try receivedSecureConnectionsRandom(value, at: now)
            return
        }
        guard phase == .legacyAwaitingRandom, let peerConfirm, let temporaryKey else { throw SMPAbort(.unspecifiedReason) }
        guard try legacyConfirm(random: value) == peerConfirm else { throw SMPAbort(.confirmValueFailed) }
        let (srand, mrand) = role == .initiator ? (value, localRandom) : (localRandom, value)
        let stk = masked(try smpCrypto { () throws(BLECrypto.Error) in try BLECrypto.s1(k: temporaryKey, r1: srand, r2: mrand) })
        if role == .responder {
            send(SMP.PairingRandom(randomValue: localRandom), at: now)
            pendingLTK = stk
            outputs.append(.ltkReady(stk))
        } else {
            outputs.append(.startEncryption(ltk: stk, ediv: 0, rand: 0))
        }
        phase = .awaitingEncryption
    }
}
