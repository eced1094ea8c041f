import BLETime

/// Bluetooth as the phone's Settings hold it: the switch, and each app's permission.
extension SimulatedPhone {
    /// Whether Bluetooth is switched on in Settings (``perform(_:)`` with
    /// `PhoneAction.bluetooth(on:)` flips it, and Airplane Mode may).
    public var isBluetoothOn: Bool { state.withLock { $0.core.bluetoothOn } }

    /// Whether Core Bluetooth is available to apps: on in Settings, and Control Center's
    /// button on (`PhoneAction.controlCenterBluetooth(on:)`). Beacon regions need only the
    /// Settings switch.
    public var isBluetoothAvailable: Bool { state.withLock { $0.core.bluetoothAvailable } }

    /// Whether the system skips the `peripheralManagerIsReady(toUpdateSubscribers:)` it owes
    /// `app` now (``PhonePolicy/readyToUpdateSubscribersSkipRate``, a fault); a skipped call
    /// goes on the timeline as dropped.
    public func skipsReadyToUpdateSubscribers(for app: String) -> Bool {
        let now = clock.microseconds
        return state.withLock { state in
            guard state.core.skipsReadyToUpdateSubscribers() else { return false }
            let event = PhoneEvent(kind: .peripheral, detail: "isReadyToUpdateSubscribers", time: now)
            state.timeline.append(PhoneTimelineEntry(time: now, output: .dropped(app: app, event: event,
                                                                                   reason: "the ready-to-update fault skipped it")))
            return true
        }
    }

    /// Whether Airplane Mode is on.
    public var isAirplaneModeOn: Bool { state.withLock { $0.core.airplaneModeOn } }

    /// The Bluetooth authorization of `app`, kept across its launches
    /// (`BluetoothAuthorization.notDetermined` until its first manager).
    public func bluetoothAuthorization(of app: String) -> BluetoothAuthorization {
        state.withLock { $0.core.bluetoothAuthorization(of: app) }
    }

    /// `app` made a Core Bluetooth manager: the first time the permission prompt goes on
    /// the timeline, answered as the app's description says; an app without a Bluetooth
    /// usage description is terminated instead (a crash with
    /// `PhoneCore.bluetoothUsageCrashReason`, as iOS does). Returns the app's
    /// authorization, or `nil` when the app was terminated for it (the manager then does
    /// nothing).
    public func bluetoothManagerMade(by app: String) -> BluetoothAuthorization? {
        let now = clock.microseconds
        let (authorization, effects) = state.withLock { state -> (BluetoothAuthorization?, [Effect]) in
            guard let (authorization, outputs) = try? state.core.bluetoothManagerMade(by: app, at: now) else { return (.allowedAlways, []) }
            let crashed = state.core.description(of: app)?.bluetoothUsageDescription == nil
            return (crashed ? nil : authorization, state.process(outputs, at: now))
        }
        carryOut(effects, inline: nil)
        rearm()
        return authorization
    }

    /// Puts a system alert about `app` on the timeline whatever its state (the "Turn On
    /// Bluetooth" alert of a manager made with Bluetooth off).
    public func systemAlert(_ message: String, for app: String) {
        let now = clock.microseconds
        state.withLock { $0.timeline.append(PhoneTimelineEntry(time: now, output: .alert(app: app, message: message))) }
    }
}

extension SimulatedPhone.State {
    /// The phone's radio switches, compared before and after an action.
    struct Switches: Equatable {
        var settings: Bool
        var controlCenter: Bool
        var airplaneMode: Bool
    }

    /// The switches as they are.
    var switches: Switches {
        Switches(settings: core.bluetoothOn, controlCenter: core.controlCenterBluetoothOn, airplaneMode: core.airplaneModeOn)
    }

    /// What the managers hear when the switches moved from `before` (rule 16). The Settings
    /// switch (or Airplane Mode moving it) reaches every manager the system holds, of running
    /// apps and preserved for terminated ones; off, the radio's remaining links end after
    /// them. Core Bluetooth managers hear it on only with Control Center's button on.
    /// Control Center's button reaches only the running apps' Core Bluetooth managers: beacon
    /// regions go on (Radius Networks, "Bluetooth Beacons in iOS 11", 2018), and the system
    /// keeps terminated apps' work (TN3115); off, the links end too.
    func radioSwitched(from before: Switches) -> [SimulatedPhone.Effect] {
        let after = switches
        var effects: [SimulatedPhone.Effect] = []
        if before.settings != after.settings {
            let held = members.values.flatMap { $0 } + preserved.values.flatMap(\.values)
            for member in held where member.role == .region || !after.settings || after.controlCenter {
                effects.append(.bluetooth(member, on: after.settings))
            }
            if !after.settings { effects.append(.radioOff) }
            effects += systemListeners.map { .call($0) }
        } else if before.controlCenter != after.controlCenter, after.settings {
            for member in members.values.flatMap({ $0 }) where member.role != .region {
                effects.append(.bluetooth(member, on: after.controlCenter))
            }
            if !after.controlCenter { effects.append(.radioOff) }
        }
        return effects
    }

    /// The screen came on: every manager the system holds, of running apps and preserved
    /// for terminated ones, is told, in the order the apps were installed.
    func screenCameOn(afterLock: Bool) -> [SimulatedPhone.Effect] {
        let held = core.appNames.flatMap { (members[$0] ?? []) + (preserved[$0].map { $0.sorted { $0.key < $1.key }.map(\.value) } ?? []) }
        return held.map { SimulatedPhone.Effect.screenOn($0, afterLock: afterLock) }
    }
}
