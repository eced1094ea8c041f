import BLE
import HeartRateMonitor
import NotificationLight

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

/// A running accessory program, to stop at the end of a run.
protocol AccessoryProgram: Sendable {
    /// Stops the program (advertising, sessions).
    func stop() async
}

extension NotificationLight: AccessoryProgram {}

/// The accessory programs `ble sim run` can run on a scenario's accessories (`program:` of a
/// `host: external` device other than the phone), each on a host of its own.
enum AccessoryPrograms {
    /// Starts a program on the device, advertising the name; its lines go to the closure.
    typealias Start = @Sendable (BLEDevice, String, @escaping @Sendable (String) -> Void) async throws -> any AccessoryProgram

    /// The programs by the names a scenario uses.
    static let all: [String: Start] = [
        // Examples/NotificationLight: an ANCS accessory that shows calls and unread notifications as a colour.
        "notification-light": { device, name, say in
            try await NotificationLight.start(on: device, name: name) { state in say("light: \(state)") }
        },
    ]

    /// The names, sorted, for errors and help.
    static var names: [String] { all.keys.sorted() }
}
