import BLEWire

/// An open LE credit-based connection-oriented channel of a ``Host`` (Core 5.4, Vol 3,
/// Part A, §3.4 and §10.1): what both sides agreed when it opened.
public struct HostChannel: Hashable, Sendable, CustomStringConvertible {
    /// The connection handle and this device's CID: the name every channel call takes.
    public let id: L2CAPChannelID
    /// The SPSM it was opened to.
    public let psm: UInt16
    /// The largest SDU this device accepts.
    public let localMTU: UInt16
    /// The largest SDU the peer accepts: ``Host/send(_:on:)`` refuses longer ones.
    public let peerMTU: UInt16
    /// The largest K-frame payload the peer accepts; SDUs are cut to it.
    public let peerMPS: UInt16

    /// A channel from its fields.
    public init(id: L2CAPChannelID, psm: UInt16, localMTU: UInt16, peerMTU: UInt16, peerMPS: UInt16) {
        self.id = id
        self.psm = psm
        self.localMTU = localMTU
        self.peerMTU = peerMTU
        self.peerMPS = peerMPS
    }

    /// "PSM 0x0080 on handle 1/CID 64 (MTU 512/512)".
    public var description: String {
        "PSM 0x\(String(psm, radix: 16, uppercase: true)) on \(id) (MTU \(localMTU)/\(peerMTU))"
    }
}

/// The parameters a server or a client offers for its channels (§4.22).
public struct HostChannelParameters: Hashable, Sendable {
    /// The largest SDU this device accepts (at least 23).
    public var mtu: UInt16
    /// The largest K-frame payload this device accepts (23–65 533).
    public var mps: UInt16
    /// The credits announced, and the level they are topped back up to.
    public var initialCredits: UInt16

    /// Parameters from their fields; by default 2048-octet SDUs, 247-octet K-frames (one
    /// 251-octet LL PDU with its L2CAP header) and 16 credits.
    public init(mtu: UInt16 = 2048, mps: UInt16 = 247, initialCredits: UInt16 = 16) {
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }
}

/// How a central ``Host`` answers a peripheral's Connection Parameter Update Request
/// (Vol 3, Part A, §4.20–4.21; Part C, §9.3.9).
public enum ConnectionParameterUpdatePolicy: Hashable, Sendable {
    /// Accept every request whose values are valid and apply it with HCI LE Connection
    /// Update; invalid ones are rejected by L2CAP itself.
    case acceptValid
    /// Reject every request (result 0x0001).
    case reject
    /// Accept a request only if it keeps Apple's Accessory Design Guidelines
    /// (``AccessoryDesignGuidelines``), as an iPhone does.
    case accessoryDesignGuidelines

    /// Whether a valid request for `parameters` is accepted.
    public func accepts(_ parameters: HCI.LEConnectionParameters) -> Bool {
        switch self {
        case .acceptValid: true
        case .reject: false
        case .accessoryDesignGuidelines: AccessoryDesignGuidelines.violation(of: parameters) == nil
        }
    }
}

/// Why a channel call failed.
public enum HostChannelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer refused the connection with this result (§4.23).
    case refused(L2CAP.CreditBasedConnectionResult)
    /// The channel closed for this reason; nothing more can be sent or read.
    case closed(L2CAPCloseReason)
    /// The SDU is longer than the peer's MTU.
    case sduExceedsPeerMTU(octets: Int, peerMTU: UInt16)
    /// No such channel is open.
    case unknownChannel(L2CAPChannelID)

    /// A sentence for logs and command-line output.
    public var description: String {
        switch self {
        case let .refused(result): return "the peer refused the channel: \(result)"
        case let .closed(reason): return "the channel closed: \(reason)"
        case let .sduExceedsPeerMTU(octets, peerMTU): return "an SDU of \(octets) octets exceeds the peer's MTU of \(peerMTU)"
        case let .unknownChannel(id): return "no channel \(id) is open"
        }
    }
}

/// A server registered with ``Host/listen(psm:parameters:)``.
struct ChannelListener {
    var parameters: HostChannelParameters
    var output: AsyncStream<HostChannel>.Continuation
}

/// The host's side of one channel: SDUs the app has not read yet, and who waits for what.
struct HostChannelState {
    var channel: HostChannel?
    var unread: [[UInt8]] = []
    var unreadHead = 0
    var readers: [CheckedContinuation<[UInt8]?, any Error>] = []
    /// Set by ``L2CAPOutput/sendBlocked(_:)`` until ``L2CAPOutput/sendResumed(_:)``.
    var blocked = false
    var senders: [CheckedContinuation<Void, any Error>] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var closed: L2CAPCloseReason?

