import BLEWire

/// Phase 1, pairing feature exchange (Core 5.4, Vol 3, Part H, §2.3 and §3.5.1–§3.5.2).
extension SMPPairing {
    mutating func sendPairingRequest(at now: HostTime) {
        let request = SMP.PairingRequest(
            ioCapability: configuration.ioCapability,
            // The initiator cannot know yet whether the responder supports Secure Connections.
            oobDataFlag: configuration.oobFlag(secureConnections: configuration.authenticationRequirements.contains(.secureConnections)),
            authenticationRequirements: configuration.authenticationRequirements,
            maximumEncryptionKeySize: configuration.maximumKeySize,
            initiatorKeyDistribution: configuration.offeredKeys, responderKeyDistribution: configuration.requestedKeys)
        self.request = request
        send(request, at: now)
        phase = .awaitingResponse
    }

    /// A central receiving Security Request (§2.4.6) starts pairing with its own
    /// requirements; once pairing runs, further requests are ignored.
    mutating func receivedSecurityRequest(_ pdu: SMP.SecurityRequest, at now: HostTime) throws(SMPAbort) {
        guard role == .initiator else { throw SMPAbort(.commandNotSupported) }
        if phase == .idle { sendPairingRequest(at: now) }
    }

    mutating func receivedPairingRequest(_ request: SMP.PairingRequest, at now: HostTime) throws(SMPAbort) {
        guard role == .responder else { throw SMPAbort(.commandNotSupported) }
        guard phase == .idle else { throw SMPAbort(.unspecifiedReason) }
        guard configuration.pairable else { throw SMPAbort(.pairingNotSupported) }
        let response = SMP.PairingResponse(
            ioCapability: configuration.ioCapability,
            // The responder knows: Secure Connections runs when both set the SC bit.
            oobDataFlag: configuration.oobFlag(secureConnections: configuration.authenticationRequirements.contains(.secureConnections)
                && request.authenticationRequirements.contains(.secureConnections)),
            authenticationRequirements: configuration.authenticationRequirements,
            maximumEncryptionKeySize: configuration.maximumKeySize,
            initiatorKeyDistribution: request.initiatorKeyDistribution.intersection(configuration.requestedKeys),
            responderKeyDistribution: request.responderKeyDistribution.intersection(configuration.offeredKeys))
        self.request = request
        self.response = response
        try negotiate(peerKeySize: request.maximumEncryptionKeySize)
        send(response, at: now)
        try beginAuthentication(at: now)
    }

    mutating func receivedPairingResponse(_ response: SMP.PairingResponse, at now: HostTime) throws(SMPAbort) {
        guard role == .initiator else { throw SMPAbort(.commandNotSupported) }
        guard phase == .awaitingResponse, let request else { throw SMPAbort(.unspecifiedReason) }
        // The responder may only drop keys from what the initiator proposed (§3.5.2).
        guard request.initiatorKeyDistribution.isSuperset(of: response.initiatorKeyDistribution),
              request.responderKeyDistribution.isSuperset(of: response.responderKeyDistribution) else {
            throw SMPAbort(.invalidParameters)
        }
        self.response = response
        try negotiate(peerKeySize: response.maximumEncryptionKeySize)
        try beginAuthentication(at: now)
    }

