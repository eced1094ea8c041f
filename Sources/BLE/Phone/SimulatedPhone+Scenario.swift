import BLEAdapter
import BLELogging
import BLEPhone
import BLEProfiles
import BLEWorld

/// A phone that a scenario scripts: the device the phone's apps share is a scenario's
/// phone (`apps:` on the `host: external` device of `sim:FILE.yaml`), and the scenario's
/// `app` and `bluetooth` actions for it happen to the phone's apps at their times.
///
/// ```swift
/// let device = try await BLEDevice.open(hci: "sim:Scenarios/heart-rate-restore.yaml", profile: .iPhone)
/// let phone = SimulatedPhone(device: device)
/// try phone.install(scenarioApp: "Pulse") { options in monitor = HeartRateMonitor() }
/// try phone.followScenario()
/// ```
extension SimulatedPhone {
    /// The apps the scenario installs on the phone's device, in file order; empty for a
    /// device that is not in a scenario's world, or not a phone there.
    public var scenarioApps: [ScenarioApp] { device?.scenarioPlace?.device?.apps ?? [] }

    /// Installs the scenario's app `name` with the background modes, state restoration,
    /// answers to the notification and Bluetooth prompts, Bluetooth usage description,
    /// Precise Location switch and (for an app without a program) location authorization the file gives it; `launch` is its launch entry point, the program's own code.
    /// - Throws: `PhoneError.unknownApp(_:)` when the scenario has no such app on this
    ///   device; `PhoneError.duplicateApp(_:)` when it is installed already.
    public func install(scenarioApp name: String, launch: @escaping LaunchEntryPoint) throws(PhoneError) {
        guard let app = scenarioApps.first(where: { $0.name == name }) else { throw .unknownApp(name) }
        try install(AppDescription(name: app.name, modes: BackgroundModes(names: app.modes), restoresState: app.restoresState,
                                   locationAccuracy: app.preciseLocation ? .full : .reduced,
                                   bluetoothAuthorization: BluetoothAuthorizationAnswer(rawValue: app.bluetooth) ?? .allow,
                                   bluetoothUsageDescription: app.bluetoothUsageDescription),
                    launch: launch)
        setNotificationAnswer(NotificationAuthorizationAnswer(rawValue: app.notifications) ?? .allow, for: app.name)
        // An app without a program has no Core Location code to ask: it has what the file
        // says (`location:`, Always by default), as if the user had set it in Settings.
        if app.program == nil, let location = LocationAuthorization(rawValue: app.location) {
            state.withLock { try? $0.core.setLocationAuthorization(location, for: app.name) }
        }
    }

    /// From now on, carries out the scenario's `app`, `bluetooth`, `screen`, `network`, `notification`,
    /// `airplaneMode`, `controlCenterBluetooth`, `reboot`, `unlock` and `preciseLocation` actions for this phone
    /// when the world's clock reaches them (any already due, at once, in order). An action
    /// the app's state forbids is logged (`ble.phone`, error) and skipped.
    /// - Throws: `PhoneError.invalidAction(_:)` when the device is not in a scenario's
    ///   world, an app the scenario installs is not installed here, a notification names
    ///   no ANCS category, or the phone follows already.
    public func followScenario() throws(PhoneError) {
        guard let place = device?.scenarioPlace else {
            throw .invalidAction("the phone's device is not in a scenario's world: open it with hci sim:FILE.yaml")
        }
        let missing = scenarioApps.map(\.name).filter { state(of: $0) == nil }
        guard missing.isEmpty else {
            throw .invalidAction("the scenario's app(s) " + missing.joined(separator: ", ")
                                 + " are not installed: install each with install(scenarioApp:launch:) first")
        }
        for (index, timed) in place.scenario.actions.enumerated() {
            guard case let .notification(name, note) = timed.action, name == place.deviceName,
                  let category = note.category, ANCS.CategoryID(name: category) == nil else { continue }
            throw .invalidAction("actions[\(index)]: \"\(category)\" is not an ANCS category; use "
                                 + ANCS.CategoryID.names.joined(separator: ", "))
        }
        let started = state.withLock { state -> Bool in
            guard state.follower == nil else { return false }
            state.follower = Task { [weak self] in
                for await action in place.phoneActions {
                    guard let self else { return }
                    self.carryOut(scenarioAction: action)
                }
            }
            return true
        }
        guard started else { throw .invalidAction("the phone follows its scenario already") }
    }

