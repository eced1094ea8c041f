import BLELogging
import BLEWire

// SMP on each link (Core 5.4, Vol 3, Part H): the host runs one SMPPairing per pairing,
// carries its PDUs, starts encryption with what it derives, answers the controller's LTK
// request from it, and asks the app's PairingAgent when a user must act.

extension Host {
    /// Sets our capabilities and keys for every later pairing (IO capability, bonding,
    /// MITM, Secure Connections (only), key sizes, distributed keys, OOB data).
    public func setPairingConfiguration(_ configuration: SMPConfiguration) {
        smpConfiguration = configuration
        // Our identity from enablePrivacy is handed out unless the configuration has its own.
        if smpConfiguration.identity == nil { smpConfiguration.identity = addressResolution.localIdentity }
    }

    /// Sets who shows and enters passkeys, confirms numbers and accepts Just Works. Without
    /// one, passkey entry is cancelled, numbers are not confirmed and Just Works is
    /// accepted, so only Just Works can succeed.
    public func setPairingAgent(_ agent: (any PairingAgent)?) {
        pairingAgent = agent
    }

    /// Sets how a Security Request from a peripheral is answered when we are central.
    public func setBondedKeyLookup(_ lookup: BondedKeyLookup?) {
        bondedKeyLookup = lookup
    }

    /// Pairs on link `handle` (Vol 3, Part H, §2.1): as central by sending a Pairing
    /// Request, as peripheral by sending a Security Request. Returns once keys are
    /// distributed and the link is encrypted; a pairing already running is joined.
    /// - Throws: ``HostPairingError`` with the Pairing Failed reason, ``HostError`` when
    ///   the link goes down.
    @discardableResult
    public func pair(_ handle: UInt16) async throws -> SMPPairingResult {
        guard let link = gap.connections.first(where: { $0.handle == handle }) else {
            throw HostError.gap(.unknownConnection(handle: handle))
        }
        if pairingAttempts.isBlocked(link.peer, at: now) { throw HostPairingError.repeatedAttempts }
        return try await withCheckedThrowingContinuation { continuation in
            pairingWaiters[handle, default: []].append(continuation)
            guard smpSessions[handle]?.isInProgress != true else { return }
            var session = makeSession(for: link)
            let outputs = link.role == .central ? session.start(at: now) : session.requestSecurity(at: now)
            smpSessions[handle] = session
            carryOut(outputs, smpLink: handle)
        }
    }

    // MARK: Routing

    /// An SMP PDU arrived on a link's fixed channel 0x0006.
    /// SMP PDUs of a pairing step (anything but Pairing Request and Security Request) that
    /// came when no pairing ran on their link, and were dropped.
    public var strayPairingPDUsDropped: Int { strayPairingPDUs }

    func smpReceived(_ pdu: [UInt8], link handle: UInt16) {
        guard let link = gap.connections.first(where: { $0.handle == handle }) else { return }
        if smpSessions[handle]?.isInProgress != true {
            // A Security Request to a central that holds a key for the peer: encrypt with it.
            if link.role == .central, pdu.first == SMP.Code.securityRequest.rawValue, let lookup = bondedKeyLookup {
                let peer = link.peer
                Task { [weak self] in
                    if let key = await lookup(peer) {
                        _ = try? await self?.startEncryption(handle, ltk: key.ltk, ediv: key.ediv, rand: key.rand, level: key.level)
                    } else {
                        await self?.beginPairing(handle, with: pdu)
                    }
                }
                return
            }
            if let code = pdu.first.flatMap(SMP.Code.init(rawValue:)), code != .pairingRequest, code != .securityRequest {
                // A step of a pairing that is over: the peer sent it before our Pairing Failed
                // (or the timeout) reached it, and §3.5.5 ended that procedure. It starts no
                // new one and reports no second failure; BlueZ drops these too. Counted.
                strayPairingPDUs += 1
                return
            }
            if link.role == .peripheral, pdu.first == SMP.Code.pairingRequest.rawValue, pairingAttempts.isBlocked(link.peer, at: now) {
                // §2.3.6: refuse while the back-off for this peer runs.
                carryOut(links[handle]?.sendSMP(SMPAttemptTracker.refusal) ?? [], link: handle)
                return
            }
            smpSessions[handle] = makeSession(for: link)
        }
        guard var session = smpSessions[handle] else { return }
        let outputs = session.receive(pdu, at: now)
        smpSessions[handle] = session
        carryOut(outputs, smpLink: handle)
    }

