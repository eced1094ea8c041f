import BLEWire

/// One Attribute Protocol bearer — the ATT fixed channel of one LE connection (Core 5.4,
/// Vol 3, Part F, §3.3) — as a sans-IO state machine shared by the GATT client and server
/// of that connection.
///
/// It sorts what the peer sends into responses to our request, requests and commands for
/// our server, notifications and indications for our client, and confirmations of our
/// indications. It enforces the one-at-a-time rules of §3.3.2 — one outstanding request
/// and one outstanding indication each way, later ones queued in order — and the 30-second
/// transaction timeout of §3.3.3: when a request or indication goes unanswered that long,
/// the bearer closes, sends nothing more, and fails everything pending with
/// ``ATTBearerError/timedOut``. It owns ATT_MTU (§3.2.8, §3.4.2): 23 until an exchange,
/// then the smaller of both receive MTUs.
///
/// Notifications and commands are not transactions: they go out at once. Pacing them by
/// the controller's buffers is the host's job; ``queuedRequestCount`` and
/// ``queuedIndicationCount`` say what waits here.
///
/// No clock: every call that may start a timer takes `now`; arm a timer for
/// ``nextDeadline`` and call ``tick(now:)`` when it fires. Nothing traps on peer bytes.
public struct ATTBearer: Sendable {
    /// A request of ours, waiting in the queue or for its response.
    struct Request: Sendable {
        var id: ATTRequestID
        var pdu: [UInt8]
        var deadline: HostTime = 0
        var opcode: UInt8 { pdu.first ?? 0 }
    }

    /// An indication of ours, waiting in the queue or for its confirmation.
    struct Indication: Sendable {
        var id: ATTIndicationID
        var pdu: [UInt8]
        var deadline: HostTime = 0
    }

    /// The bearer's fixed settings.
    public let configuration: ATTBearerConfiguration
    /// The current ATT_MTU: 23 until an MTU exchange completes (§3.2.8).
    public internal(set) var mtu = ATTBearerConfiguration.defaultMTU
    /// What the bearer has seen so far.
    public internal(set) var counters = ATTBearerCounters()
    /// Why the bearer closed, or `nil` while it is open.
    public internal(set) var closeReason: ATTBearerError?

    var outstandingRequest: Request?
    var queuedRequests = ATTFIFO<Request>()
    var nextRequestNumber: UInt64 = 1
    /// Our client sent its one Exchange MTU Request (§3.4.2.1), with this Client Rx MTU.
    var clientRxMTUSent: Int?
    /// The peer's client asked a request our server has not answered yet.
    var peerRequestOutstanding = false
    /// The peer's client already exchanged the MTU with our server.
    var peerExchangedMTU = false
    var outstandingIndication: Indication?
    var queuedIndications = ATTFIFO<Indication>()
    var nextIndicationNumber: UInt64 = 1
    /// We delivered an indication from the peer and have not confirmed it yet.
    public internal(set) var indicationAwaitingConfirmation = false

    /// A bearer at the default MTU with nothing outstanding.
    public init(configuration: ATTBearerConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Whether the bearer closed (timeout or disconnection) and sends nothing more.
    public var isClosed: Bool { closeReason != nil }
    /// Whether one of our requests waits for its response.
    public var hasOutstandingRequest: Bool { outstandingRequest != nil }
    /// Requests waiting behind the outstanding one.
    public var queuedRequestCount: Int { queuedRequests.count }
    /// Whether one of our indications waits for its confirmation.
    public var hasOutstandingIndication: Bool { outstandingIndication != nil }
    /// Indications waiting behind the outstanding one.
    public var queuedIndicationCount: Int { queuedIndications.count }
    /// Whether the peer's client waits for our server's response.
    public var isAwaitingLocalResponse: Bool { peerRequestOutstanding }

    // MARK: Timers

    /// When the oldest transaction times out, or `nil` when none is pending.
    public var nextDeadline: HostTime? {
        guard !isClosed else { return nil }
        switch (outstandingRequest?.deadline, outstandingIndication?.deadline) {
        case let (request?, indication?): return min(request, indication)
        case let (request?, nil): return request
        case let (nil, indication?): return indication
        case (nil, nil): return nil
        }
    }

    /// Closes the bearer when a transaction has waited past its deadline (§3.3.3): "a
    /// transaction not completed within 30 seconds shall time out … no more ATT PDUs shall
    /// be sent on this bearer".
    /// - Returns: the failures of every pending and queued operation, then ``ATTBearerOutput/closed(_:)``;
    ///   nothing when no deadline has passed.
    public mutating func tick(now: HostTime) -> [ATTBearerOutput] {
        guard let deadline = nextDeadline, deadline <= now else { return [] }
        return close(.timedOut)
    }

    /// Ends the bearer because the connection is gone.
    /// - Returns: the failures of every pending and queued operation, then ``ATTBearerOutput/closed(_:)``;
    ///   nothing when the bearer had already closed.
    public mutating func disconnected() -> [ATTBearerOutput] {
        guard !isClosed else { return [] }
        return close(.disconnected)
    }

    mutating func close(_ reason: ATTBearerError) -> [ATTBearerOutput] {
        closeReason = reason
        var outputs: [ATTBearerOutput] = []
        if let request = outstandingRequest { outputs.append(.requestFailed(request.id, reason)) }
        outstandingRequest = nil
        for request in queuedRequests.drain() { outputs.append(.requestFailed(request.id, reason)) }
        if let indication = outstandingIndication { outputs.append(.indicationFailed(indication.id, reason)) }
        outstandingIndication = nil
        for indication in queuedIndications.drain() { outputs.append(.indicationFailed(indication.id, reason)) }
        peerRequestOutstanding = false
        indicationAwaitingConfirmation = false
        outputs.append(.closed(reason))
        return outputs
    }

    // MARK: Sending helpers

    mutating func emit(_ pdu: [UInt8]) -> ATTBearerOutput {
        counters.pdusSent += 1
        return .send(pdu)
    }

    /// Sends the next queued request if none is outstanding.
    mutating func startNextRequest(at now: HostTime, into outputs: inout [ATTBearerOutput]) {
        guard outstandingRequest == nil, !isClosed, var next = queuedRequests.pop() else { return }
        next.deadline = now + configuration.transactionTimeout
        outstandingRequest = next
        outputs.append(emit(next.pdu))
    }

    /// Sends the next queued indication if none is outstanding.
    mutating func startNextIndication(at now: HostTime, into outputs: inout [ATTBearerOutput]) {
        guard outstandingIndication == nil, !isClosed, var next = queuedIndications.pop() else { return }
        next.deadline = now + configuration.transactionTimeout
        outstandingIndication = next
        outputs.append(emit(next.pdu))
    }
}
