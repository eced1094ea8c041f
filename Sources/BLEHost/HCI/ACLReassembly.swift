import BLEWire

/// Controller-to-host ACL reassembly (Core 5.4, Vol 4, Part E, §5.4.2 and Vol 3, Part A,
/// §3.1): a start fragment opens an L2CAP B-frame whose first two octets give its length;
/// continuing fragments on the same handle complete it.
struct ACLReassembly: Sendable {
    /// What became of one incoming packet.
    enum Outcome: Equatable, Sendable {
        /// A whole frame, header included.
        case frame([UInt8])
        /// A fragment was kept; the frame is not complete yet.
        case incomplete
        /// A continuation arrived with no frame in progress.
        case continuationWithoutStart
        /// The frame ran past its L2CAP length or the maximum, and was dropped.
        case overlong
    }

    /// The longest frame accepted, header included.
    var maximumFrameLength = 65_539
    /// Frames in progress by handle.
    private var partial: [UInt16: [UInt8]] = [:]
    /// Frames abandoned because a new start fragment arrived before they were complete.
    private(set) var abandoned = 0
    /// Frames in progress (one at most per connection handle) and the octets they hold.
    var framesInProgress: (count: Int, octets: Int) { (partial.count, partial.values.reduce(0) { $0 + $1.count }) }

    /// Adds one fragment of `handle`.
    mutating func receive(_ packet: HCI.ACLPacket) -> Outcome {
        let handle = packet.connectionHandle
        var buffer: [UInt8]
        switch packet.packetBoundary {
        case .continuing:
            guard let existing = partial.removeValue(forKey: handle) else { return .continuationWithoutStart }
            buffer = existing
        case .firstAutomaticallyFlushable, .firstNonAutomaticallyFlushable, .complete:
            if partial.removeValue(forKey: handle) != nil { abandoned += 1 }
            buffer = []
            buffer.reserveCapacity(min(maximumFrameLength, Self.expectedLength(of: packet.data) ?? packet.data.count))
        }
        buffer.append(contentsOf: packet.data)
        guard let expected = Self.expectedLength(of: buffer[...]) else {
            partial[handle] = buffer
            return .incomplete
        }
        if expected > maximumFrameLength || buffer.count > expected { return .overlong }
        if buffer.count == expected { return .frame(buffer) }
        partial[handle] = buffer
        return .incomplete
    }

    /// Forgets the frame in progress on `handle` (the link is gone).
    mutating func disconnected(_ handle: UInt16) { partial[handle] = nil }

    /// Forgets everything (a controller reset).
    mutating func reset() { partial = [:] }

    /// Header plus the L2CAP length field, once two octets are there.
    private static func expectedLength(of bytes: ArraySlice<UInt8>) -> Int? {
        var reader = ByteReader(bytes)
        guard let length = try? reader.readUInt16("L2CAP.BasicFrame.length") else { return nil }
        return 4 + Int(length)
    }
}
