import BLETime
import Dispatch
import Foundation
import Synchronization

/// A simulated iPhone: apps with their states and background modes on one ``BLEDevice``,
/// and the system between them and their events (`PhoneCore`, the background rules of
/// DESIGN.md's "phone").
///
/// The compatibility layers hand each delegate call of an app's managers to
/// ``deliver(_:_:for:on:_:)``: the phone runs it at once, keeps it until the app returns to
/// the foreground, wakes the app for it, relaunches the terminated app for it, or drops it.
/// What the system does is kept in ``timeline``. Its timers run on the device's clock, so a
/// phone in a simulated world runs on virtual time.
///
/// ```swift
/// let phone = SimulatedPhone(device: device)
/// try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true)) { options in
///     app = HeartRateApp(restoring: options.bluetoothCentrals)   // the app's launch entry point
/// }
/// try phone.perform(.launch("Pulse"))
/// try phone.perform(.background("Pulse"))
/// ```
public final class SimulatedPhone: Sendable {
    /// An app's launch entry point (UIKit's `application(_:didFinishLaunchingWithOptions:)`):
    /// run on the main queue at a launch by the user and at each relaunch by the system. The
    /// managers it makes belong to the app.
    public typealias LaunchEntryPoint = @MainActor @Sendable (PhoneLaunchOptions) -> Void

    /// The device whose radio the phone's apps share, when it was made with one; a phone
    /// made with a clock only has apps that open their controllers themselves (Core
    /// Location's managers do).
    public let device: BLEDevice?
    /// The clock the phone's rules run on: the device's.
    public let clock: any StackClock
    /// The phone's Notification Center: the notifications its apps (or its scenario) post,
    /// which an ``ANCSProvider`` on the phone's device publishes to accessories.
    public let notificationCenter = PhoneNotificationCenter()
    /// The host habits its apps' Core Bluetooth managers follow on the air (connection
    /// parameters, data length, long writes without response): ``HostProfile/iPhone``
    /// unless the phone was made with another ``PhoneProfile``. The ATT MTU is the device's
    /// own, set when it was opened.
    public let hostProfile: HostProfile
    let simulation: Simulation?
    let state: Mutex<State>

    /// A phone with no apps on `device`; `seed` makes its random choices repeat, the
    /// cellular link's latencies among them; `link` gives the link's numbers.
    public init(device: BLEDevice, policy: PhonePolicy = PhonePolicy(), link: CellularLinkPolicy = CellularLinkPolicy(), seed: UInt64 = 0,
                host: HostProfile = .iPhone) {
        self.device = device
        hostProfile = host
        clock = device.clock
        simulation = Simulation.current
        state = Mutex(State(core: Self.core(policy: policy, seed: seed, clock: clock), link: CellularLink(policy: link, seed: seed ^ Self.linkSeed)))
    }

    /// A phone with no apps and no device of its own, whose rules run on `clock` (a
    /// simulation's, for virtual time); `seed` makes its random choices repeat, the cellular
    /// link's latencies among them; `link` gives the link's numbers.
    public init(clock: any StackClock, policy: PhonePolicy = PhonePolicy(), link: CellularLinkPolicy = CellularLinkPolicy(), seed: UInt64 = 0) {
        device = nil
        hostProfile = .iPhone
        self.clock = clock
        simulation = (clock as? VirtualClock)?.simulation ?? Simulation.current
        state = Mutex(State(core: Self.core(policy: policy, seed: seed, clock: clock), link: CellularLink(policy: link, seed: seed ^ Self.linkSeed)))
    }

    /// A phone of `profile`'s iOS on `device`, which should have been opened with
    /// `profile.host` for its ATT MTU.
    public convenience init(device: BLEDevice, profile: PhoneProfile, link: CellularLinkPolicy = CellularLinkPolicy(), seed: UInt64 = 0) {
        self.init(device: device, policy: profile.policy, link: link, seed: seed, host: profile.host)
    }

    /// Mixed into the phone's seed for its link's, so the two sequences differ.
    static let linkSeed: UInt64 = 0x6365_6C6C_756C_6172

    /// Installs `app`, whose launch entry point is `launch`.
    /// - Throws: `PhoneError.duplicateApp(_:)` when an app of that name is installed.
    public func install(_ app: AppDescription, launch: @escaping LaunchEntryPoint) throws(PhoneError) {
        try state.withLock { state throws(PhoneError) in
            try state.core.install(app)
            state.launchers[app.name] = launch
        }
    }

