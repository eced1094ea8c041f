import BLEWire

/// Fixed settings of one ATT bearer (Core 5.4, Vol 3, Part F, §3.2.8, §3.3.3).
public struct ATTBearerConfiguration: Hashable, Sendable {
    /// The ATT_MTU every LE bearer starts with (§3.2.8): 23 octets.
    public static let defaultMTU = 23
    /// The largest receive MTU worth announcing: an attribute value is at most 512 octets
    /// (§3.2.9), so 517 fits a whole value in a Read Response with room for the opcode and
    /// the 4 octets a notification or Prepare Write needs.
    public static let maximumMTU = 517
    /// The ATT transaction timeout (§3.3.3): 30 seconds, in microseconds.
    public static let defaultTransactionTimeout: HostTime = 30_000_000

    /// The MTU this device can receive, announced in Exchange MTU Request and Response
    /// (§3.4.2); clamped to 23…517.
    public var receiveMTU: Int
    /// How long a request or an indication may wait for its answer before the bearer is
    /// closed (§3.3.3). 30 s unless a test wants otherwise.
    public var transactionTimeout: HostTime

    /// A configuration; 517 octets and 30 seconds by default.
    public init(receiveMTU: Int = ATTBearerConfiguration.maximumMTU,
                transactionTimeout: HostTime = ATTBearerConfiguration.defaultTransactionTimeout) {
        self.receiveMTU = min(max(receiveMTU, ATTBearerConfiguration.defaultMTU), ATTBearerConfiguration.maximumMTU)
        self.transactionTimeout = transactionTimeout
    }
}

/// Why the bearer could not carry out something asked of it, or why it ended.
public enum ATTBearerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A request or indication got no answer within the transaction timeout; the bearer is
    /// closed and sends nothing more (Core 5.4, Vol 3, Part F, §3.3.3).
    case timedOut
    /// The connection is gone.
    case disconnected
    /// The peer's answer to our request has the right opcode but cannot be decoded.
    case malformedResponse(WireError)
    /// The PDU is longer than the current ATT_MTU (§3.2.8): carries its length and the MTU.
    case pduTooLong(length: Int, mtu: Int)
    /// The octets are not a PDU of the kind the call sends (e.g. a response passed as a
    /// request); carries the opcode octet, or 0 for an empty PDU.
    case wrongKindOfPDU(UInt8)
    /// The client's Exchange MTU Request may be sent once per connection (§3.4.2.1).
    case mtuAlreadyExchanged

    public var description: String {
        switch self {
        case .timedOut: return "the ATT transaction timed out after 30 seconds and the bearer is closed"
        case .disconnected: return "the connection is gone"
        case let .malformedResponse(error): return "the peer's response is malformed: \(error)"
        case let .pduTooLong(length, mtu): return "a \(length)-octet PDU does not fit ATT_MTU \(mtu)"
        case let .wrongKindOfPDU(opcode): return "opcode 0x\(String(opcode, radix: 16, uppercase: true)) is not allowed here"
        case .mtuAlreadyExchanged: return "the MTU was already exchanged on this connection"
        }
    }
}

/// Identifies one request sent through ``ATTBearer/sendRequest(_:at:)``, so its answer can
/// be matched to whoever asked.
public struct ATTRequestID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Sequence number, from 1, per bearer.
    public let rawValue: UInt64
    /// An identifier from its number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "request #\(rawValue)" }
}

/// Identifies one indication sent through ``ATTBearer/sendIndication(_:at:)``.
public struct ATTIndicationID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Sequence number, from 1, per bearer.
    public let rawValue: UInt64
    /// An identifier from its number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "indication #\(rawValue)" }
}

/// What the bearer asks its owner to do or tells it, in order.
public enum ATTBearerOutput: Hashable, Sendable {
    /// Send this ATT PDU on the Attribute Protocol channel (L2CAP CID 0x0004).
    case send([UInt8])
    /// Our request got its response — the matching response PDU or an Error Response
    /// naming the request's opcode (§3.4.1.1).
    case response(ATTRequestID, ATT.PDU)
    /// Our request ended without a response.
    case requestFailed(ATTRequestID, ATTBearerError)
    /// A request from the peer's client, for the GATT server, as received (§3.3.2). The
    /// bearer does not decode it beyond its opcode: the server decodes it and answers —
    /// Invalid PDU for a malformed one, Request Not Supported for an unknown opcode —
    /// with ``ATTBearer/sendResponse(_:)``. Exchange MTU Request is the exception: the
    /// bearer answers it itself, because it owns ATT_MTU.
    case incomingRequest([UInt8])
    /// A command from the peer's client (Write Command, Signed Write Command), as received;
    /// it gets no response (§3.4.5.3, §3.4.5.4). Unknown commands are dropped (§3.3.1).
    case incomingCommand([UInt8])
    /// A Handle Value Notification from the peer's server (§3.4.7.1).
    case notification(ATT.HandleValueNotification)
    /// A Multiple Handle Value Notification from the peer's server (§3.4.7.4).
    case multipleNotification(ATT.MultipleHandleValueNotification)
    /// A Handle Value Indication from the peer's server (§3.4.7.2); confirm it with
    /// ``ATTBearer/confirmIndication()`` once it has been accepted.
    case indication(ATT.HandleValueIndication)
    /// The peer confirmed our indication (§3.4.7.3).
    case indicationConfirmed(ATTIndicationID)
    /// Our indication ended unconfirmed.
    case indicationFailed(ATTIndicationID, ATTBearerError)
    /// ATT_MTU changed after an MTU exchange (§3.4.2): the new value.
    case mtuChanged(Int)
    /// The bearer closed — on a transaction timeout or a disconnection — and sends nothing more.
    case closed(ATTBearerError)
}

/// What a bearer has seen, for diagnostics and tests.
public struct ATTBearerCounters: Hashable, Sendable {
    /// PDUs handed to ``ATTBearer/receive(_:at:)``.
    public var pdusReceived = 0
    /// PDUs the bearer asked to send.
    public var pdusSent = 0
    /// Responses, Error Responses and confirmations that matched nothing outstanding; ignored.
    public var unmatchedResponsesIgnored = 0
    /// Peer PDUs that could not be decoded (notifications, indications, unmatched responses).
    public var malformedPDUsReceived = 0
    /// PDUs that broke the one-at-a-time rules: a second request before our response, a
    /// second indication before our confirmation (§3.3.2); ignored.
    public var protocolViolations = 0
    /// Commands with an opcode we do not know, ignored as §3.3.1 requires.
    public var unknownCommandsIgnored = 0
    /// PDUs received after the bearer closed; ignored.
    public var pdusIgnoredAfterClose = 0
    /// Responses, notifications and indications longer than ATT_MTU (Core 5.4, Vol 3,
    /// Part F, §3.2.8), which a server may not send: refused (ATTBearer+Oversized.swift).
    public var oversizedPDUsReceived = 0
    /// A counter set at zero.
    public init() {}
}
