/// An app's Bluetooth authorization on the phone (Core Bluetooth's `CBManagerAuthorization`,
/// less `restricted`, which no simulated user sets). The phone keeps it per app, as iOS
/// keeps it in Settings → Privacy → Bluetooth: it survives the app's termination and
/// relaunch.
public enum BluetoothAuthorization: String, Hashable, Sendable, CaseIterable {
    /// The app has made no Bluetooth manager yet, so the user was never asked.
    case notDetermined
    /// The user refused: the app's managers report `unauthorized` and do nothing.
    case denied
    /// The user allowed it.
    case allowedAlways
}

/// What the phone's simulated user answers when an app's first Bluetooth manager shows the
/// permission prompt, set per app in its ``AppDescription``.
public enum BluetoothAuthorizationAnswer: String, Hashable, Sendable, CaseIterable {
    /// "OK": the app may use Bluetooth.
    case allow
    /// "Don't Allow".
    case deny
}

extension PhoneCore {
    /// The reason iOS gives when it ends an app that makes a Bluetooth manager without
    /// `NSBluetoothAlwaysUsageDescription` in its Info.plist (Apple,
    /// `NSBluetoothAlwaysUsageDescription`: required from iOS 13, "your app will crash"
    /// without it; the wording is the crash log's privacy-violation message, in our words).
    public static let bluetoothUsageCrashReason =
        "privacy violation: the app made a Bluetooth manager without NSBluetoothAlwaysUsageDescription in its Info.plist"

    /// The Bluetooth authorization of `app` (``BluetoothAuthorization/notDetermined`` when
    /// no app of that name is installed).
    public func bluetoothAuthorization(of app: String) -> BluetoothAuthorization {
        apps[app]?.bluetooth ?? .notDetermined
    }

    /// `app` made a Core Bluetooth manager at `now`. The first time, the system asks the
    /// user (the prompt is an ``PhoneOutput/alert(app:message:)`` with the app's usage
    /// description) and the user answers as ``AppDescription/bluetoothAuthorization`` says;
    /// later managers get the kept answer (Apple, `CBManagerAuthorization`). An app whose
    /// description has no ``AppDescription/bluetoothUsageDescription`` is terminated instead,
    /// as a crash with ``bluetoothUsageCrashReason`` (Apple, `NSBluetoothAlwaysUsageDescription`),
    /// unless it has ended already.
    /// Returns the authorization and what the system did.
    /// - Throws: ``PhoneError/unknownApp(_:)``.
    public mutating func bluetoothManagerMade(by name: String, at now: Int64) throws(PhoneError)
        -> (authorization: BluetoothAuthorization, outputs: [PhoneOutput]) {
        guard var app = apps[name] else { throw .unknownApp(name) }
        guard let usage = app.description.bluetoothUsageDescription else {
            // A manager the dying app's launch code makes after the first ends nothing more.
            if case .terminated = app.state { return (app.bluetooth, []) }
            var outputs: [PhoneOutput] = [.crashed(app: name, reason: Self.bluetoothUsageCrashReason)]
            outputs += try handle(.terminate(name, .crash), at: now)
            return (app.bluetooth, outputs)
        }
        guard app.bluetooth == .notDetermined else { return (app.bluetooth, []) }
        let answer = app.description.bluetoothAuthorization
        app.bluetooth = answer == .allow ? .allowedAlways : .denied
        apps[name] = app
        let prompt = "“\(name)” Would Like to Use Bluetooth (\(usage)): \(answer == .allow ? "OK" : "Don't Allow")"
        return (app.bluetooth, [.alert(app: name, message: prompt)])
    }
}