    mutating func takeUnread() -> [UInt8]? {
        guard unreadHead < unread.count else { return nil }
        let sdu = unread[unreadHead]
        unreadHead += 1
        if unreadHead == unread.count {
            unread.removeAll(keepingCapacity: true)
            unreadHead = 0
        }
        return sdu
    }
}

extension Host {
    // MARK: Servers and clients

    /// Accepts LE credit-based connections to `psm` on every connection, present and
    /// future (§4.22); each opened channel comes out of the returned stream. Calling it
    /// again for the same PSM replaces the server and ends the earlier stream.
    public func listen(psm: UInt16, parameters: HostChannelParameters = .init()) -> AsyncStream<HostChannel> {
        let (stream, continuation) = AsyncStream.makeStream(of: HostChannel.self, bufferingPolicy: .unbounded)
        listeners[psm]?.output.finish()
        listeners[psm] = ChannelListener(parameters: parameters, output: continuation)
        for handle in links.keys {
            links[handle]?.listen(psm: psm, mtu: parameters.mtu, mps: parameters.mps, initialCredits: parameters.initialCredits)
        }
        return stream
    }

    /// Stops accepting connections to `psm`; open channels stay open.
    public func stopListening(psm: UInt16) {
        listeners.removeValue(forKey: psm)?.output.finish()
        for handle in links.keys { links[handle]?.stopListening(psm: psm) }
    }

    /// Opens a channel to the peer's `psm` on connection `handle` (§4.22) and returns it
    /// once the peer accepted.
    /// - Throws: ``HostChannelError/refused(_:)`` or ``HostChannelError/closed(_:)`` (no
    ///   answer within the RTX time, the link went down), or a ``HostError``.
    public func openChannel(psm: UInt16, on handle: UInt16, parameters: HostChannelParameters = .init()) async throws -> HostChannel {
        if let closed { throw closed }
        guard links[handle] != nil else { throw HostError.gap(.unknownConnection(handle: handle)) }
        return try await withCheckedThrowingContinuation { continuation in
            guard let (id, outputs) = links[handle]?.connect(psm: psm, mtu: parameters.mtu, mps: parameters.mps,
                                                             initialCredits: parameters.initialCredits, at: now) else {
                continuation.resume(throwing: HostError.gap(.unknownConnection(handle: handle)))
                return
            }
            channelOpenWaiters[id] = continuation
            carryOut(outputs, link: handle)
        }
    }

