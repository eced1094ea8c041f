import BLEWire

/// The scan interval and window of a scanner or initiator (Core 5.4, Vol 6, Part B,
/// §4.4.3.1): every scan interval the receiver listens for one scan window, on the next
/// primary advertising channel in the order 37, 38, 39.
///
/// An extended scanner may scan several primary PHYs, each with its own interval and window
/// (Vol 4, Part E, §7.8.64): the schedule then takes them in turn, one interval of each PHY
/// after the other (1M, then Coded), and moves to the next channel once every PHY has had
/// its interval there.
struct ScanSchedule: Sendable {
    /// One PHY's part of the schedule.
    struct Leg: Hashable, Sendable {
        /// The PHY listened on.
        var phy: RadioPHY
        /// The scan interval.
        var interval: Microseconds
        /// The scan window (at most the interval).
        var window: Microseconds

        /// A leg from HCI values in 0.625 ms units.
        init(phy: RadioPHY, interval: UInt16, window: UInt16) {
            self.phy = phy
            self.interval = max(1, Microseconds(interval)) * LinkTiming.unit625
            self.window = min(self.interval, max(1, Microseconds(window)) * LinkTiming.unit625)
        }
    }

    /// The PHYs in the order they take turns; never empty.
    let legs: [Leg]
    /// The leg of the current interval.
    private(set) var legIndex = 0
    /// When the current interval began.
    private(set) var intervalStart: Microseconds
    /// 0, 1 or 2 for channels 37, 38, 39.
    private(set) var channelIndex = 0

    /// A schedule on LE 1M from HCI values in 0.625 ms units, starting at `now` on channel 37.
    init(interval: UInt16, window: UInt16, now: Microseconds) {
        self.init(legs: [Leg(phy: .le1M, interval: interval, window: window)], now: now)
    }

    /// A schedule taking `legs` in turn (LE 1M alone if `legs` is empty), starting at `now` on channel 37.
    init(legs: [Leg], now: Microseconds) {
        self.legs = legs.isEmpty ? [Leg(phy: .le1M, interval: 0x10, window: 0x10)] : legs
        intervalStart = now
    }

    /// The scan interval of the current leg.
    var interval: Microseconds { legs[legIndex].interval }
    /// The scan window of the current leg.
    var window: Microseconds { legs[legIndex].window }
    /// The PHY of the current interval.
    var phy: RadioPHY { legs[legIndex].phy }

    /// The channel of the current interval.
    var channel: UInt8 { 37 + UInt8(channelIndex) }

    /// When the current window closes.
    var windowEnd: Microseconds { intervalStart + window }

    /// Moves to the interval that contains `now`, rotating the channel once per round of legs.
    mutating func advance(to now: Microseconds) {
        guard now >= intervalStart + interval else { return }
        if legs.count == 1 {
            let elapsed = (now - intervalStart) / interval
            intervalStart += elapsed * interval
            channelIndex = Int((Int64(channelIndex) + elapsed) % 3)
            return
        }
        // Whole rounds at once, from the start of a round; then leg by leg.
        let round = legs.reduce(0) { $0 + $1.interval }
        if legIndex == 0 {
            let rounds = (now - intervalStart) / round
            intervalStart += rounds * round
            channelIndex = Int((Int64(channelIndex) + rounds) % 3)
        }
        while now >= intervalStart + interval {
            intervalStart += interval
            legIndex += 1
            if legIndex == legs.count {
                legIndex = 0
                channelIndex = (channelIndex + 1) % 3
            }
        }
    }

    /// The receiver window of the current interval while it is open at `now`.
    func listenWindow(at now: Microseconds) -> ReceiverWindow? {
        guard now < windowEnd else { return nil }
        return ReceiverWindow(
            channel: channel, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
            opens: intervalStart, closes: windowEnd)
    }

    /// Whether a packet that started at `start` on `channel` began inside the current window,
    /// on a PHY the window decodes.
    func heard(_ transmission: RadioTransmission) -> Bool {
        transmission.channel == channel && transmission.start >= intervalStart && transmission.start < windowEnd
            && phy.decodes(transmission.phy)
    }

    /// The next time the schedule changes: the window's end, or the next interval.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        now < windowEnd ? windowEnd : intervalStart + interval
    }
}
