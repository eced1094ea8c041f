import BLE
import BLEProfiles

/// What the light shows, worked out from the phone's notifications: a call ringing wins,
/// then missed calls, then unread messages; each category's count is the phone's own
/// (ANCS's CategoryCount).
public struct LightState: Sendable, Hashable, CustomStringConvertible {
    /// The colours the light can show.
    public enum Colour: String, Sendable, Hashable {
        /// Nothing waiting.
        case off
        /// A call is ringing (flashing).
        case flashingRed
        /// Calls were missed.
        case amber
        /// Messages, mail or other notifications are unread.
        case blue
    }

    /// Whether a call is ringing now.
    public var ringing = false
    /// Notifications present on the phone, by category.
    public var counts: [ANCS.CategoryID: Int] = [:]
    /// The incoming calls present, by UID (a call is "ringing" while one is present).
    private var calls: Set<UInt32> = []

    /// Nothing waiting.
    public init() {}

    /// The colour for the state.
    public var colour: Colour {
        if ringing { return .flashingRed }
        if (counts[.missedCall] ?? 0) > 0 { return .amber }
        return counts.contains { $0.key != .incomingCall && $0.key != .missedCall && $0.value > 0 } ? .blue : .off
    }

    /// Takes one notification event into account.
    public mutating func apply(_ note: ANCSNotification) {
        counts[note.category] = Int(note.categoryCount)
        guard note.category == .incomingCall else { return }
        if note.event == .removed { calls.remove(note.uid) } else { calls.insert(note.uid) }
        ringing = !calls.isEmpty
    }

    /// A new session: the phone will announce what is present again.
    public mutating func reset() {
        self = LightState()
    }

    /// "amber (missed calls 2, email 3)".
    public var description: String {
        let waiting = counts.filter { $0.value > 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key) \($0.value)" }
        return colour.rawValue + (waiting.isEmpty ? "" : " (" + waiting.joined(separator: ", ") + ")")
    }
}
