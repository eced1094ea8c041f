import BLEWire

// Link encryption (Core 5.4, Vol 3, Part C, §10.2–10.3; Vol 6, Part B, §5.1.3): the central
// starts it with a key, the peripheral's host answers the controller's LTK request, and each
// link's security (level, key size, whether a key exists) follows the controller's events.

extension GAPCore {
    /// The key size assumed when the controller reports encryption with Encryption Change
    /// [v1] and cannot be asked with Read Encryption Key Size (Bumble's controller, for one):
    /// the link layer always encrypts with the whole 128-bit LTK (Vol 6, Part E, §1).
    public static let assumedKeySize = 16

    /// The security of link `handle` for permission checks (Vol 3, Part C, §10.3):
    /// unencrypted with no key until encryption succeeds.
    /// Whether link `handle` has just been encrypted and its key size is still being read:
    /// the host holds the link's ATT and SMP PDUs until it is known, so that nothing is
    /// checked against, or ordered before, a security level that is about to change.
    public func isAwaitingKeySize(_ handle: UInt16) -> Bool { encryption[handle]?.keySizePending ?? false }

    public func linkSecurity(_ handle: UInt16) -> LinkSecurity {
        let state = encryption[handle]
        guard let current = state?.current, current.isEncrypted else {
            return LinkSecurity(level: .none, keySize: 0, hasKey: state?.hasKey ?? false)
        }
        return LinkSecurity(level: current.level, keySize: current.keySize, hasKey: true)
    }

    /// Records that a key for the peer of `handle` exists (a bond), so an unencrypted
    /// link answers Insufficient Encryption rather than Insufficient Authentication (§10.3.1).
    public mutating func setHasKey(_ handle: UInt16, _ hasKey: Bool) {
        guard links[handle] != nil else { return }
        encryption[handle, default: GAPLinkEncryptionState()].hasKey = hasKey
    }

    /// The central encrypts link `handle` with `key` (LE Enable Encryption, Vol 4, Part E,
    /// §7.8.24); on an encrypted link the same command refreshes the key (§5.1.3.2 of Vol 6,
    /// Part B). ``GAPEvent/encryptionChanged(handle:_:)`` or
    /// ``GAPEvent/encryptionKeyRefreshed(handle:_:)`` follows, or
    /// ``GAPEvent/encryptionFailed(handle:_:)``.
    public mutating func startEncryption(_ handle: UInt16, key: GAPEncryptionKey, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard let link = links[handle] else { throw .unknownConnection(handle: handle) }
        guard link.role == .central else { throw .notCentral(handle: handle) }
        var state = encryption[handle] ?? GAPLinkEncryptionState()
        guard !state.starting else { throw .encryptionInProgress(handle: handle) }
        state.starting = true
        state.pendingLevel = key.level
        encryption[handle] = state
        return [submit(HCI.LEEnableEncryption(
            connectionHandle: handle, randomNumber: key.rand, encryptedDiversifier: key.ediv, longTermKey: key.longTermKey),
            for: .enableEncryption(handle: handle))]
    }

    /// The peripheral's answer to ``GAPEvent/longTermKeyRequested(_:)``: the key with the
    /// level it was made with (LE Long Term Key Request Reply, §7.8.25), or `nil` for no key
    /// (Negative Reply, §7.8.26; the controller rejects the central's request with PIN or Key
    /// Missing, Vol 6, Part B, §5.1.3.1).
    public mutating func replyLongTermKey(
        _ handle: UInt16, key: (longTermKey: UInt128, level: LinkSecurityLevel)?, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        guard let key else {
            encryption[handle]?.pendingLevel = nil
            return [submit(HCI.LELongTermKeyRequestNegativeReply(connectionHandle: handle), for: .longTermKeyReply(handle: handle))]
        }
        encryption[handle, default: GAPLinkEncryptionState()].pendingLevel = key.level
        return [submit(HCI.LELongTermKeyRequestReply(connectionHandle: handle, longTermKey: key.longTermKey),
                       for: .longTermKeyReply(handle: handle))]
    }

    // MARK: Controller answers and events

