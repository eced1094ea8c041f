import BLEWire

/// L2CAP on one LE connection (Core 5.4, Vol 3, Part A), as a sans-IO state machine: the
/// HCI driver hands in whole reassembled B-frames, the layers above hand in ATT and SMP
/// PDUs, SDUs and procedure requests; every call returns the frames to send and the
/// events to deliver. No clock, no I/O: inputs that may start or end a timer carry `now`,
/// and ``nextDeadline`` says when ``timerFired(at:)`` is due.
///
/// It carries the fixed channels ATT (0x0004) and SMP (0x0006) through unchanged, runs
/// the LE signaling channel (0x0005) — Command Reject, Connection Parameter Update, LE
/// credit-based connection, Flow Control Credit Indication, disconnection — and the LE
/// credit-based channels themselves (§3.4.3, §10.1).
public struct L2CAPLink: Sendable {
    /// One registered PSM server (`listen`), with the parameters its channels announce.
    struct Server: Hashable, Sendable {
        var mtu: UInt16
        var mps: UInt16
        var initialCredits: UInt16
    }

    /// A signaling request this device sent and still waits to have answered.
    struct PendingRequest: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case connect(localCID: UInt16)
            case disconnect(localCID: UInt16)
            case parameterUpdate
        }

        var identifier: UInt8
        var deadline: HostTime
        var kind: Kind
    }

    /// The ACL connection handle this link serves.
    public let handle: UInt16
    /// This device's role on the connection.
    public let role: L2CAPRole
    /// The link's fixed settings.
    public let configuration: L2CAPConfiguration
    /// What the link has seen and done so far.
    public internal(set) var counters = L2CAPCounters()

    /// Credit-based channels by local CID.
    var channels: [UInt16: CreditBasedChannel] = [:]
    /// Local CID by the peer's CID, for credit indications and duplicate checks.
    var localCIDByRemote: [UInt16: UInt16] = [:]
    /// PSM servers by SPSM.
    var servers: [UInt16: Server] = [:]
    /// Requests awaiting an answer, oldest first (so timeouts fire in a fixed order).
    var pendingRequests: [PendingRequest] = []
    /// Central: identifiers of parameter update requests handed to the host, unanswered.
    var parameterUpdatesAwaitingAnswer: [UInt8] = []
    /// The next signaling identifier to try; never 0 (§4).
    var nextIdentifier: UInt8 = 1
    /// The next local CID to try for a new channel.
    var nextLocalCID: UInt16 = L2CAP.ChannelIdentifier.leDynamicRange.lowerBound

    /// A link for connection `handle`, with no channels and no servers.
    /// - Parameters:
    ///   - handle: the ACL connection handle, carried in every ``L2CAPChannelID``.
    ///   - role: this device's link-layer role, which decides who may ask for parameter updates.
    ///   - configuration: RTX timeout and signaling MTU.
    public init(handle: UInt16, role: L2CAPRole, configuration: L2CAPConfiguration = .init()) {
        self.handle = handle
        self.role = role
        self.configuration = configuration
    }

    // MARK: Frames from the driver

    /// Takes one whole B-frame received on this connection (§3.1).
    ///
    /// Fixed-channel payloads come out as ``L2CAPOutput/att(_:)`` and ``L2CAPOutput/smp(_:)``;
    /// signaling commands are answered; K-frames are reassembled into SDUs. A frame whose
    /// length field disagrees with its size, or for a CID nothing listens on, is dropped
    /// and counted (``counters``).
    /// - Parameters:
    ///   - frame: the Basic L2CAP header and exactly its payload.
    ///   - now: the current time, for timers of requests this frame may cause.
    /// - Returns: frames to send and events for the host, in order.
    public mutating func receive(frame: [UInt8], at now: HostTime) -> [L2CAPOutput] {
        counters.framesReceived += 1
        guard let basic = try? L2CAP.BasicFrame(decoding: frame) else {
            counters.malformedFramesDropped += 1
            return []
        }
        switch basic.channelIdentifier {
        case .attributeProtocol:
            return [.att(Array(basic.payload))]
        case .securityManager:
            return [.smp(Array(basic.payload))]
        case .leSignaling:
            return receiveSignaling(basic.payload, at: now)
        default:
            return receiveKFrame(basic.payload, on: basic.channelIdentifier.rawValue, at: now)
        }
    }

    // MARK: Fixed channels

    /// Sends an ATT PDU on the Attribute Protocol fixed channel, CID 0x0004 (§2.1).
    /// - Returns: the B-frame to send.
    public mutating func sendATT(_ pdu: [UInt8]) -> [L2CAPOutput] {
        [basicFrame(to: .attributeProtocol, payload: pdu[...])]
    }

    /// Sends an SMP PDU on the Security Manager fixed channel, CID 0x0006 (§2.1).
    /// - Returns: the B-frame to send.
    public mutating func sendSMP(_ pdu: [UInt8]) -> [L2CAPOutput] {
        [basicFrame(to: .securityManager, payload: pdu[...])]
    }

    // MARK: Timers

    /// The earliest time a signaling request times out, or `nil` when none is pending.
    public var nextDeadline: HostTime? {
        pendingRequests.lazy.map(\.deadline).min()
    }

    /// Gives up every request whose RTX timer has expired by `now` (§6.2.1): a connect
    /// attempt ends with ``L2CAPCloseReason/responseTimeout``, an unanswered disconnection
    /// frees its CID, a parameter update reads as not accepted.
    /// - Returns: the events for the host, oldest request first.
    public mutating func timerFired(at now: HostTime) -> [L2CAPOutput] {
        var outputs: [L2CAPOutput] = []
        let expired = pendingRequests.filter { $0.deadline <= now }
        guard !expired.isEmpty else { return [] }
        pendingRequests.removeAll { $0.deadline <= now }
        for request in expired {
            requestFailed(request.kind, reason: .responseTimeout, into: &outputs)
        }
        return outputs
    }

    /// Ends every channel and pending request because the ACL connection is gone; the
    /// link must not be used afterwards.
    /// - Returns: ``L2CAPOutput/channelClosed(_:reason:)`` with ``L2CAPCloseReason/linkDisconnected``
    ///   for each channel the host still considers open or opening, in CID order, and a
    ///   not-accepted answer for an unanswered parameter update request.
    public mutating func linkDisconnected() -> [L2CAPOutput] {
        var outputs: [L2CAPOutput] = []
        for cid in channels.keys.sorted() {
            guard let channel = channels[cid] else { continue }
            if channel.state == .open || channel.state == .connecting {
                outputs.append(.channelClosed(channel.id, reason: .linkDisconnected))
            }
        }
        if pendingRequests.contains(where: { $0.kind == .parameterUpdate }) {
            outputs.append(.connectionParameterUpdateAnswered(accepted: false))
        }
        channels = [:]
        localCIDByRemote = [:]
        pendingRequests = []
        parameterUpdatesAwaitingAnswer = []
        return outputs
    }

    // MARK: Helpers shared by the procedures

    /// A B-frame carrying `payload` to `channel`, counted as sent.
    mutating func basicFrame(to channel: L2CAP.ChannelIdentifier, payload: ArraySlice<UInt8>) -> L2CAPOutput {
        var writer = ByteWriter(capacity: L2CAP.BasicFrame.Header.size + payload.count)
        writer.write(UInt16(truncatingIfNeeded: payload.count))
        writer.write(channel)
        writer.write(contentsOf: payload)
        counters.framesSent += 1
        return .sendFrame(writer.bytes)
    }

    /// A C-frame carrying one signaling command on CID 0x0005.
    mutating func signalingFrame(_ command: L2CAP.LESignalingCommand) -> L2CAPOutput {
        basicFrame(to: .leSignaling, payload: command.encoded()[...])
    }

    /// A fresh identifier for a request: 1–255 cycling, never 0, skipping identifiers of
    /// requests still pending (§4: a new request needs a new identifier).
    mutating func allocateIdentifier() -> UInt8 {
        for _ in 0 ..< 255 {
            let candidate = nextIdentifier
            nextIdentifier = candidate == UInt8.max ? 1 : candidate + 1
            if !pendingRequests.contains(where: { $0.identifier == candidate }) { return candidate }
        }
        let fallback = nextIdentifier
        nextIdentifier = fallback == UInt8.max ? 1 : fallback + 1
        return fallback
    }

    /// Sends a request and starts its RTX timer.
    mutating func sendRequest(_ kind: PendingRequest.Kind, at now: HostTime,
                              _ command: (UInt8) -> L2CAP.LESignalingCommand) -> L2CAPOutput {
        let identifier = allocateIdentifier()
        pendingRequests.append(PendingRequest(identifier: identifier, deadline: now + configuration.signalingTimeout, kind: kind))
        return signalingFrame(command(identifier))
    }

    /// Removes and returns the pending request with `identifier` if `matches` accepts its
    /// kind; a response that matches nothing is discarded by the caller.
    mutating func takePendingRequest(identifier: UInt8, where matches: (PendingRequest.Kind) -> Bool) -> PendingRequest.Kind? {
        guard let index = pendingRequests.firstIndex(where: { $0.identifier == identifier && matches($0.kind) }) else {
            return nil
        }
        return pendingRequests.remove(at: index).kind
    }

    /// Ends a request that was rejected or timed out, reporting what the host waits for.
    mutating func requestFailed(_ kind: PendingRequest.Kind, reason: L2CAPCloseReason, into outputs: inout [L2CAPOutput]) {
        switch kind {
        case let .connect(localCID):
            guard let channel = removeChannel(localCID) else { return }
            if channel.state == .connecting {
                outputs.append(.channelClosed(channel.id, reason: reason))
            }
        case let .disconnect(localCID):
            _ = removeChannel(localCID)
        case .parameterUpdate:
            outputs.append(.connectionParameterUpdateAnswered(accepted: false))
        }
    }

    /// Forgets a channel and its CID mapping.
    mutating func removeChannel(_ localCID: UInt16) -> CreditBasedChannel? {
        guard let channel = channels.removeValue(forKey: localCID) else { return nil }
        if let remote = channel.remoteCID, localCIDByRemote[remote.rawValue] == localCID {
            localCIDByRemote[remote.rawValue] = nil
        }
        return channel
    }
}
