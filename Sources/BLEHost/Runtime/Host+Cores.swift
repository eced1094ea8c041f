import BLELogging
import BLEWire

extension Host {
    /// A request waiting for the GAP event that ends its procedure.
    struct Waiter {
        /// `nil` while the event is not the one waited for.
        var match: @Sendable (GAPEvent) -> Result<GAPEvent, GAPError>?
        var continuation: CheckedContinuation<GAPEvent, any Error>
    }

    /// Runs one GAP request and waits for the event `match` accepts. A refused request
    /// throws at once, without waiting.
    @discardableResult
    func perform(
        _ request: (inout GAPCore, HostTime) throws(GAPError) -> [GAPOutput],
        until match: @escaping @Sendable (GAPEvent) -> Result<GAPEvent, GAPError>?
    ) async throws -> GAPEvent {
        if let closed { throw closed }
        guard driver.isReady else { throw HostError.notStarted }
        let outputs: [GAPOutput]
        do throws(GAPError) {
            outputs = try request(&gap, now)
        } catch {
            throw HostError.gap(error)
        }
        return try await withCheckedThrowingContinuation { continuation in
            // Registered before the outputs run, so an answer in the same step is not missed.
            waiters.append(Waiter(match: match, continuation: continuation))
            apply(outputs)
        }
    }

    // MARK: Inputs

    /// One packet from the controller.
    func received(_ packet: H4.Packet) {
        guard closed == nil else { return }
        heardFromController = true
        record(packet, outgoing: false)
        let before = driver.counters
        carryOut(driver.receive(packet, at: now))
        logDriverRefusals(since: before)
        wakeACLRoomWaiters()
    }

    /// Packets from an inbox (``HostPacketInbox``), in order, in one turn of the actor.
    func received(_ packets: [H4.Packet]) {
        for packet in packets {
            guard closed == nil else { return }
            heardFromController = true
            record(packet, outgoing: false)
            let before = driver.counters
            carryOut(driver.receive(packet, at: now))
            logDriverRefusals(since: before)
        }
        wakeACLRoomWaiters()
    }

