import BLEWire

/// Phase 3, transport specific key distribution (Core 5.4, Vol 3, Part H, §3.6.1): on the
/// encrypted link the responder sends its keys first, then the initiator, each in the
/// order EncKey (legacy only), IdKey, SignKey.
extension SMPPairing {
    static let distributable: SMP.KeyDistribution = [.encryptionKey, .identityKey, .signingKey]

    /// The keys each side distributes; with Secure Connections EncKey means "derive a
    /// BR/EDR link key" and no LTK is sent (§3.6.1), so it is dropped here.
    var negotiatedDistribution: (local: SMP.KeyDistribution, peer: SMP.KeyDistribution) {
        guard let response else { return ([], []) }
        var initiatorKeys = response.initiatorKeyDistribution.intersection(Self.distributable)
        var responderKeys = response.responderKeyDistribution.intersection(Self.distributable)
        if secureConnections {
            initiatorKeys.remove(.encryptionKey)
            responderKeys.remove(.encryptionKey)
        }
        return role == .initiator ? (initiatorKeys, responderKeys) : (responderKeys, initiatorKeys)
    }

    static func codes(for keys: SMP.KeyDistribution) -> [SMP.Code] {
        var codes: [SMP.Code] = []
        if keys.contains(.encryptionKey) { codes += [.encryptionInformation, .centralIdentification] }
        if keys.contains(.identityKey) { codes += [.identityInformation, .identityAddressInformation] }
        if keys.contains(.signingKey) { codes.append(.signingInformation) }
        return codes
    }

    mutating func startKeyDistribution(at now: HostTime) throws(SMPAbort) {
        let (_, peer) = negotiatedDistribution
        awaitedKeyCodes = Self.codes(for: peer)
        if role == .responder { sendLocalKeys(at: now) }
        if awaitedKeyCodes.isEmpty {
            if role == .initiator { sendLocalKeys(at: now) }
            complete()
        } else {
            phase = .distributingKeys
        }
    }

    mutating func sendLocalKeys(at now: HostTime) {
        let (local, _) = negotiatedDistribution
        if local.contains(.encryptionKey) {
            let key = masked(random.next128())
            let identification = random.next128()
            let ltk = SMPKeys.LongTermKey(
                key: key, encryptedDiversifier: UInt16(truncatingIfNeeded: identification >> 64),
                random: UInt64(truncatingIfNeeded: identification))
            localKeys.longTermKey = ltk
            send(SMP.EncryptionInformation(longTermKey: ltk.key), at: now)
            send(SMP.CentralIdentification(encryptedDiversifier: ltk.encryptedDiversifier, random: ltk.random), at: now)
        }
        if local.contains(.identityKey), let identity = configuration.identity {
            localKeys.identity = identity
            send(SMP.IdentityInformation(identityResolvingKey: identity.identityResolvingKey), at: now)
            send(SMP.IdentityAddressInformation(address: identity.identityAddress), at: now)
        }
        if local.contains(.signingKey), let signatureKey = configuration.signatureKey {
            localKeys.signatureKey = signatureKey
            send(SMP.SigningInformation(signatureKey: signatureKey), at: now)
        }
    }

    /// A key PDU: only the next one the negotiated distribution announces is accepted;
    /// anything else is out of order (Unspecified Reason, §3.5.5).
    mutating func receivedKey(_ pdu: SMP.PDU, at now: HostTime) throws(SMPAbort) {
        guard phase == .distributingKeys, awaitedKeyCodes.first == pdu.code else { throw SMPAbort(.unspecifiedReason) }
        awaitedKeyCodes.removeFirst()
        switch pdu {
        case let .encryptionInformation(info):
            peerKeys.longTermKey = SMPKeys.LongTermKey(key: info.longTermKey, encryptedDiversifier: 0, random: 0)
        case let .centralIdentification(identification):
            peerKeys.longTermKey?.encryptedDiversifier = identification.encryptedDiversifier
            peerKeys.longTermKey?.random = identification.random
        case let .identityInformation(info):
            peerKeys.identity = SMPIdentity(identityResolvingKey: info.identityResolvingKey, identityAddress: peerAddress)
        case let .identityAddressInformation(info):
            // An identity address is public or static random (§3.6.5).
            if info.address.kind == .random && info.address.randomSubtype != .static {
                throw SMPAbort(.invalidParameters)
            }
            peerKeys.identity?.identityAddress = info.address
        case let .signingInformation(info):
            peerKeys.signatureKey = info.signatureKey
        default:
            throw SMPAbort(.unspecifiedReason)
        }
        guard awaitedKeyCodes.isEmpty else { return }
        outputs.append(.keysDistributed(peerKeys))
        if role == .initiator { sendLocalKeys(at: now) }
        complete()
    }

    /// Pairing done: the level follows the model and key (Vol 3, Part C, §10.2.1): level 4
    /// needs an authenticated Secure Connections key of 128 bits.
    mutating func complete() {
        guard let method else { return }
        let level: LinkSecurityLevel
        if !method.isAuthenticated {
            level = .unauthenticated
        } else if secureConnections && keySize == 16 {
            level = .authenticatedSecureConnections
        } else {
            level = .authenticated
        }
        outputs.append(.completed(SMPPairingResult(
            level: level, keySize: keySize, bonded: bonded, secureConnections: secureConnections, method: method,
            secureConnectionsLongTermKey: secureConnectionsLTK, peerKeys: peerKeys, localKeys: localKeys)))
        phase = .complete
        deadline = nil
    }
}
