import BLEWire

/// The link-layer role of this device on one LE connection (Core 5.4, Vol 6, Part B,
/// §1.1). L2CAP cares because the Connection Parameter Update procedure runs one way only:
/// the peripheral asks, the central answers (Vol 3, Part A, §4.20).
public enum L2CAPRole: Hashable, Sendable {
    /// The device that initiated the connection; it answers parameter update requests.
    case central
    /// The device that advertised; it may ask the central for new parameters.
    case peripheral
}

/// Names one LE credit-based channel (Core 5.4, Vol 3, Part A, §4.22) to the host: the
/// connection it lives on and this device's endpoint (the local CID, which the peer
/// uses as the destination of the K-frames it sends here).
///
/// Carrying the handle keeps IDs from different connections apart when a host gathers
/// the outputs of several links in one place.
public struct L2CAPChannelID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The ACL connection handle of the link the channel lives on.
    public var handle: UInt16
    /// This device's endpoint of the channel, in 0x0040–0x007F (§2.1, Table 2.3).
    public var localCID: L2CAP.ChannelIdentifier

    /// A channel ID from its connection handle and local CID.
    public init(handle: UInt16, localCID: L2CAP.ChannelIdentifier) {
        self.handle = handle
        self.localCID = localCID
    }

    /// Orders by handle, then by local CID, so sorted lists of channels are deterministic.
    public static func < (lhs: L2CAPChannelID, rhs: L2CAPChannelID) -> Bool {
        (lhs.handle, lhs.localCID.rawValue) < (rhs.handle, rhs.localCID.rawValue)
    }

    /// `handle 0x0040/CID 0x0040`-style text for logs.
    public var description: String { "handle \(handle)/CID \(localCID)" }
}

/// Settings of one ``L2CAPLink`` that do not change during the connection.
public struct L2CAPConfiguration: Hashable, Sendable {
    /// How long a signaling request waits for its response before it is given up: the
    /// RTX timer (Core 5.4, Vol 3, Part A, §6.2.1), 30 s by default (its maximum is 60 s).
    public var signalingTimeout: HostTime
    /// The largest C-frame payload this device accepts on the LE signaling channel,
    /// MTUsig (§4). LE requires at least 23; larger commands are answered with Command
    /// Reject "signaling MTU exceeded".
    public var signalingMTU: UInt16
    /// Unread SDUs a channel may hold before its credits wait for the app
    /// (``L2CAPLink/sduConsumed(on:)``); `nil` returns credits as SDUs arrive.
    public var receiveHoldLimit: Int?

    /// A configuration from its fields; by default a 30-second RTX, MTUsig 23 and credits
    /// returned as SDUs arrive.
    /// - Parameters:
    ///   - signalingTimeout: the RTX timeout in microseconds.
    ///   - signalingMTU: MTUsig; values below 23 are raised to 23.
    ///   - receiveHoldLimit: unread SDUs per channel before credits wait; `nil` for none.
    public init(signalingTimeout: HostTime = 30_000_000, signalingMTU: UInt16 = 23, receiveHoldLimit: Int? = nil) {
        self.receiveHoldLimit = receiveHoldLimit.map { max($0, 1) }
        self.signalingTimeout = signalingTimeout
        self.signalingMTU = max(signalingMTU, 23)
    }
}

/// Why an LE credit-based channel stopped carrying data (Core 5.4, Vol 3, Part A, §3.4.3,
/// §4.6, §10.1). Each channel reports it once, in ``L2CAPOutput/channelClosed(_:reason:)``.
public enum L2CAPCloseReason: Hashable, Sendable {
    /// This host called ``L2CAPLink/disconnect(_:at:)``.
    case localRequest
    /// The peer sent a Disconnection Request (§4.6).
    case peerRequest
    /// The peer announced an SDU longer than this device's MTU (§3.4.3).
    case sduExceedsMTU
    /// The peer sent a K-frame whose payload exceeds this device's MPS (§3.4.3).
    case kFrameExceedsMPS
    /// The peer's segments carried more octets than the SDU Length announced (§3.4.3).
    case sduLengthMismatch
    /// The first K-frame of an SDU was too short to hold the SDU Length field (§3.4.3).
    case malformedKFrame
    /// The peer sent a K-frame while it held no credits (§10.1). The link checks this on
    /// every K-frame; with its current policy of topping credits up as soon as half are
    /// used it cannot arise, but a policy that defers credits until the host has consumed
    /// the SDU would reach it.
    case kFrameWithoutCredit
    /// The peer's credits pushed this device's send credits past 65 535 (§10.1).
    case creditOverflow
    /// The peer accepted a connection with parameters the specification forbids
    /// (destination CID outside the dynamic range, MTU or MPS below 23, MPS above 65 533).
    case invalidConnectionResponse
    /// The peer answered this device's request with Command Reject (§4.1).
    case requestRejected
    /// The peer did not answer this device's request before the RTX timer expired (§6.2.1).
    case responseTimeout
    /// The ACL connection itself ended (``L2CAPLink/linkDisconnected()``).
    case linkDisconnected
}

/// Why ``L2CAPLink/send(sdu:on:at:)`` refused an SDU. Nothing is dropped silently: a
/// refused SDU is reported and none of it is sent.
public enum L2CAPSendRejection: Hashable, Sendable {
    /// The channel is not open: unknown, still connecting, or closing.
    case channelNotOpen
    /// The SDU is longer than the peer's MTU (Core 5.4, Vol 3, Part A, §3.4.3).
    case sduExceedsPeerMTU(peerMTU: UInt16)
}

