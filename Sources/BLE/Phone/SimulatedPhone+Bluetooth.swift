import BLETime

/// Bluetooth as the phone's Settings hold it: the switch, and each app's permission.
extension SimulatedPhone {
    /// Whether Bluetooth is switched on in Settings (``perform(_:)`` with
    /// `PhoneAction.bluetooth(on:)` flips it).
    public var isBluetoothOn: Bool { state.withLock { $0.core.bluetoothOn } }

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
    /// Bluetooth was switched on or off: every manager the system holds, of running apps
    /// and preserved for terminated ones, is told; switched off, the radio's remaining
    /// links end after them.
    func bluetoothSwitched(on: Bool) -> [SimulatedPhone.Effect] {
        let held = members.values.flatMap { $0 } + preserved.values.flatMap(\.values)
        var effects = held.map { SimulatedPhone.Effect.bluetooth($0, on: on) }
        if !on { effects.append(.radioOff) }
        return effects
    }

    /// The screen came on: every manager the system holds, of running apps and preserved
    /// for terminated ones, is told, in the order the apps were installed.
    func screenCameOn() -> [SimulatedPhone.Effect] {
        let held = core.appNames.flatMap { (members[$0] ?? []) + (preserved[$0].map { $0.sorted { $0.key < $1.key }.map(\.value) } ?? []) }
        return held.map { SimulatedPhone.Effect.screenOn($0) }
    }
}
