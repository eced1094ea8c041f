extension PhoneCore {
    /// One day, in microseconds.
    static let day: Int64 = 86_400_000_000
    /// Five in the morning, in microseconds after midnight.
    static let fiveAM: Int64 = 5 * 3_600_000_000

    /// The first 5 AM on the phone's clock strictly after `now`: when Control Center's
    /// Bluetooth button, turned off at `now`, comes on again by itself. Apple ("Use Bluetooth
    /// and Wi-Fi in Control Center", iOS 11 and later): the button's Bluetooth stays off until
    /// the user turns it on, connects an accessory in Settings, restarts the phone, or it is
    /// 5 AM local time. ``timeOfDayAtZero`` places time 0 on the clock.
    func nextFiveAM(after now: Int64) -> Int64 {
        let sinceMidnight = ((now + timeOfDayAtZero) % Self.day + Self.day) % Self.day
        let wait = sinceMidnight < Self.fiveAM ? Self.fiveAM - sinceMidnight : Self.day - sinceMidnight + Self.fiveAM
        return now + wait
    }

    /// Control Center's button comes on again at 5 AM (``nextFiveAM(after:)``): what was
    /// turned off at the button alone is available again, as if the user had turned it on.
    mutating func controlCenterComesOnIfDue(at now: Int64, outputs: inout [PhoneOutput]) {
        guard let due = controlCenterOnAgainAt, due <= now else { return }
        controlCenterOnAgainAt = nil
        guard !controlCenterBluetoothOn else { return }
        controlCenterBluetoothOn = true
        outputs.append(.system("Control Center's Bluetooth button on again: 5 AM local time"))
    }
}
