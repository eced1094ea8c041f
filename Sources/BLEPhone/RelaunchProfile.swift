/// Which iOS era's rules decide whether a terminated app is relaunched for its preserved
/// Bluetooth work (research §5, "When the system relaunches", from Apple's TN3115 of
/// 2025-09-15 and its 2017 form QA1962, which had an iOS 10 column; §9, rule 16).
///
/// On every profile an app the system ended (memory, a crash) is relaunched, and Bluetooth
/// switched off in Settings relaunches nothing; after a restart nothing is relaunched before
/// the first unlock (``PhonePolicy/passcodeSet``). They differ in:
///
/// | ends the app's Bluetooth session | ``iOS10`` | ``iOS11to18`` | ``iOS26`` |
/// | --- | --- | --- | --- |
/// | the user force-quit it | no relaunch | no relaunch | relaunch only with AccessorySetupKit |
/// | the phone restarted | no relaunch | relaunch after the first unlock | relaunch after the first unlock |
/// | Control Center's Bluetooth button | the Settings switch: no relaunch | relaunch | relaunch only with AccessorySetupKit |
/// | Airplane Mode, Bluetooth left on | no relaunch | relaunch | relaunch |
public enum RelaunchProfile: String, Hashable, Sendable, CaseIterable {
    /// iOS 10 (QA1962's iOS 10 column): no relaunch after a restart, nor after a force-quit.
    case iOS10
    /// iOS 11 to 18, the default: a restart keeps the preserved work, relaunched for after
    /// the first unlock; a force-quit ends it.
    case iOS11to18
    /// iOS 26 (TN3115, 2025): as ``iOS11to18``, but an app that set up its accessory with
    /// AccessorySetupKit (``AppDescription/usesAccessorySetupKit``) is relaunched even after
    /// the user force-quit it.
    case iOS26
}

extension PhoneCore {
    /// Whether the system keeps `app`'s preserved Bluetooth work (managers with a restore
    /// identifier: scans, connections, subscriptions, advertising) when the app ends for
    /// `reason`, and so may relaunch the app for it (§9, rules 13 and 16, on the policy's
    /// ``PhonePolicy/relaunchProfile``).
    public func keepsBluetoothState(of app: String, after reason: TerminationReason) -> Bool {
        switch reason {
        case .system, .crash: true
        case .forceQuit: policy.relaunchProfile == .iOS26 && apps[app]?.description.usesAccessorySetupKit == true
        case .reboot: policy.relaunchProfile != .iOS10
        }
    }

    /// Why a Bluetooth event for `app`, terminated for `reason`, relaunches nothing, or `nil`
    /// when it relaunches the app (§9, rules 13 and 16).
    func bluetoothRelaunchRefusal(of app: App, after reason: TerminationReason, hasMode: Bool) -> String? {
        if awaitingFirstUnlock { return "the phone has not been unlocked since it restarted" }
        if let dropped = app.bluetoothWorkDropped { return dropped }
        guard keepsBluetoothState(of: app.description.name, after: reason) else {
            return switch reason {
            case .forceQuit: "the user force-quit the app"
            default: "\(policy.relaunchProfile.rawValue) relaunches no app after a restart"
            }
        }
        guard hasMode, app.description.restoresState else { return "the app preserves no Bluetooth state or lacks the background mode" }
        return nil
    }
}
