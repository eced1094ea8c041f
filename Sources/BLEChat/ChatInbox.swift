import Foundation

/// The receiving half of a chat session: reassembles fragments, delivers each message
/// exactly once and in sequence order, and knows which sequence number to acknowledge.
///
/// Fragments may arrive twice (a message resent after a reconnection), out of order, or
/// cut differently (a new ATT MTU): each says where its bytes belong, and a message is
/// delivered once all of its bytes are there and every earlier one has been delivered.
public struct ChatInbox: Sendable {
    /// How far ahead of the next expected message fragments are kept; further ones are
    /// dropped (the partner sends them again after the next acknowledgement gap).
    public static let window: UInt32 = 1024

    private struct Partial: Sendable {
        var bytes: [UInt8]
        var have: [Bool]
        var missing: Int
    }

    /// The sequence number of the next message to deliver: all before it were delivered.
    public private(set) var nextExpected: UInt32 = 0
    private var partials: [UInt32: Partial] = [:]
    /// Fragments of messages already delivered, dropped.
    public private(set) var duplicateFragments = 0
    /// Fragments beyond the window, dropped.
    public private(set) var droppedFragments = 0

    /// An empty inbox.
    public init() {}

    /// Takes one fragment; returns the messages it completes, in order.
    public mutating func receive(sequence: UInt32, length: UInt16, offset: UInt16, payload: Data) -> [Data] {
        let distance = sequence &- nextExpected
        guard distance < Self.window else {
            // Behind the next expected one (modulo 2³²): a message already delivered.
            if distance > UInt32.max / 2 { duplicateFragments += 1 } else { droppedFragments += 1 }
            return []
        }
        var partial = partials[sequence] ?? Partial(bytes: [UInt8](repeating: 0, count: Int(length)),
                                                    have: [Bool](repeating: false, count: Int(length)), missing: Int(length))
        if partial.bytes.count != Int(length) {
            // The partner changed its mind about the length: start again with its latest word.
            partial = Partial(bytes: [UInt8](repeating: 0, count: Int(length)),
                              have: [Bool](repeating: false, count: Int(length)), missing: Int(length))
        }
        let start = Int(offset)
        guard start + payload.count <= partial.bytes.count else { return [] }
        for (index, byte) in payload.enumerated() where !partial.have[start + index] {
            partial.have[start + index] = true
            partial.bytes[start + index] = byte
            partial.missing -= 1
        }
        partials[sequence] = partial
        var delivered: [Data] = []
        while let next = partials[nextExpected], next.missing == 0 {
            delivered.append(Data(next.bytes))
            partials[nextExpected] = nil
            nextExpected &+= 1
        }
        return delivered
    }
}