    /// Key size, Secure Connections and the association model from both feature sets.
    mutating func negotiate(peerKeySize: UInt8) throws(SMPAbort) {
        guard let request, let response else { throw SMPAbort(.unspecifiedReason) }
        // §3.5.1: a Maximum Encryption Key Size outside 7–16 is a parameter outside its
        // range, Invalid Parameters by Table 3.7 (§3.5.5), never a key to cut down to size
        // (SweynTooth's Key Size Overflow, CVE-2019-19196); a size in range but below what
        // we accept is refused with Encryption Key Size (§2.3.4).
        let range = SMP.minimumEncryptionKeySize ... SMP.maximumEncryptionKeySize
        guard range.contains(peerKeySize) else { throw SMPAbort(.invalidParameters) }
        let size = min(peerKeySize, configuration.maximumKeySize)
        guard size >= configuration.effectiveMinimumKeySize else { throw SMPAbort(.encryptionKeySize) }
        keySize = size

        let requestSC = request.authenticationRequirements.contains(.secureConnections)
        let responseSC = response.authenticationRequirements.contains(.secureConnections)
        secureConnections = requestSC && responseSC
        // Secure Connections Only mode (Part C, §10.2.4) refuses legacy pairing with
        // Authentication Requirements (Part H, §3.5.5).
        if configuration.secureConnectionsOnly && !secureConnections { throw SMPAbort(.authenticationRequirements) }

        let selected = SMPPairingMethod.select(
            initiatorIO: request.ioCapability, initiatorOOB: request.oobDataFlag == .present,
            initiatorMITM: request.authenticationRequirements.contains(.mitm),
            responderIO: response.ioCapability, responderOOB: response.oobDataFlag == .present,
            responderMITM: response.authenticationRequirements.contains(.mitm),
            secureConnections: secureConnections)
        // §2.3.5.1: a device that requires MITM protection fails Just Works with
        // Authentication Requirements.
        if configuration.mitmRequired && selected == .justWorks { throw SMPAbort(.authenticationRequirements) }
        if selected == .outOfBand {
            let peerFlag = role == .initiator ? response.oobDataFlag : request.oobDataFlag
            if secureConnections {
                // The peer holds our (r, C) only if we generated them (§2.3.5.6.4).
                if peerFlag == .present && configuration.localOutOfBand == nil { throw SMPAbort(.oobNotAvailable) }
            } else if configuration.legacyOutOfBandKey == nil {
                throw SMPAbort(.oobNotAvailable)
            }
        }
        method = selected
        bonded = request.authenticationRequirements.bondingFlags == 1 && response.authenticationRequirements.bondingFlags == 1
    }

    /// Phase 2 begins: passkeys are shown or asked for, and the first PDU goes out.
    mutating func beginAuthentication(at now: HostTime) throws(SMPAbort) {
        if case let .passkeyEntry(roles) = method {
            let displays = (roles == .initiatorDisplays && role == .initiator) || (roles == .responderDisplays && role == .responder)
            if displays {
                let value = UInt32(truncatingIfNeeded: random.next128() % 1_000_000)
                outputs.append(.displayPasskey(value))
                passkey = value
                if !secureConnections { temporaryKey = UInt128(value) }
            } else {
                awaitingPasskey = true
                outputs.append(.requestPasskey)
            }
        }
        if secureConnections {
            // The OOB data commits to the configured key pair, which OOB pairings must use
            // (§2.3.5.6.4); other pairings draw a fresh one, so that key pair serves only the
            // pairings its data was made for. Without OOB data, a configured pair (e.g. the
            // debug key, §2.3.5.6.1) is used as it is.
            let oobKeyOnly = configuration.localOutOfBand != nil && method != .outOfBand
            keyPair = oobKeyOnly ? random.makeKeyPair() : configuration.keyPair ?? random.makeKeyPair()
            if role == .initiator { sendPublicKey(at: now) }
            phase = .awaitingPublicKey
            return
        }
        switch method {
        case .justWorks where configuration.confirmsJustWorks:
            // TK stays unknown (the responder holds its Sconfirm) until the user taps Pair.
            awaitingConsent = true
            outputs.append(.confirmPairing)
        case .justWorks: temporaryKey = 0
        case .outOfBand: temporaryKey = configuration.legacyOutOfBandKey
        default: break
        }
        if role == .responder {
            phase = .legacyAwaitingConfirm
        } else if temporaryKey != nil {
            try sendLegacyConfirm(at: now)
        } else {
            phase = .awaitingPasskey
        }
    }

    /// The passkey is known (typed by the user, or zero once the user accepted legacy Just
    /// Works): phase 2 continues where it waited.
    mutating func passkeyKnown(_ value: UInt32, at now: HostTime) throws(SMPAbort) {
        passkey = value
        if secureConnections {
            if role == .initiator, phase == .awaitingPasskey {
                try sendPasskeyRoundConfirm(at: now)
            } else if role == .responder, phase == .awaitingConfirm, let held = peerConfirm {
                peerConfirm = nil
                try receivedSecureConnectionsConfirm(held, at: now)
            }
            return
        }
        temporaryKey = UInt128(value)
        if role == .initiator, phase == .awaitingPasskey {
            try sendLegacyConfirm(at: now)
        } else if role == .responder, phase == .legacyAwaitingConfirm, peerConfirm != nil {
            try sendLegacyResponderConfirm(at: now)
        }
    }
}
