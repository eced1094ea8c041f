import Foundation

/// A chat session between two devices, independent of Bluetooth and of time: a sans-IO
/// state machine. The transport around it hands in received frames, asks for the next
/// frame whenever it can send one (a write finished, the notification queue has room),
/// tells it when a link comes and goes, and calls ``checkLink(now:)`` at
/// ``nextDeadline``.
///
/// What it guarantees: each message given to ``send(_:)`` is delivered to the partner's
/// session exactly once and in order, across any number of lost and re-established links
/// (sequence numbers per direction, cumulative acknowledgements, retransmission from the
/// first unacknowledged message on every new link); and a link that goes silent is noticed
/// within ``Configuration/missedHeartbeats`` heartbeat intervals, since each side sends at
/// least one frame per interval while the link is up.
public struct ChatSession: Sendable {
    /// Timing and batching.
    public struct Configuration: Hashable, Sendable {
        /// Each side sends a frame at least this often while the link is up.
        public var heartbeatInterval: Duration
        /// A link from which nothing arrived for this many intervals is lost.
        public var missedHeartbeats: Int
        /// While data waits to go out, an acknowledgement is sent after this many delivered
        /// messages (it goes at once when nothing else waits).
        public var acknowledgementBatch: Int

        /// A configuration: by default 1 s heartbeats, 3 missed, acknowledgements every 16.
        public init(heartbeatInterval: Duration = .seconds(1), missedHeartbeats: Int = 3, acknowledgementBatch: Int = 16) {
            self.heartbeatInterval = heartbeatInterval
            self.missedHeartbeats = Swift.max(1, missedHeartbeats)
            self.acknowledgementBatch = Swift.max(1, acknowledgementBatch)
        }

        /// How long a link may stay silent.
        public var linkTimeout: Duration { heartbeatInterval * missedHeartbeats }
    }

    /// What a received frame or a check produced.
    public enum Event: Hashable, Sendable {
        /// A message from the partner, in order, never twice.
        case message(Data)
        /// The partner acknowledged this many more of our messages.
        case acknowledged(count: Int)
    }

    /// Why ``send(_:)`` refused a message.
    public enum SendError: Error, Hashable, Sendable {
        /// Longer than ``ChatFrame/maximumMessageLength`` bytes.
        case messageTooLong(Int)
    }

    /// The longest frame: the longest attribute value.
    public static let maximumFrameLength = 512

    /// The configuration in force.
    public let configuration: Configuration
    private var outbox = ChatOutbox()
    private var inbox = ChatInbox()
    /// Whether a link to the partner is up.
    public private(set) var isLinkUp = false
    private var lastReceived: Duration = .zero
    private var lastSent: Duration = .zero
    private var acknowledgementDue = false
    private var deliveredSinceAcknowledgement = 0
    /// Frames that did not decode, ignored.
    public private(set) var malformedFrames = 0

    /// A session with no link yet.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Messages sent but not acknowledged yet.
    public var unacknowledgedCount: Int { outbox.unacknowledgedCount }
    /// The sequence number of the next message expected from the partner.
    public var nextExpected: UInt32 { inbox.nextExpected }
    /// Whether an acknowledgement waits to be sent (a scripted run waits for it before it
    /// ends, so the partner learns that its last messages arrived).
    public var isAcknowledgementDue: Bool { acknowledgementDue }
    /// Fragments received again after their message was delivered, dropped.
    public var duplicateFragments: Int { inbox.duplicateFragments }

    /// Queues a message for the partner; it goes out on this link or a later one.
    /// - Returns: the message's sequence number.
    @discardableResult
    public mutating func send(_ message: Data) throws(SendError) -> UInt32 {
        guard message.count <= ChatFrame.maximumMessageLength else { throw .messageTooLong(message.count) }
        return outbox.enqueue([UInt8](message))
    }

    /// A link is up (the central subscribed, or the peripheral's service was found):
    /// transmission starts again at the first unacknowledged message, and the first frame
    /// is an acknowledgement, so the partner skips what already arrived.
    public mutating func linkEstablished(now: Duration) {
        isLinkUp = true
        outbox.rewind()
        lastReceived = now
        lastSent = now
        acknowledgementDue = true
    }

    /// The link is gone (disconnection, or ``checkLink(now:)`` said so).
    public mutating func linkLost() {
        isLinkUp = false
    }

    /// Takes one frame from the partner.
    public mutating func receive(_ bytes: Data, now: Duration) -> [Event] {
        lastReceived = now
        let frame: ChatFrame
        do {
            frame = try ChatFrame(decoding: bytes)
        } catch {
            malformedFrames += 1
            return []
        }
        switch frame {
        case let .fragment(sequence, length, offset, payload):
            let messages = inbox.receive(sequence: sequence, length: length, offset: offset, payload: payload)
            if messages.isEmpty, sequence &- inbox.nextExpected > UInt32.max / 2 {
                // A resent fragment: the partner missed our acknowledgement; repeat it.
                acknowledgementDue = true
            }
            if !messages.isEmpty {
                acknowledgementDue = true
                deliveredSinceAcknowledgement += messages.count
            }
            return messages.map(Event.message)
        case let .acknowledgement(next), let .heartbeat(next):
            let count = outbox.acknowledge(nextExpected: next)
            return count > 0 ? [.acknowledged(count: count)] : []
        }
    }

    /// The next frame to send on the link, or `nil` when nothing is due (ask again after
    /// ``send(_:)``, ``receive(_:now:)`` or at ``nextDeadline``).
    /// - Parameter maximumLength: the longest frame the link carries now (ATT_MTU − 3 for
    ///   a write or a notification, Core 5.4, Vol 3, Part F, §3.4.5.1 and §3.4.7.1).
    public mutating func nextFrame(maximumLength: Int, now: Duration) -> Data? {
        guard isLinkUp else { return nil }
        // An attribute value is at most 512 octets (Core 5.4, Vol 3, Part F, §3.2.9), even
        // when ATT_MTU − 3 is more.
        let maximumLength = Swift.min(maximumLength, Self.maximumFrameLength)
        let frame: ChatFrame
        if acknowledgementDue,
           !outbox.hasFragmentToSend || deliveredSinceAcknowledgement >= configuration.acknowledgementBatch {
            frame = acknowledgement()
        } else if let fragment = outbox.nextFragment(maximumFrameLength: maximumLength) {
            frame = fragment
        } else if now - lastSent >= configuration.heartbeatInterval {
            frame = .heartbeat(nextExpected: inbox.nextExpected)
            acknowledgementDue = false
            deliveredSinceAcknowledgement = 0
        } else {
            return nil
        }
        lastSent = now
        return frame.encoded
    }

    /// Checks the link's liveness; returns `true` once when it has been silent for
    /// ``Configuration/linkTimeout`` (the link is then down: tear it down and reconnect).
    public mutating func checkLink(now: Duration) -> Bool {
        guard isLinkUp, now - lastReceived >= configuration.linkTimeout else { return false }
        isLinkUp = false
        return true
    }

    /// When to call ``nextFrame(maximumLength:now:)`` (for a heartbeat) or
    /// ``checkLink(now:)`` next, while the link is up.
    public var nextDeadline: Duration? {
        guard isLinkUp else { return nil }
        return Swift.min(lastSent + configuration.heartbeatInterval, lastReceived + configuration.linkTimeout)
    }

    private mutating func acknowledgement() -> ChatFrame {
        acknowledgementDue = false
        deliveredSinceAcknowledgement = 0
        return .acknowledgement(nextExpected: inbox.nextExpected)
    }
}