    /// The transport is gone: every waiting request fails and the streams end. When it
    /// ended on the controller's side before the controller sent anything, the error says
    /// that the controller may be another host's: a served controller (`ble sim serve`, a
    /// proxy) closes a second host's connection at once, and cannot say why over H4.
    func transportEnded(_ why: String, byHost: Bool = false) {
        guard closed == nil else { return }
        let error = HostError.transportClosed(byHost || heardFromController ? why : why + Self.refusedHint)
        closed = error
        startWaiter?.resume(throwing: error)
        startWaiter = nil
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.continuation.resume(throwing: error) }
        scanOutput?.finish()
        scanOutput = nil
        failPeriodicSessions(error)
        failChannelWaiters(error)
        failATTWaiters(error)
        failPairingWaiters(error)
        failResolvingListWaiters()
        eventOutput.finish()
        l2capOutput.finish()
        armTimer()
    }

    /// Added to why the transport closed when the controller never sent anything.
    static let refusedHint = " before the controller sent anything: it may already have a host attached "
        + "(a served controller takes one host at a time; close the other first)"

    // MARK: Outputs

    /// Carries out the driver's outputs: packets to the transport, frames to their link,
    /// everything else to GAP.
    func carryOut(_ outputs: [HCIDriverOutput]) {
        let time = now
        for output in outputs {
            switch output {
            case let .send(packet):
                if case let .command(command) = packet {
                    HostLog.hci.debug("→ \(command.opcode.name ?? command.opcode.description)", metadata: logMetadata())
                }
                write(packet)
            case let .ready(info):
                HostLog.hci.info("controller ready: \(info.address.map { "\($0)" } ?? "no public address")", metadata: logMetadata())
                startWaiter?.resume(returning: info)
                startWaiter = nil
                apply(gap.handle(output, at: time))
                privacyControllerReady(info)
            case let .failed(error):
                HostLog.hci.error("the controller failed: \(error)", metadata: logMetadata())
                startWaiter?.resume(throwing: HostError.startupFailed(error))
                startWaiter = nil
                apply(gap.handle(output, at: time))
            case let .l2capFrame(handle, frame):
                if let produced = withL2CAPLink(handle, { $0.receive(frame: frame, at: time) }) { carryOut(produced, link: handle) }
            case let .linkLost(handle, reason):
                if let produced = links[handle]?.linkDisconnected() { carryOut(produced, link: handle) }
                links[handle] = nil
                attLinkClosed(handle, reason: reason)
                smpLinkClosed(handle, reason: reason)
                heldUntilKeySize[handle] = nil
                apply(gap.handle(output, at: time))
            case let .commandCompleted(token, result) where addressResolution.owns(token):
                resolvingListCommandCompleted(token, result)
            case let .commandCompleted(_, .failure(error)):
                HostLog.hci.warning("command failed: \(error)", metadata: logMetadata())
                apply(gap.handle(output, at: time))
            case .commandCompleted, .event:
                apply(gap.handle(output, at: time))
            }
        }
        armTimer()
    }

    /// Carries out GAP's outputs: commands to the driver, events to the waiters and streams.
    func apply(_ outputs: [GAPOutput]) {
        for output in outputs {
            switch output {
            case let .submit(command, token):
                carryOut(driver.submit(command, token: token, at: now))
            case let .event(event):
                deliver(event)
            }
        }
        setDuePrivateAddress()
        armTimer()
    }

    /// Carries out a link's outputs: frames to the driver, the rest to the layers above.
    func carryOut(_ outputs: [L2CAPOutput], link handle: UInt16) {
        for output in outputs {
            if case let .sendFrame(frame) = output {
                carryOut(driver.sendL2CAP(frame, handle: handle, at: now))
            } else if gap.isAwaitingKeySize(handle), output.isFixedChannelPDU {
                // Held until the link's security level is settled (Encryption Change v1 then
                // Read Encryption Key Size): a request checked now would meet the old level.
                heldUntilKeySize[handle, default: []].append(output)
            } else if case let .att(pdu) = output {
                attReceived(pdu, link: handle)
            } else if case let .smp(pdu) = output {
                smpReceived(pdu, link: handle)
            } else if !routeChannelOutput(output, link: handle) {
                l2capOutput.yield(HostL2CAPEvent(handle: handle, output: output))
            }
        }
    }

    /// Hands a link's held ATT and SMP PDUs on, in order, once its level is settled.
    private func releaseHeldPDUs(_ handle: UInt16) {
        guard let held = heldUntilKeySize.removeValue(forKey: handle), !held.isEmpty else { return }
        carryOut(held, link: handle)
    }

    private func deliver(_ event: GAPEvent) {
        // Periodic reports go to their sync's stream only, as advertisements go to the scan's.
        if deliverPeriodic(event) { return }
        switch event {
        case let .disconnected(handle, reason):
            lastDisconnectionReasons[handle] = reason
            HostLog.gap.info("link down: \(reason)", metadata: logMetadata(handle))
        case let .connected(link) where links[link.handle] == nil:
            HostLog.gap.info("link up with \(link.peer) as \(link.role == .central ? "central" : "peripheral")",
                             metadata: logMetadata(link.handle))
            lastDisconnectionReasons[link.handle] = nil
            links[link.handle] = L2CAPLink(
                handle: link.handle, role: link.role == .central ? .central : .peripheral, configuration: l2capConfiguration)
            linkOpened(link.handle)
            attLinkOpened(link.handle)
        case let .longTermKeyRequested(request):
            answer(request)
        case let .encryptionChanged(handle, encryption), let .encryptionKeyRefreshed(handle, encryption):
            // Before anyone else hears of it: the initiator of a pairing accepts the
            // responder's keys only on an encrypted link (Vol 3, Part H, §3.6.1).
            smpEncryptionChanged(handle, encryption: encryption)
            releaseHeldPDUs(handle)
        case let .connectionFailed(peer, error):
            HostLog.gap.notice("connection to \(peer) failed: \(error)", metadata: logMetadata())
        case let .encryptionFailed(handle, status):
            HostLog.smp.warning("encryption failed: \(status)", metadata: logMetadata(handle))
            releaseHeldPDUs(handle)
        case let .advertisement(advertisement):
            // Reports go to the scan's own stream only: at hundreds a second they would
            // push link events out of the bounded ``events`` buffer.
            scanOutput?.yield(identified(advertisement))
            return
        default:
            break
        }
        settleParameterUpdate(after: event)
        eventOutput.yield(event)
        // An answer settles the oldest request it matches; a link going down settles every
        // request on it (a feature read and a PHY update may both be waiting).
        let settlesAll = if case .disconnected = event { true } else { false }
        while let index = waiters.firstIndex(where: { $0.match(event) != nil }) {
            let waiter = waiters.remove(at: index)
            switch waiter.match(event) {
            case let .success(matched)?: waiter.continuation.resume(returning: matched)
            case let .failure(error)?: waiter.continuation.resume(throwing: HostError.gap(error))
            case nil: break
            }
            if !settlesAll { break }
        }
    }
}