    /// The answer to an encryption command.
    mutating func answeredEncryption(_ purpose: Purpose, failure: GAPError?, result: Result<HCI.Event, HCIDriverError>) -> [GAPOutput] {
        switch purpose {
        case let .enableEncryption(handle), let .longTermKeyReply(handle):
            guard let failure else { return [] }
            encryption[handle]?.starting = false
            encryption[handle]?.pendingLevel = nil
            return [.event(.encryptionFailed(handle: handle, failure))]
        case let .encryptionKeySize(handle, level, refreshed):
            var size = Self.assumedKeySize
            if failure == nil, case let .success(.commandComplete(complete)) = result,
               let answer = try? complete.returnParameters(for: HCI.ReadEncryptionKeySize.self) {
                size = Int(answer.keySize)
            }
            return encrypted(handle, LinkEncryption(level: level, keySize: size), refreshed: refreshed)
        default:
            return []
        }
    }

    /// Encryption Change [v1, v2], Encryption Key Refresh Complete and LE Long Term Key
    /// Request; other events give nothing.
    mutating func encryptionEvent(_ event: HCI.Event) -> [GAPOutput] {
        switch event {
        case let .leMeta(.longTermKeyRequest(request)):
            guard let link = links[request.connectionHandle] else { return [] }
            return [.event(.longTermKeyRequested(LongTermKeyRequest(
                handle: link.handle, peer: link.peer, ediv: request.encryptedDiversifier, rand: request.randomNumber)))]
        case let .encryptionChange(change):
            return encryptionChanged(change.connectionHandle, status: change.status, on: change.encryptionEnabled != .off, keySize: nil)
        case let .encryptionChangeV2(change):
            return encryptionChanged(change.connectionHandle, status: change.status, on: change.encryptionEnabled != .off,
                                     keySize: Int(change.encryptionKeySize))
        case let .encryptionKeyRefreshComplete(refresh):
            let handle = refresh.connectionHandle
            guard links[handle] != nil else { return [] }
            guard refresh.status == .success else { return failed(handle, status: refresh.status) }
            let state = encryption[handle]
            let level = state?.pendingLevel ?? state?.current?.level ?? .unauthenticated
            return askKeySize(handle, level: level, refreshed: true) ?? []
        default:
            return []
        }
    }

    private mutating func encryptionChanged(_ handle: UInt16, status: HCI.StatusCode, on: Bool, keySize: Int?) -> [GAPOutput] {
        guard links[handle] != nil else { return [] }
        guard status == .success else { return failed(handle, status: status) }
        guard on else {
            encryption[handle]?.current = nil
            encryption[handle]?.starting = false
            encryption[handle]?.pendingLevel = nil
            return [.event(.encryptionChanged(handle: handle, LinkEncryption(level: .none, keySize: 0)))]
        }
        let state = encryption[handle]
        // Bumble's controller reports a refresh as another Encryption Change.
        let refreshed = state?.current?.isEncrypted ?? false
        let level = state?.pendingLevel ?? state?.current?.level ?? .unauthenticated
        if let keySize { return encrypted(handle, LinkEncryption(level: level, keySize: keySize), refreshed: refreshed) }
        return askKeySize(handle, level: level, refreshed: refreshed) ?? []
    }

    /// Read Encryption Key Size when the controller may answer it, else the assumed size.
    private mutating func askKeySize(_ handle: UInt16, level: LinkSecurityLevel, refreshed: Bool) -> [GAPOutput]? {
        guard readsEncryptionKeySize else {
            return encrypted(handle, LinkEncryption(level: level, keySize: Self.assumedKeySize), refreshed: refreshed)
        }
        var state = encryption[handle] ?? GAPLinkEncryptionState()
        state.keySizePending = true
        encryption[handle] = state
        return [submit(HCI.ReadEncryptionKeySize(connectionHandle: handle),
                       for: .encryptionKeySize(handle: handle, level: level, refreshed: refreshed))]
    }

    private mutating func encrypted(_ handle: UInt16, _ link: LinkEncryption, refreshed: Bool) -> [GAPOutput] {
        guard links[handle] != nil else { return [] }
        var state = encryption[handle] ?? GAPLinkEncryptionState()
        state.current = link
        state.starting = false
        state.pendingLevel = nil
        state.keySizePending = false
        state.hasKey = true
        encryption[handle] = state
        return [.event(refreshed ? .encryptionKeyRefreshed(handle: handle, link) : .encryptionChanged(handle: handle, link))]
    }

    private mutating func failed(_ handle: UInt16, status: HCI.StatusCode) -> [GAPOutput] {
        encryption[handle]?.starting = false
        encryption[handle]?.pendingLevel = nil
        encryption[handle]?.keySizePending = false
        return [.event(.encryptionFailed(handle: handle, .controller(status)))]
    }
}
