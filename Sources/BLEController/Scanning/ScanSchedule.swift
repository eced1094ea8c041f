import BLEWire

/// The scan interval and window of a scanner or initiator (Core 5.4, Vol 6, Part B,
/// §4.4.3.1): every scan interval the receiver listens for one scan window, on the next
/// primary advertising channel in the order 37, 38, 39.
struct ScanSchedule: Sendable {
    /// The scan interval.
    let interval: Microseconds
    /// The scan window (at most the interval).
    let window: Microseconds
    /// When the current interval began.
    private(set) var intervalStart: Microseconds
    /// 0, 1 or 2 for channels 37, 38, 39.
    private(set) var channelIndex = 0

    /// A schedule from HCI values in 0.625 ms units, starting at `now` on channel 37.
    init(interval: UInt16, window: UInt16, now: Microseconds) {
        self.interval = max(1, Microseconds(interval)) * LinkTiming.unit625
        self.window = min(self.interval, max(1, Microseconds(window)) * LinkTiming.unit625)
        intervalStart = now
    }

    /// The channel of the current interval.
    var channel: UInt8 { 37 + UInt8(channelIndex) }

    /// When the current window closes.
    var windowEnd: Microseconds { intervalStart + window }

    /// Moves to the interval that contains `now`, rotating the channel once per interval.
    mutating func advance(to now: Microseconds) {
        guard now >= intervalStart + interval else { return }
        let elapsed = (now - intervalStart) / interval
        intervalStart += elapsed * interval
        channelIndex = Int((Int64(channelIndex) + elapsed) % 3)
    }

    /// The receiver window of the current interval while it is open at `now`.
    func listenWindow(at now: Microseconds) -> ReceiverWindow? {
        guard now < windowEnd else { return nil }
        return ReceiverWindow(
            channel: channel, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
            opens: intervalStart, closes: windowEnd)
    }

    /// Whether a packet that started at `start` on `channel` began inside the current window.
    func heard(_ transmission: RadioTransmission) -> Bool {
        transmission.channel == channel && transmission.start >= intervalStart && transmission.start < windowEnd
    }

    /// The next time the schedule changes: the window's end, or the next interval.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        now < windowEnd ? windowEnd : intervalStart + interval
    }
}