/// What an ``L2CAPLink`` asks of the world around it after an input: frames for the HCI
/// driver, payloads and events for the layers above.
public enum L2CAPOutput: Hashable, Sendable {
    /// A whole B-frame (Core 5.4, Vol 3, Part A, §3.1) for the driver to fragment and send.
    case sendFrame([UInt8])
    /// A payload received on the Attribute Protocol fixed channel, CID 0x0004.
    case att([UInt8])
    /// A payload received on the Security Manager fixed channel, CID 0x0006.
    case smp([UInt8])
    /// A credit-based channel is open, in either direction (§4.22–4.23); the peer's
    /// MTU and MPS bound what this host may send on it.
    case channelOpened(L2CAPChannelID, peerMTU: UInt16, peerMPS: UInt16)
    /// The peer refused a channel this host asked for (§4.23, Table 4.15).
    case channelRefused(L2CAPChannelID, L2CAP.CreditBasedConnectionResult)
    /// A whole SDU reassembled from K-frames (§3.4.3).
    case sdu([UInt8], channel: L2CAPChannelID)
    /// The channel carries no more data; reported once per channel.
    case channelClosed(L2CAPChannelID, reason: L2CAPCloseReason)
    /// Central only: the peripheral asks for new connection parameters (§4.20), within
    /// the allowed ranges. Answer with ``L2CAPLink/answerConnectionParameterUpdate(identifier:accept:)``;
    /// on acceptance the host itself sends HCI LE Connection Update.
    case connectionParameterUpdateRequested(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16, identifier: UInt8)
    /// Peripheral only: the central's answer to this device's request (§4.21); a Command
    /// Reject or a timeout also reads as not accepted.
    case connectionParameterUpdateAnswered(accepted: Bool)
    /// The channel has run out of credits and holds queued SDUs: back-pressure. Stop
    /// submitting until ``sendResumed(_:)``.
    case sendBlocked(L2CAPChannelID)
    /// The queue of a blocked channel has drained; submitting may resume.
    case sendResumed(L2CAPChannelID)
    /// An SDU was refused and none of it was sent.
    case sendRejected(L2CAPChannelID, L2CAPSendRejection)
}

/// Counts of what one ``L2CAPLink`` has seen and done, for diagnostics and tests.
public struct L2CAPCounters: Hashable, Sendable {
    /// B-frames handed in by the driver.
    public var framesReceived = 0
    /// B-frames handed out to the driver.
    public var framesSent = 0
    /// Frames whose Basic L2CAP header disagreed with their length (§3.1); dropped.
    public var malformedFramesDropped = 0
    /// Frames for a CID with no fixed channel and no open credit-based channel; dropped.
    public var unknownCIDFramesDropped = 0
    /// K-frames that arrived for a channel already closing; dropped.
    public var framesDroppedOnClosingChannel = 0
    /// Signaling commands answered with Command Reject.
    public var commandRejectsSent = 0
    /// Command Rejects received from the peer.
    public var commandRejectsReceived = 0
    /// Signaling commands dropped without an answer: identifier 0, a response nothing
    /// waits for, a Disconnection Request whose source CID does not match (§4.6).
    public var signalingCommandsDiscarded = 0
    /// Connection Parameter Update Requests rejected for out-of-range values (§4.20).
    public var parameterUpdatesRejectedOutOfRange = 0
    /// K-frames received on open channels.
    public var kFramesReceived = 0
    /// K-frames sent.
    public var kFramesSent = 0
    /// SDUs delivered to the host.
    public var sdusReceived = 0
    /// SDUs accepted for sending.
    public var sdusSent = 0
    /// Credits returned to peers in Flow Control Credit Indications (§4.24).
    public var creditsGranted = 0
    /// Channels this device closed because the peer broke a rule.
    public var channelsClosedForViolation = 0

    /// All counters at zero.
    public init() {}
}

/// A snapshot of one credit-based channel, for the host's diagnostics and for tests.
public struct L2CAPChannelStatus: Hashable, Sendable {
    /// Where the channel is in its life.
    public enum State: Hashable, Sendable {
        /// This device sent LE Credit Based Connection Request and waits for the answer.
        case connecting
        /// Data flows both ways.
        case open
        /// This device sent Disconnection Request and waits for the answer.
        case disconnecting
    }

    /// Where the channel is in its life.
    public var state: State
    /// The SPSM the channel was opened to.
    public var psm: UInt16
    /// The peer's endpoint, or `nil` while connecting.
    public var remoteCID: L2CAP.ChannelIdentifier?
    /// The largest SDU this device accepts.
    public var localMTU: UInt16
    /// The largest K-frame payload this device accepts.
    public var localMPS: UInt16
    /// The largest SDU the peer accepts (0 while connecting).
    public var peerMTU: UInt16
    /// The largest K-frame payload the peer accepts (0 while connecting).
    public var peerMPS: UInt16
    /// K-frames this device may still send (§10.1).
    public var sendCredits: Int
    /// K-frames the peer may still send here before it needs more credits.
    public var receiveCredits: Int
    /// SDUs accepted but not yet completely sent.
    public var queuedSDUs: Int

    /// A snapshot from its fields.
    public init(state: State, psm: UInt16, remoteCID: L2CAP.ChannelIdentifier?, localMTU: UInt16, localMPS: UInt16,
                peerMTU: UInt16, peerMPS: UInt16, sendCredits: Int, receiveCredits: Int, queuedSDUs: Int) {
        self.state = state
        self.psm = psm
        self.remoteCID = remoteCID
        self.localMTU = localMTU
        self.localMPS = localMPS
        self.peerMTU = peerMTU
        self.peerMPS = peerMPS
        self.sendCredits = sendCredits
        self.receiveCredits = receiveCredits
        self.queuedSDUs = queuedSDUs
    }
}