    /// Sends one SDU (§3.4.3, segmented to the peer's MPS). Suspends while the channel's
    /// earlier SDUs wait for credits, so a fast sender is paced by the peer: back-pressure,
    /// nothing dropped.
    /// - Throws: ``HostChannelError`` when the channel is closed or the SDU is too long.
    public func send(_ sdu: [UInt8], on channel: L2CAPChannelID) async throws {
        while let state = channels[channel], state.blocked, state.closed == nil {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                channels[channel]?.senders.append(continuation)
            }
        }
        guard let state = channels[channel], state.channel != nil else { throw HostChannelError.unknownChannel(channel) }
        if let reason = state.closed { throw HostChannelError.closed(reason) }
        let outputs = links[channel.handle]?.send(sdu: sdu, on: channel, at: now) ?? []
        for case let .sendRejected(_, rejection) in outputs {
            switch rejection {
            case .channelNotOpen: throw HostChannelError.unknownChannel(channel)
            case let .sduExceedsPeerMTU(peerMTU): throw HostChannelError.sduExceedsPeerMTU(octets: sdu.count, peerMTU: peerMTU)
            }
        }
        carryOut(outputs, link: channel.handle)
    }

    /// The next SDU received on the channel, in order; `nil` once the channel has closed
    /// and every SDU was read. Reading is what returns credits to the peer (with the
    /// host's hold limit), so an app that stops reading stops the peer.
    /// - Throws: ``HostChannelError/unknownChannel(_:)`` for a channel never opened.
    public func receive(on channel: L2CAPChannelID) async throws -> [UInt8]? {
        guard channels[channel]?.channel != nil else { throw HostChannelError.unknownChannel(channel) }
        if let sdu = channels[channel]?.takeUnread() {
            consumed(sdu: channel)
            return sdu
        }
        if channels[channel]?.closed != nil { return nil }
        return try await withCheckedThrowingContinuation { continuation in
            channels[channel]?.readers.append(continuation)
        }
    }

    /// Closes the channel with a Disconnection Request (§4.6) and returns once it is
    /// closed (answered, timed out, or the link went down).
    public func closeChannel(_ channel: L2CAPChannelID) async {
        guard let state = channels[channel], state.closed == nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            channels[channel]?.closeWaiters.append(continuation)
            carryOut(links[channel.handle]?.disconnect(channel, at: now) ?? [], link: channel.handle)
        }
    }

    /// A snapshot of the channel in its L2CAP link: credits, queue, state.
    public func channelStatus(_ channel: L2CAPChannelID) -> L2CAPChannelStatus? {
        links[channel.handle]?.channelStatus(channel)
    }

    /// A link's counters (frames, Command Rejects, channels closed for violations).
    public func l2capCounters(handle: UInt16) -> L2CAPCounters? { links[handle]?.counters }

    // MARK: Routing

    /// A new link: it serves every registered PSM.
    func linkOpened(_ handle: UInt16) {
        for (psm, listener) in listeners {
            let parameters = listener.parameters
            links[handle]?.listen(psm: psm, mtu: parameters.mtu, mps: parameters.mps, initialCredits: parameters.initialCredits)
        }
    }

    /// Routes one link output about channels or parameter updates; `false` for outputs
    /// that belong to the layers above (ATT, SMP).
    func routeChannelOutput(_ output: L2CAPOutput, link handle: UInt16) -> Bool {
        switch output {
        case let .channelOpened(id, peerMTU, peerMPS):
            let status = links[handle]?.channelStatus(id)
            let channel = HostChannel(id: id, psm: status?.psm ?? 0, localMTU: status?.localMTU ?? 0,
                                      peerMTU: peerMTU, peerMPS: peerMPS)
            channels[id] = HostChannelState(channel: channel)
            HostLog.l2cap.info("channel open: PSM 0x\(String(channel.psm, radix: 16)), peer MTU \(peerMTU)",
                               metadata: logMetadata(handle, cid: id.localCID.rawValue))
            if let waiter = channelOpenWaiters.removeValue(forKey: id) {
                waiter.resume(returning: channel)
            } else {
                listeners[channel.psm]?.output.yield(channel)
            }
        case let .channelRefused(id, result):
            HostLog.l2cap.notice("channel refused: \(result)", metadata: logMetadata(handle))
            channelOpenWaiters.removeValue(forKey: id)?.resume(throwing: HostChannelError.refused(result))
        case let .sdu(sdu, id):
            guard channels[id] != nil else { break }
            if let reader = channels[id]?.readers.first {
                channels[id]?.readers.removeFirst()
                reader.resume(returning: sdu)
                consumed(sdu: id)
            } else {
                channels[id]?.unread.append(sdu)
            }
        case let .channelClosed(id, reason):
            HostLog.l2cap.info("channel closed: \(reason)", metadata: logMetadata(handle, cid: id.localCID.rawValue))
            channelOpenWaiters.removeValue(forKey: id)?.resume(throwing: HostChannelError.closed(reason))
            channelClosed(id, reason: reason)
        case let .sendBlocked(id):
            channels[id]?.blocked = true
        case let .sendResumed(id):
            channels[id]?.blocked = false
            let senders = channels[id]?.senders ?? []
            channels[id]?.senders = []
            for sender in senders { sender.resume() }
        case .sendRejected:
            break  // answered synchronously by send(_:on:)
        case let .connectionParameterUpdateRequested(intervalMin, intervalMax, latency, timeout, identifier):
            answerParameterUpdate(handle: handle, identifier: identifier, HCI.LEConnectionParameters(
                connectionIntervalMin: intervalMin, connectionIntervalMax: intervalMax, maxLatency: latency,
                supervisionTimeout: timeout, minCELength: 0, maxCELength: 0))
            return false  // also reported to l2capEvents
        case let .connectionParameterUpdateAnswered(accepted):
            if !accepted {
                parameterUpdateWaiters.removeValue(forKey: handle)?.resume(throwing: HostError.parameterUpdateRejected)
            }
            return false
        case .sendFrame, .att, .smp:
            return false
        }
        return true
    }

    /// The app read one SDU: its credits may go back to the peer.
    private func consumed(sdu channel: L2CAPChannelID) {
        carryOut(links[channel.handle]?.sduConsumed(on: channel) ?? [], link: channel.handle)
    }

    private func channelClosed(_ id: L2CAPChannelID, reason: L2CAPCloseReason) {
        guard var state = channels[id] else { return }
        state.closed = reason
        let readers = state.readers, senders = state.senders, closers = state.closeWaiters
        state.readers = []
        state.senders = []
        state.closeWaiters = []
        state.blocked = false
        channels[id] = state
        for reader in readers { reader.resume(returning: nil) }
        for sender in senders { sender.resume(throwing: HostChannelError.closed(reason)) }
        for closer in closers { closer.resume() }
    }
}
