import Foundation

/// The sending half of a chat session: numbers messages, cuts them into fragments that fit
/// the link, and keeps every message until the partner acknowledges it, so that after a
/// reconnection whatever was not acknowledged is sent again (go-back-N from the first
/// unacknowledged message).
public struct ChatOutbox: Sendable {
    private var pending: [(sequence: UInt32, bytes: [UInt8])] = []
    /// The next sequence number to give a message.
    public private(set) var nextSequence: UInt32 = 0
    /// Where transmission stands: an index into `pending` and a byte offset in that message.
    private var sendIndex = 0
    private var sendOffset = 0

    /// An empty outbox.
    public init() {}

    /// Messages queued or sent but not yet acknowledged.
    public var unacknowledgedCount: Int { pending.count }

    /// Whether a fragment is waiting to be sent.
    public var hasFragmentToSend: Bool { sendIndex < pending.count }

    /// Queues a message and returns its sequence number.
    public mutating func enqueue(_ message: [UInt8]) -> UInt32 {
        let sequence = nextSequence
        nextSequence &+= 1
        pending.append((sequence, message))
        return sequence
    }

    /// The next fragment, cut to fit `maximumFrameLength` bytes, and moves past it.
    public mutating func nextFragment(maximumFrameLength: Int) -> ChatFrame? {
        guard sendIndex < pending.count else { return nil }
        let room = Swift.max(1, maximumFrameLength - ChatFrame.fragmentHeaderLength)
        let message = pending[sendIndex]
        let end = Swift.min(message.bytes.count, sendOffset + room)
        let frame = ChatFrame.fragment(sequence: message.sequence, length: UInt16(message.bytes.count),
                                       offset: UInt16(sendOffset), payload: Data(message.bytes[sendOffset ..< end]))
        if end >= message.bytes.count {
            sendIndex += 1
            sendOffset = 0
        } else {
            sendOffset = end
        }
        return frame
    }

    /// The partner has every message before `nextExpected`: forgets them. Returns how many
    /// were forgotten. An acknowledgement of messages never sent is ignored.
    @discardableResult
    public mutating func acknowledge(nextExpected: UInt32) -> Int {
        guard let first = pending.first else { return 0 }
        let count = Int(nextExpected &- first.sequence)
        guard count > 0, count <= pending.count else { return 0 }
        pending.removeFirst(count)
        if sendIndex >= count {
            sendIndex -= count
        } else {
            sendIndex = 0
            sendOffset = 0
        }
        return count
    }

    /// A new link: transmission starts again at the first unacknowledged message.
    public mutating func rewind() {
        sendIndex = 0
        sendOffset = 0
    }
}