    /// Does what the user or the system does to an app, to Bluetooth, or to the phone.
    /// Launching an app that is not running runs its launch entry point. A restart
    /// (`PhoneAction.reboot`) ends every app that runs or is suspended, as a termination
    /// for `TerminationReason.reboot` (their managers kept as the relaunch profile says), and
    /// ends the radio's links; with a passcode, nothing is relaunched for Bluetooth until
    /// `PhoneAction.unlock`, and apps cannot be opened before it.
    /// - Throws: `PhoneError` for an app not installed, or an action its state forbids.
    public func perform(_ action: PhoneAction) throws(PhoneError) {
        let now = clock.microseconds
        let (effects, airplaneMode) = try state.withLock { state throws(PhoneError) -> ([Effect], Bool?) in
            var fresh: (String, LaunchEntryPoint)?
            if case let .launch(name) = action {
                switch try state.core.state(of: name) {
                case .notRunning, .terminated: fresh = state.launchers[name].map { (name, $0) }
                default: break
                }
            }
            let switches = state.switches
            let screenWasOn = state.core.screenOn
            var effects = state.process(try state.core.handle(action, at: now), at: now)
            effects += state.radioSwitched(from: switches)
            if case .screen(on: true) = action { effects += state.screenCameOn(afterLock: !screenWasOn) }
            // A restart ends the radio's links with the apps (rule 16).
            if case .reboot = action { effects.append(.radioOff) }
            if let (name, launcher) = fresh { effects.append(.launch(name, launcher, PhoneLaunchOptions())) }
            let airplaneMode = state.core.airplaneModeOn
            return (effects, switches.airplaneMode == airplaneMode ? nil : airplaneMode)
        }
        carryOut(effects, inline: nil)
        // Airplane Mode takes the cellular link with it.
        if let airplaneMode { setNetwork(on: !airplaneMode) }
        rearm()
    }

    /// Hands the system a delegate call of `app`'s managers, to run as the phone's rules
    /// say. Call it on `isolation` (the manager's queue): a call the app may see now runs
    /// at once, inside this call; a later one runs on `isolation` then. `region` names the
    /// monitored region a region event is about, for the device-wide priority of regions.
    public func deliver(_ kind: AppEventKind, _ detail: String, region: String? = nil, for app: String, on isolation: any Actor,
                        _ body: @escaping @Sendable () -> Void) {
        let now = clock.microseconds
        let (id, effects) = state.withLock { state -> (UInt64, [Effect]) in
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Delivery(isolation: isolation, body: body)
            let event = PhoneEvent(kind: kind, detail: detail, time: now, id: id, region: region)
            let outputs: [PhoneOutput]
            do {
                outputs = try state.core.event(event, for: app, at: now)
            } catch {
                outputs = [.dropped(app: app, event: event, reason: "\(error)")]
            }
            return (id, state.process(outputs, at: now))
        }
        carryOut(effects, inline: id)
        rearm()
    }

    /// Records that a delegate call of `app`'s managers never reached it, and why (a rule
    /// that drops rather than queues, such as ranging while suspended).
    public func dropped(_ kind: AppEventKind, _ detail: String, for app: String, reason: String) {
        let now = clock.microseconds
        state.withLock { state in
            let event = PhoneEvent(kind: kind, detail: detail, time: now)
            state.timeline.append(PhoneTimelineEntry(time: now, output: .dropped(app: app, event: event, reason: reason)))
        }
    }

    /// Shows `message` as the system's alert for `app` if the app is suspended, as iOS does
    /// for the connection alerts an app asks for with `CBConnectPeripheralOptionNotifyOn…`
    /// (iOS research §9, rule 5); in the foreground or the background the app hears the event
    /// itself. Returns whether the alert was shown.
    @discardableResult
    public func alert(_ message: String, for app: String) -> Bool {
        let now = clock.microseconds
        return state.withLock { state in
            guard (try? state.core.state(of: app)) == .suspended else { return false }
            state.timeline.append(PhoneTimelineEntry(time: now, output: .alert(app: app, message: message)))
            return true
        }
    }

    /// `app` connects to `peripheral` (an identifier the compatibility layer chooses, the
    /// same for every app) asking for the connection alerts `kinds` (the words each alert
    /// opens with, "Connected to", "Disconnected from", "Notification from"); an empty set
    /// withdraws its requests. They compete with other apps' in
    /// ``alert(_:kind:peripheral:for:)`` (iOS research §9, rule 5).
    public func requestConnectionAlerts(_ kinds: Set<String>, peripheral: String, for app: String) {
        state.withLock { $0.core.requestConnectionAlerts(kinds, peripheral: peripheral, for: app) }
    }

