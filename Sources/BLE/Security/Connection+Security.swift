import BLEHost

extension Connection {
    /// Secures the link (Core 5.4, Vol 3, Part H, §2.1; Vol 3, Part C, §10): as central
    /// with a bonded peer, by encrypting with the stored key (no pairing again, §2.4.4; if
    /// the peer lost its key, PIN or Key Missing, by pairing afresh); otherwise by pairing —
    /// as central with a Pairing Request, as peripheral with a Security Request (or nothing
    /// when the central already encrypted the link, e.g. with a bond's key). The
    /// device's ``PairingOptions`` and ``PairingHandlers`` apply; a bonding pairing is kept
    /// in the device's bonds. A pairing already running on the link is joined.
    /// - Returns: the level, key size and model; ``PairingResult/method`` is `nil` when a
    ///   stored key was used.
    /// - Throws: ``BLEError/pairingFailed(_:)`` with the SMP reason (e.g. Confirm Value
    ///   Failed, 0x04, for a wrong passkey), ``BLEError/pairingTimedOut``,
    ///   ``BLEError/disconnected(_:)``.
    @discardableResult
    public func pair() async throws(BLEError) -> PairingResult {
        if let reason = disconnectReason { throw .disconnected(reason) }
        if role == .central, let stored = core.security.bonds.encryptionKey(for: peer) {
            do {
                let encryption = try await core.host.startEncryption(handle, ltk: stored.key.key, ediv: stored.key.ediv,
                                                                     rand: stored.key.rand, level: stored.level)
                return PairingResult(level: encryption.level, keySize: encryption.keySize, bonded: true, method: nil,
                                     secureConnections: stored.secureConnections)
            } catch HostError.gap(.controller(.pinOrKeyMissing)) {
                // The peer no longer holds the bond: pair again below.
            } catch {
                throw securityFailure(error)
            }
        }
        if role == .peripheral {
            // Already encrypted (e.g. the bonded central re-encrypted): nothing to ask for.
            let security = await core.host.linkSecurity(handle)
            if security.isEncrypted {
                return PairingResult(level: security.level, keySize: security.keySize, bonded: isBonded, method: nil,
                                     secureConnections: core.security.bonds.record(for: peer)?.isSecureConnections ?? false)
            }
        }
        do {
            let result = try await core.host.pair(handle)
            // Kept here too (the security events keep it as well) so that the bond exists
            // when this call returns.
            await core.security.bonds.keep(result, peer: peer)
            return PairingResult(result)
        } catch let HostPairingError.encryptedWithStoredKey(encryption) {
            // Our Security Request was answered by the bonded central with its stored key.
            return PairingResult(level: encryption.level, keySize: encryption.keySize, bonded: isBonded, method: nil,
                                 secureConnections: core.security.bonds.record(for: peer)?.isSecureConnections ?? false)
        } catch {
            throw securityFailure(error)
        }
    }

    /// The link's security level now (Vol 3, Part C, §10.2.1): `LinkSecurityLevel.none`
    /// until it is encrypted.
    public var securityLevel: SecurityLevel {
        get async { await core.host.linkSecurity(handle).level }
    }

    /// Whether a bond with this peer is stored.
    public var isBonded: Bool { core.security.bonds.record(for: peer) != nil }

    /// A stable identifier for the peer, as an uppercase UUID string: the bond's identifier
    /// (`BLEHost.BondRecord.peerIdentifier`, made at bonding) when the peer is bonded,
    /// which survives its address changes and restarts; else a UUID made from its address
    /// alone, the same on every connection from that address.
    public var peerIdentifier: String {
        core.security.bonds.record(for: peer)?.peerIdentifier ?? PeerIdentifier.derived(from: peer)
    }

    private func securityFailure(_ error: any Error) -> BLEError {
        let translated = core.translate(error)
        if case .procedureFailed = translated, let reason = disconnectReason { return .disconnected(reason) }
        return translated
    }
}
