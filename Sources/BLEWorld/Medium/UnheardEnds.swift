import BLEController

/// The packets on the air that no receiver locked onto, by channel, in the order their ends
/// fall due: such a packet books no end event, since its end would only take it off its
/// channel's traffic (``World/onAir``). The world takes it off instead just before the next
/// thing that reads or changes that traffic, at its place in the order of events, so the
/// traffic is the same as if each end had run as an event of its own.
///
/// In a city most packets are heard by nobody (1.8 million transmissions to 0.56 million
/// receptions in a minute of 10,000 beacons), so this saves most of the queue's end events.
struct UnheardEnds {
    /// One packet's end: when and with which sequence number its end event would have run.
    struct End {
        var time: Microseconds
        var sequence: UInt64
        var slot: Int

        /// Whether this end comes before an event at `time` with `sequence`.
        @inline(__always)
        func precedes(_ time: Microseconds, _ sequence: UInt64) -> Bool {
            self.time != time ? self.time < time : self.sequence < sequence
        }
    }

    /// The pending ends of each channel (0–255), earliest first.
    private var ends: [[End]] = Array(repeating: [], count: 256)

    /// Files `end` on `channel`, keeping the channel's ends in order.
    mutating func add(_ end: End, channel: Int) {
        var index = ends[channel].count
        while index > 0, end.precedes(ends[channel][index - 1].time, ends[channel][index - 1].sequence) { index -= 1 }
        ends[channel].insert(end, at: index)
    }

    /// Removes and returns the earliest end on `channel` that comes before an event at
    /// `time` with `sequence`, or `nil` when none does.
    mutating func takeEnd(on channel: Int, before time: Microseconds, _ sequence: UInt64) -> Int? {
        guard let first = ends[channel].first, first.precedes(time, sequence) else { return nil }
        ends[channel].removeFirst()
        return first.slot
    }
}