    private func carryOut(scenarioAction: ScenarioAction) {
        let action: PhoneAction
        switch scenarioAction {
        case let .app(_, app, verb):
            guard let named = PhoneAction(named: verb.rawValue, app: app) else { return }
            action = named
        case let .bluetooth(_, on):
            action = .bluetooth(on: on)
        case let .screen(_, on):
            action = .screen(on: on)
        case let .airplaneMode(_, on):
            action = .airplaneMode(on: on)
        case let .controlCenterBluetooth(_, on):
            action = .controlCenterBluetooth(on: on)
        case .reboot:
            action = .reboot
        case .unlock:
            action = .unlock
        case let .notification(_, note):
            carryOut(notification: note)
            return
        case let .network(_, on):
            setNetwork(on: on)
            return
        case let .preciseLocation(_, app, on):
            setPreciseLocation(on, for: app)
            return
        default:
            return
        }
        do {
            try perform(action)
        } catch {
            phoneLog.error("the scenario's \(action) at \(Double(clock.microseconds) / 1e6) s: \(error)")
        }
    }
}

extension SimulatedPhone {
    /// Posts, changes or removes a notification of the scenario in ``notificationCenter``,
    /// and puts it on the timeline.
    private func carryOut(notification note: ScenarioNotification) {
        let now = clock.microseconds
        let uid = state.withLock { $0.notificationUIDs[note.id] }
        let change: (app: String, words: String)?
        switch note.change {
        case .add, .modify:
            guard let posted = PhoneNotification(note) else { return }
            if note.change == .add {
                let new = notificationCenter.add(posted)
                state.withLock { $0.notificationUIDs[note.id] = new }
                change = (posted.appIdentifier, "added \"\(note.id)\" (\(note.category ?? "")): \(posted.title)")
            } else if let uid, notificationCenter.modify(uid, to: posted) {
                change = (posted.appIdentifier, "modified \"\(note.id)\" (\(note.category ?? "")): \(posted.title)")
            } else {
                change = nil
            }
        case .remove:
            let gone = uid.flatMap { notificationCenter.notification($0) }
            if let uid, let gone, notificationCenter.remove(uid) {
                state.withLock { _ = $0.notificationUIDs.removeValue(forKey: note.id) }
                change = (gone.appIdentifier, "removed \"\(note.id)\"")
            } else {
                change = nil
            }
        }
        guard let change else {
            phoneLog.error("the scenario's notification \"\(note.id)\" (\(note.change.rawValue)) at \(Double(now) / 1e6) s: not posted")
            return
        }
        state.withLock { state in
            state.timeline.append(PhoneTimelineEntry(time: now, output: .notification(app: change.app, change: change.words)))
        }
    }
}

extension PhoneNotification {
    /// The notification a scenario's add or modify describes; `nil` without a category or
    /// app, or with an unknown category (``SimulatedPhone/followScenario()`` refuses those).
    init?(_ note: ScenarioNotification) {
        guard let name = note.category, let category = ANCS.CategoryID(name: name), let app = note.app else { return nil }
        self.init(category: category, appIdentifier: app, title: note.title, subtitle: note.subtitle, message: note.message,
                  positiveActionLabel: note.positiveAction, negativeActionLabel: note.negativeAction)
    }
}

/// The simulated phone's logger (`ble.phone`): scenario actions it could not carry out.
let phoneLog = BLELog.logger("phone")