    /// Starts an initiator session on a Security Request the lookup had no key for.
    private func beginPairing(_ handle: UInt16, with pdu: [UInt8]) {
        guard let link = gap.connections.first(where: { $0.handle == handle }), smpSessions[handle]?.isInProgress != true else { return }
        var session = makeSession(for: link)
        let outputs = session.receive(pdu, at: now)
        smpSessions[handle] = session
        carryOut(outputs, smpLink: handle)
    }

    /// A link's encryption changed: phase 3 (key distribution) may start (§3.6.1).
    func smpEncryptionChanged(_ handle: UInt16, encryption: LinkEncryption) {
        let keySize = encryption.keySize
        guard var session = smpSessions[handle], !session.isFinished else { return }
        if session.role == .responder, session.method == nil {
            // Our Security Request was answered with a stored key (§2.4.6): no pairing runs.
            smpSessions[handle] = nil
            let waiting = pairingWaiters.removeValue(forKey: handle) ?? []
            for waiter in waiting { waiter.resume(throwing: HostPairingError.encryptedWithStoredKey(encryption)) }
            return
        }
        guard session.isInProgress else { return }
        let outputs = session.encryptionChanged(keySize: UInt8(clamping: keySize), at: now)
        smpSessions[handle] = session
        carryOut(outputs, smpLink: handle)
    }

    /// The LTK an SMP session derived for this link, for the controller's request during
    /// pairing (the STK or the Secure Connections LTK, EDIV and Rand zero).
    func pairingKey(for request: LongTermKeyRequest) -> (longTermKey: UInt128, level: LinkSecurityLevel)? {
        guard let session = smpSessions[request.handle], session.isInProgress, let key = session.pendingLTK,
              request.ediv == 0, request.rand == 0 else { return nil }
        return (key, Self.level(of: session))
    }

    /// The SMP timers (§3.4).
    func smpTimerFired(at time: HostTime) {
        for handle in smpSessions.keys.sorted() {
            guard var session = smpSessions[handle], let deadline = session.nextDeadline, deadline <= time else { continue }
            let outputs = session.tick(now: time)
            smpSessions[handle] = session
            carryOut(outputs, smpLink: handle)
        }
    }

    /// The earliest SMP deadline.
    var smpNextDeadline: HostTime? { smpSessions.values.compactMap(\.nextDeadline).min() }

    /// A link went down: its pairing fails.
    func smpLinkClosed(_ handle: UInt16, reason: HCI.StatusCode) {
        smpSessions[handle] = nil
        let waiting = pairingWaiters.removeValue(forKey: handle) ?? []
        for waiter in waiting { waiter.resume(throwing: HostError.disconnected(handle: handle, reason: reason)) }
    }

    /// The transport is gone.
    func failPairingWaiters(_ error: HostError) {
        smpSessions = [:]
        let waiting = pairingWaiters
        pairingWaiters = [:]
        for waiter in waiting.values.joined() { waiter.resume(throwing: error) }
        securityOutput.finish()
    }

    // MARK: Outputs

