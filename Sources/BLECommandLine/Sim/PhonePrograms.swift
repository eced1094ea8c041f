import BLE
import HeartRateMonitor

/// The programs `ble sim run` can run as apps of a scenario's phone (`program:` of an
/// app): code written for Apple platforms, compiled here against `OpenCoreBluetooth`. Each
/// is the app's launch entry point: it runs at the user's launch and at every relaunch by
/// the system, and makes the app's managers again, as `didFinishLaunchingWithOptions` does.
enum PhonePrograms {
    /// A program's launch: the launch options, and where the program's own log lines go.
    typealias Launch = @MainActor @Sendable (PhoneLaunchOptions, @escaping @MainActor (String) -> Void) -> AnyObject

    /// The programs by the names a scenario uses.
    static let all: [String: Launch] = [
        // Examples/HeartRateMonitor: scans for a heart-rate strap, subscribes, restores its state.
        "heart-rate-monitor": { _, log in
            HeartRateMonitor(restoreIdentifier: "heart-rate-monitor", onLog: { line in log(line) })
        },
    ]

    /// The names, sorted, for errors and help.
    static var names: [String] { all.keys.sorted() }
}