    /// Shows `message`, `app`'s connection alert of kind `kind` about `peripheral`, if the
    /// app is suspended and, among the apps that asked for that alert of that peripheral
    /// (``requestConnectionAlerts(_:peripheral:for:)``), the one most recently in the
    /// foreground (iOS research §9, rule 5; Apple, `CBConnectPeripheralOptionNotifyOn…`).
    /// Returns whether the alert was shown.
    @discardableResult
    public func alert(_ message: String, kind: String, peripheral: String, for app: String) -> Bool {
        let now = clock.microseconds
        return state.withLock { state in
            let outputs = state.core.connectionAlert(message, kind: kind, peripheral: peripheral, for: app, at: now)
            state.timeline += outputs.map { PhoneTimelineEntry(time: now, output: $0) }
            return !outputs.isEmpty
        }
    }

    /// Adds `member` to the managers of `app`. When the system preserved a manager of the
    /// app with the same role and restore identifier, it is returned, for `member` to take
    /// its links, scans and subscriptions over (state restoration).
    /// - Throws: `PhoneError.restoreIdentifierInUse(_:app:)` when a running manager of the
    ///   app with the same role has the same restore identifier: `member` is added, but its
    ///   state is not preserved.
    public func join(_ member: any PhoneAppMember, app: String) throws(PhoneError) -> (any PhoneAppMember)? {
        try state.withLock { state throws(PhoneError) in
            if let identifier = member.restoreIdentifier,
               (state.members[app] ?? []).contains(where: { $0.restoreIdentifier == identifier && $0.role == member.role }) {
                state.members[app, default: []].append(member)
                state.unpreserved.insert(ObjectIdentifier(member))
                throw .restoreIdentifierInUse(identifier, app: app)
            }
            state.members[app, default: []].append(member)
            guard let identifier = member.restoreIdentifier, let kept = state.preserved[app]?[identifier],
                  kept.role == member.role else { return nil }
            state.preserved[app]?[identifier] = nil
            return kept
        }
    }

    /// A relaunched app's manager has restored its state and reported its own: the events
    /// the app was relaunched for follow, in order.
    public func restored(app: String) {
        let now = clock.microseconds
        let held = state.withLock { state in
            let held = state.relaunching.removeValue(forKey: app) ?? []
            if !held.isEmpty { state.timeline.append(PhoneTimelineEntry(time: now, output: .deliver(app: app, events: held.map(\.event)))) }
            return held.map(\.delivery)
        }
        carryOut(held.map { .run($0, id: 0) }, inline: nil)
    }

    /// Puts on the timeline a delegate call the system makes to `app` by itself, outside
    /// the rules: the restoration's `willRestoreState` and the state report after it (§9,
    /// rule 14), so that the story shows them in their place.
    public func called(_ kind: AppEventKind, _ detail: String, for app: String) {
        let now = clock.microseconds
        state.withLock { state in
            state.timeline.append(PhoneTimelineEntry(time: now, output: .deliver(app: app, events: [PhoneEvent(kind: kind, detail: detail, time: now)])))
        }
    }

    /// Whether a discovery of `peripheral` reaches `app` while it is not in the foreground:
    /// once per app and peripheral (§9, rule 7), until ``forgetBackgroundReport(of:for:)``.
    public func firstBackgroundReport(of peripheral: String, for app: String) -> Bool {
        state.withLock { $0.backgroundReported[app, default: []].insert(peripheral).inserted }
    }

    /// A connection to `peripheral` ended: its next background discovery is reported again.
    public func forgetBackgroundReport(of peripheral: String, for app: String) {
        state.withLock { _ = $0.backgroundReported[app]?.remove(peripheral) }
    }

    /// The state of `app`, or `nil` when it is not installed.
    public func state(of app: String) -> AppState? {
        state.withLock { try? $0.core.state(of: app) }
    }

    /// The background modes `app` declared (none when it is not installed).
    public func modes(of app: String) -> BackgroundModes {
        state.withLock { $0.core.description(of: app)?.modes ?? [] }
    }

    /// The numbers of the phone's rules.
    public var policy: PhonePolicy { state.withLock { $0.core.policy } }

    /// What the system did so far, in order.
    public var timeline: [PhoneTimelineEntry] { state.withLock { $0.timeline } }

    /// Calls `listener` after every change of an app's state or of the Bluetooth switch in
    /// Settings, once the system has made it: how the phone's own services
    /// (``PhoneRegionMonitoring``) follow the apps and the radio.
    func whenSystemChanges(_ listener: @escaping @Sendable () -> Void) {
        state.withLock { $0.systemListeners.append(listener) }
    }

    /// Stops the phone's timers and its following of a scenario; the apps stay as they are.
    public func close() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.timerDeadline = nil
            state.follower?.cancel()
            state.follower = nil
            state.systemListeners = []
        }
    }
}