    func carryOut(_ outputs: [SMPOutput], smpLink handle: UInt16) {
        let peer = gap.connections.first { $0.handle == handle }?.peer
        for output in outputs {
            switch output {
            case let .send(pdu):
                carryOut(links[handle]?.sendSMP(pdu) ?? [], link: handle)
            case let .startEncryption(ltk, ediv, rand):
                let level = smpSessions[handle].map(Self.level(of:)) ?? .unauthenticated
                Task { [weak self] in
                    do {
                        _ = try await self?.startEncryption(handle, ltk: ltk, ediv: ediv, rand: rand, level: level)
                    } catch {
                        await self?.pairingEncryptionFailed(handle)
                    }
                }
            case .ltkReady, .keysDistributed:
                break  // the controller's LTK request reads pendingLTK; keys come with completed
            case let .displayPasskey(passkey):
                let agent = pairingAgent
                Task { await agent?.displayPasskey(passkey, on: handle) }
            case .requestPasskey:
                let agent = pairingAgent
                Task { [weak self] in
                    let value = await agent?.enterPasskey(on: handle)
                    await self?.userAnswered(handle) { session, now in session.passkeyEntered(value, at: now) }
                }
            case let .confirmNumber(number):
                let agent = pairingAgent
                Task { [weak self] in
                    let accepted = await agent?.confirmNumber(number, on: handle) ?? false
                    await self?.userAnswered(handle) { session, now in session.numberConfirmed(accepted, at: now) }
                }
            case .confirmPairing:
                let agent = pairingAgent
                Task { [weak self] in
                    let accepted = await agent?.confirmPairing(on: handle) ?? true
                    await self?.userAnswered(handle) { session, now in session.pairingConfirmed(accepted, at: now) }
                }
            case let .completed(result):
                HostLog.smp.info("paired: \(result)", metadata: logMetadata(handle))
                if let peer {
                    pairingAttempts.recordSuccess(peer)
                    securityOutput.yield(.paired(connection: handle, peer: peer, result))
                }
                gap.setHasKey(handle, result.bonded)
                let waiting = pairingWaiters.removeValue(forKey: handle) ?? []
                for waiter in waiting { waiter.resume(returning: result) }
            case let .failed(failure):
                HostLog.smp.notice("pairing failed: \(failure)", metadata: logMetadata(handle))
                if let peer {
                    if failure != .received(.repeatedAttempts) { pairingAttempts.recordFailure(peer, at: now) }
                    securityOutput.yield(.pairingFailed(connection: handle, peer: peer, failure))
                }
                let waiting = pairingWaiters.removeValue(forKey: handle) ?? []
                for waiter in waiting { waiter.resume(throwing: HostPairingError.failed(failure)) }
            }
        }
        armTimer()
    }

    private func userAnswered(_ handle: UInt16, _ input: (inout SMPPairing, HostTime) -> [SMPOutput]) {
        guard var session = smpSessions[handle], session.isInProgress else { return }
        let outputs = input(&session, now)
        smpSessions[handle] = session
        carryOut(outputs, smpLink: handle)
    }

    private func pairingEncryptionFailed(_ handle: UInt16) {
        guard smpSessions[handle]?.isInProgress == true else { return }
        smpSessions[handle] = nil
        let waiting = pairingWaiters.removeValue(forKey: handle) ?? []
        for waiter in waiting { waiter.resume(throwing: HostPairingError.failed(.sent(.unspecifiedReason))) }
    }

    private func makeSession(for link: GAPConnection) -> SMPPairing {
        // Our address on the link: the random address when one is set (every command that
        // uses one sets it first), else the controller's public address.
        // With the controller's resolving list, the private addresses it used on the link
        // (Vol 3, Part H, §2.2.7: the addresses of connection establishment).
        let local = link.localPrivateAddress ?? gap.randomAddress ?? driver.controller?.address ?? BluetoothAddress(0)
        let random: any SMPRandomSource = pairingRandom?.split() ?? SMPSystemRandom()
        return SMPPairing(role: link.role == .central ? .initiator : .responder, configuration: smpConfiguration,
                          localAddress: local, peerAddress: link.peerPrivateAddress ?? link.peer, random: random)
    }

    /// The level a pairing's key gives (Vol 3, Part C, §10.2.1).
    static func level(of session: SMPPairing) -> LinkSecurityLevel {
        guard let method = session.method, method != .justWorks else { return .unauthenticated }
        return session.secureConnections && session.keySize == 16 ? .authenticatedSecureConnections : .authenticated
    }
}
