import BLEAdapter
import BLELogging
import BLEPhone
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

    /// Installs the scenario's app `name` with the background modes and state restoration
    /// the file gives it; `launch` is its launch entry point, the program's own code.
    /// - Throws: `PhoneError.unknownApp(_:)` when the scenario has no such app on this
    ///   device; `PhoneError.duplicateApp(_:)` when it is installed already.
    public func install(scenarioApp name: String, launch: @escaping LaunchEntryPoint) throws(PhoneError) {
        guard let app = scenarioApps.first(where: { $0.name == name }) else { throw .unknownApp(name) }
        try install(AppDescription(name: app.name, modes: BackgroundModes(names: app.modes), restoresState: app.restoresState),
                    launch: launch)
    }

    /// From now on, carries out the scenario's `app` and `bluetooth` actions for this phone
    /// when the world's clock reaches them (any already due, at once, in order). An action
    /// the app's state forbids is logged (`ble.phone`, error) and skipped.
    /// - Throws: `PhoneError.invalidAction(_:)` when the device is not in a scenario's
    ///   world, an app the scenario installs is not installed here, the scenario switches
    ///   the phone's screen (which only `observe:` phones model), or the phone follows
    ///   already.
    public func followScenario() throws(PhoneError) {
        guard let place = device?.scenarioPlace else {
            throw .invalidAction("the phone's device is not in a scenario's world: open it with hci sim:FILE.yaml")
        }
        let missing = scenarioApps.map(\.name).filter { state(of: $0) == nil }
        guard missing.isEmpty else {
            throw .invalidAction("the scenario's app(s) " + missing.joined(separator: ", ")
                                 + " are not installed: install each with install(scenarioApp:launch:) first")
        }
        let screens = place.scenario.actions.contains { timed in
            if case let .screen(name, _) = timed.action { name == place.deviceName } else { false }
        }
        guard !screens else {
            throw .invalidAction("the scenario switches the screen of \(place.deviceName), which a phone running programs "
                                 + "does not model yet; leave the screen actions out")
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

/// The simulated phone's logger (`ble.phone`): scenario actions it could not carry out.
let phoneLog = BLELog.logger("phone")
