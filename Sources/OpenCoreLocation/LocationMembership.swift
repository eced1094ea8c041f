import BLE
/// A location manager as its phone's system sees it (`PhoneAppMember`): its monitored
/// regions are the phone's, kept when the app ends, so a region event relaunches the app
/// (iOS research §9, rules 20 and 22); its ranging ends with the app.
final class LocationMembership: PhoneAppMember, @unchecked Sendable {
    // @unchecked Sendable: `manager` is set once, in the manager's initializer, before the
    // phone can read it.
    var manager: CLLocationManager?
    /// One identifier for the app's regions: a second manager of the app keeps none.
    var restoreIdentifier: String? { "regions" }
    var role: AppEventKind { .region }

    /// A membership in the app whose launch entry point is running, if any, and the manager
    /// of the app's last run whose regions the phone kept for it.
    static func joinLaunchingApp() -> (LocationMembership, CLLocationManager?) {
        let membership = LocationMembership()
        guard let app = PhoneApp.launching else { return (membership, nil) }
        // A second manager of the app (restore identifier in use) keeps no regions.
        let kept = (try? app.phone.join(membership, app: app.name)) as? LocationMembership
        return (membership, kept?.manager)
    }

    /// The user answered the app's prompt: the manager's delegate hears the new status.
    func locationAuthorizationChanged() {
        manager?.engine.relay.post([.didChangeAuthorization])
    }

    /// Bluetooth was switched in Settings: the manager's regions and ranging hear it
    /// (``BeaconEngine/bluetoothSwitched(on:)``), as Core Bluetooth managers do.
    func bluetoothSwitched(on: Bool) async {
        manager?.engine.bluetoothSwitched(on: on)
    }

    /// The screen came on: the regions that ask for it report their state
    /// (``BeaconEngine/screenCameOn()``).
    func screenCameOn(afterLock: Bool) async {
        manager?.engine.screenCameOn()
    }

    func appTerminated(preserved: Bool) async {
        guard let manager else { return }
        for constraint in manager.rangedBeaconConstraints { manager.stopRangingBeacons(satisfying: constraint) }
        manager.delegate = nil
    }
}
