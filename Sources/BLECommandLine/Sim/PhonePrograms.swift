import BLE
import HeartRateMonitor
import NotificationLight

/// The programs `ble sim run` can run in a scenario (`program:` of a phone's app or of an
/// accessory): the examples, code written for Apple platforms compiled here against
/// `OpenCoreBluetooth` or on `BLE`.
enum PhonePrograms {
    /// The app programs by the names a scenario uses: each is the app's launch entry point.
    static let apps: [String: PhoneStory.Launch] = [
        // Examples/HeartRateMonitor: scans for a heart-rate strap, subscribes, restores its state.
        "heart-rate-monitor": { _, log in
            HeartRateMonitor(restoreIdentifier: "heart-rate-monitor", onLog: { line in log(line) })
        },
    ]

    /// The accessory programs by the names a scenario uses, each on a host of its own.
    static let accessories: [String: PhoneStory.Start] = [
        // Examples/NotificationLight: an ANCS accessory that shows calls and unread notifications as a colour.
        "notification-light": { device, name, say in
            try await NotificationLight.start(on: device, name: name) { state in say("light: \(state)") }
        },
    ]

    /// The player of a phone's story with these programs.
    static var story: PhoneStory { PhoneStory(appPrograms: apps, accessoryPrograms: accessories) }
}
