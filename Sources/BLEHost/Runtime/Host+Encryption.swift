import BLEWire

// Link encryption in the host (Core 5.4, Vol 3, Part C, §10; Vol 4, Part E, §7.8.24–7.8.26):
// the central starts it with a stored LTK, the peripheral's provider answers the controller's
// LTK requests, and the GATT client may raise security and retry once.

/// Supplies the LTK a central asks for, with the level the key was made with, or `nil` when
/// there is none (the host then sends a negative reply).
public typealias LongTermKeyProvider = @Sendable (LongTermKeyRequest) async -> (longTermKey: UInt128, level: LinkSecurityLevel)?

/// Told which link and which ATT error refused a GATT procedure for want of security; pairs
/// or encrypts the link and returns `true` if the procedure should run once more.
public typealias SecurityUpgradeHandler = @Sendable (_ connection: UInt16, _ error: ATT.ErrorCode) async -> Bool

extension Host {
    /// The ATT errors that a stronger link can cure (Vol 3, Part F, §3.4.1.1).
    static let securityErrors: Set<ATT.ErrorCode> = [.insufficientAuthentication, .insufficientEncryption, .encryptionKeySizeTooShort]

    /// Encrypts link `handle`, where this host is central, with a stored key (LE Enable
    /// Encryption, Vol 4, Part E, §7.8.24); on an encrypted link the same call refreshes the
    /// key (Vol 6, Part B, §5.1.3.2). Returns when the controller reported the outcome.
    /// - Parameters:
    ///   - handle: the connection.
    ///   - ltk: the Long Term Key.
    ///   - ediv: EDIV naming a legacy key (zero for LE Secure Connections).
    ///   - rand: Rand naming a legacy key (zero for LE Secure Connections).
    ///   - level: the level the key was made with, which the link then has.
    /// - Returns: the level and the key size.
    /// - Throws: ``HostError/gap(_:)`` with the controller's status, e.g. PIN or Key Missing
    ///   (0x06) when the peer has no key, or the disconnection reason (0x3D, MIC failure,
    ///   when the keys differ); ``GAPError/notCentral(handle:)`` on a peripheral.
    @discardableResult
    public func startEncryption(
        _ handle: UInt16, ltk: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0, level: LinkSecurityLevel
    ) async throws -> LinkEncryption {
        let key = GAPEncryptionKey(longTermKey: ltk, ediv: ediv, rand: rand, level: level)
        let event = try await perform({ gap, now throws(GAPError) in try gap.startEncryption(handle, key: key, at: now) }) { event in
            switch event {
            case .encryptionChanged(handle, _), .encryptionKeyRefreshed(handle, _): return .success(event)
            case let .encryptionFailed(handle: failed, error) where failed == handle: return .failure(error)
            case let .disconnected(handle: lost, reason) where lost == handle: return .failure(.controller(reason))
            default: return nil
            }
        }
        switch event {
        case let .encryptionChanged(_, encryption), let .encryptionKeyRefreshed(_, encryption): return encryption
        default: throw HostError.transportClosed("no encryption outcome")
        }
    }

    /// Sets what answers the controller's LE Long Term Key Request when this host is
    /// peripheral (Vol 4, Part E, §7.7.65.5): the key found gives a Reply (§7.8.25), `nil`
    /// a Negative Reply (§7.8.26). Without a provider every request gets a Negative Reply.
    public func setLongTermKeyProvider(_ provider: LongTermKeyProvider?) {
        longTermKeyProvider = provider
    }

    /// Sets what ``gatt(_:on:)`` calls when a server refuses a procedure with Insufficient
    /// Authentication (0x05), Insufficient Encryption (0x0F) or Encryption Key Size Too
    /// Short (0x0C); when it returns `true` the procedure runs once more.
    public func setSecurityUpgradeHandler(_ handler: SecurityUpgradeHandler?) {
        securityUpgradeHandler = handler
    }

    /// Records whether a key (a bond) exists for the peer of `handle`, which makes our
    /// server answer an unencrypted request for a protected attribute with Insufficient
    /// Encryption rather than Insufficient Authentication (Vol 3, Part C, §10.3.1).
    public func setLinkHasKey(_ handle: UInt16, _ hasKey: Bool) {
        gap.setHasKey(handle, hasKey)
    }

    /// Asks the provider for the key of `request` and hands the answer to the controller.
    func answer(_ request: LongTermKeyRequest) {
        if let key = pairingKey(for: request) {
            replyLongTermKey(request.handle, key: key)
            return
        }
        guard let provider = longTermKeyProvider else {
            replyLongTermKey(request.handle, key: nil)
            return
        }
        Task { [weak self] in
            let key = await provider(request)
            await self?.replyLongTermKey(request.handle, key: key)
        }
    }

    private func replyLongTermKey(_ handle: UInt16, key: (longTermKey: UInt128, level: LinkSecurityLevel)?) {
        guard closed == nil else { return }
        // The link may be gone by the time the provider answered: nothing to reply to.
        guard let outputs = try? gap.replyLongTermKey(handle, key: key, at: now) else { return }
        apply(outputs)
    }
}
