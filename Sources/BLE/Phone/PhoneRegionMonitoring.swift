import BLEAdapter
import BLEBeacons
import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Synchronization

/// The region monitoring and ranging of a scenario's phone that runs programs on its own
/// host (`observe:` on a `host: external` phone): the phone's system, not an app, watches the
/// file's beacon regions with the device's one scan (``SharedScan``), shared with its apps'
/// central managers as iOS shares its radio between them and its own monitoring.
///
/// Each iBeacon report of that scan goes to the same observer core as a scenario run's
/// (`ScenarioObserverState`, BLEScenarios: BLEBeacons' ``BeaconMonitor`` and ``BeaconRanger``),
/// which is ticked once a simulated second on the device's clock, as Core Location does; its
/// enter, exit, first-heard, proximity and passed events go to ``onEvent``, for the phone's
/// story. Entries and exits reach the phone's apps without a program that follow the region,
/// through the phone's rules (``SimulatedPhone/deliver(_:_:region:for:on:_:)``); a program
/// registers its own regions with its location manager. The scan takes the phone's
/// duty (rule 8): the foreground one while such an app is on screen, else the background
/// one; Bluetooth switched off in Settings ends it, and the regions go unknown.
///
/// The phone knows only what its radio reports: a sighting carries no true distance, and
/// its position is the world's origin (the world's truth is the world's, not the phone's).
final class PhoneRegionMonitoring: Sendable {
    private struct State {
        var observer: ScenarioObserverState
        var listening: Task<Void, Never>?
        var ticking: Task<Void, Never>?
        var bluetoothOn = true
        var closed = false
    }

    private let phone: SimulatedPhone
    private let device: BLEDevice
    private let deviceName: String
    /// The apps that follow a region, by region: apps without a program whose `regions:`
    /// name it (or that list none, following them all).
    private let followers: [String: [String]]
    /// The scenario's devices by address, to name the beacon a report came from.
    private let senders: [BluetoothAddress: String]
    private let state: Mutex<State>
    /// Where the observer's events go, each once, in the order they happen.
    let onEvent: @Sendable (ScenarioTimelineEvent) -> Void

    /// The ranging and monitoring tick (as ``BLEScenarios/ScenarioRunner/tickInterval``).
    static let tickInterval: Int64 = 1_000_000

    /// The monitoring of `place`'s device, on `phone`, whose events go to `onEvent`; `nil`
    /// when the device observes nothing. Nothing runs before ``start()``.
    init?(phone: SimulatedPhone, device: BLEDevice, place: ScenarioPlace, onEvent: @escaping @Sendable (ScenarioTimelineEvent) -> Void) {
        guard let scenarioDevice = place.device, let observing = scenarioDevice.observing else { return nil }
        self.phone = phone
        self.device = device
        deviceName = place.deviceName
        self.onEvent = onEvent
        var followers: [String: [String]] = [:]
        for region in observing.regions {
            followers[region.identifier] = scenarioDevice.apps.filter { app in
                app.program == nil && (app.regions?.contains(region.identifier) ?? true)
            }.map(\.name)
        }
        self.followers = followers
        var senders: [BluetoothAddress: String] = [:]
        for device in place.scenario.devices where senders[device.address] == nil { senders[device.address] = device.name }
        self.senders = senders
        // The device's identifier in the world is not the phone's to know.
        // Late and missed exits as the phone's policy says (rule 21), from a seed of the phone's.
        let exits = ExitTiming(phone: phone.policy, seed: phone.nextMonitorSeed())
        state = Mutex(State(observer: ScenarioObserverState(name: place.deviceName, device: nil, configuration: observing,
                                                            exitTiming: exits)))
    }

    /// Registers the regions with the phone for the apps that follow them (app by app, in
    /// file order, as a scenario run does: they count against the device-wide priority,
    /// rule 20), starts monitoring now, joins the device's scan and starts the ticks.
    func start() {
        // A denied app's startMonitoring(for:) fails (CLError.regionMonitoringDenied).
        for app in phone.scenarioApps where phone.locationAuthorization(of: app.name) != .denied {
            for region in phone.device?.scenarioPlace?.device?.observing?.regions ?? []
            where followers[region.identifier]?.contains(app.name) == true {
                phone.startMonitoringRegion(region.identifier, for: app.name)
            }
        }
        let now = device.clock.microseconds
        let bluetoothOn = phone.isBluetoothOn
        let listening = bluetoothOn ? listen() : nil
        let ticking = tick(from: now)
        state.withLock { state in
            state.observer.start(at: now)
            state.bluetoothOn = bluetoothOn
            state.listening = listening
            state.ticking = ticking
        }
        phone.whenSystemChanges { [weak self] in self?.systemChanged() }
    }

    /// Stops listening and ticking; nothing more is reported.
    func close() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.closed = true
            defer {
                state.listening = nil
                state.ticking = nil
            }
            return [state.listening, state.ticking].compactMap { $0 }
        }
        for task in tasks { task.cancel() }
    }

    /// Whether an app that follows a region is on screen: the system's scan then runs at
    /// the foreground duty (rule 8, as ``BLEScenarios/ScenarioRunner`` reads it).
    private var followerOnScreen: Bool {
        followers.values.contains { apps in apps.contains { phone.state(of: $0) == .foreground } }
    }

    /// An app's state or the Bluetooth switch changed: the scan takes its new duty, and
    /// Bluetooth off ends it (the regions go unknown) until it is on again.
    private func systemChanged() {
        let on = phone.isBluetoothOn
        let now = device.clock.microseconds
        let switched = state.withLock { state -> (stopped: Task<Void, Never>?, restarts: Bool) in
            guard !state.closed, on != state.bluetoothOn else { return (nil, false) }
            state.bluetoothOn = on
            state.observer.radioSwitched(on: on, at: now)
            defer { state.listening = nil }
            return (state.listening, on)
        }
        switched.stopped?.cancel()
        if switched.restarts {
            // Joined outside the lock: joining asks whether a follower is on screen.
            let listening = listen()
            let kept = state.withLock { state -> Bool in
                guard !state.closed, state.bluetoothOn, state.listening == nil else { return false }
                state.listening = listening
                return true
            }
            if !kept { listening.cancel() }
        }
        SharedScan.of(device).reconsider()
    }

    /// Joins the device's shared scan as the system and hands each iBeacon report of a
    /// watched region to the observer, at the time it reaches the host.
    private func listen() -> Task<Void, Never> {
        let reports = SharedScan.of(device).subscribe(.system(phone, onScreen: { [weak self] in self?.followerOnScreen ?? false }))
        return spawn { [weak self] in
            for await report in reports {
                guard let self, !Task.isCancelled else { return }
                self.received(report.advertisement)
            }
        }
    }

    private func received(_ advertisement: Advertisement) {
        guard let rssi = advertisement.rssi, let frame = try? IBeacon(decoding: advertisement.advertisingBytes) else { return }
        let now = device.clock.microseconds
        let name = senders[advertisement.address] ?? frame.identity.description
        let sighting = BLEScenarios.BeaconSighting(beacon: name, identity: frame.identity, rssi: rssi, distance: nil, observerPosition: .zero,
                                      heardAt: now)
        let events = state.withLock { state -> [ScenarioTimelineEvent] in
            guard !state.closed, state.bluetoothOn, state.observer.watches(frame.identity) else { return [] }
            return state.observer.receive(frame, sighting: sighting, at: now).map {
                ScenarioTimelineEvent(time: now, device: deviceName, kind: $0)
            }
        }
        report(events)
    }

    /// Ticks the observer once a simulated second from `start`, on the device's clock.
    private func tick(from start: Int64) -> Task<Void, Never> {
        let clock = device.clock
        return spawn { [weak self] in
            var next = start + Self.tickInterval
            while !Task.isCancelled {
                do { try await clock.sleep(untilMicroseconds: next) } catch { return }
                guard let self else { return }
                let events = self.state.withLock { state -> [ScenarioTimelineEvent] in
                    state.closed ? [] : state.observer.tick(at: next, quietAfter: ScenarioRunner.quietAfter)
                }
                self.report(events)
                next += Self.tickInterval
            }
        }
    }

    /// Hands `events` on, and each entry or exit to the apps that follow its region.
    private func report(_ events: [ScenarioTimelineEvent]) {
        for event in events {
            onEvent(event)
            let call: String
            switch event.kind {
            case let .entered(region): call = "didEnterRegion \"\(region)\""
            case let .exited(region): call = "didExitRegion \"\(region)\""
            default: continue
            }
            guard let region = event.region else { continue }
            for app in followers[region] ?? [] {
                // An app without a program has no delegate to run: the phone's rules decide
                // whether it is woken, relaunched or never told, once its location
                // authorization lets the event through (rule 22).
                if let refusal = phone.locationRefusal(for: app) {
                    phone.dropped(.region, call, for: app, reason: refusal)
                    continue
                }
                phone.deliver(.region, call, region: region, for: app, on: MainActor.shared) {}
            }
        }
    }

    /// Starts `work` in the phone's simulation, if it has one.
    private func spawn(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if let simulation = phone.simulation { return Task(executorPreference: simulation) { await work() } }
        return Task { await work() }
    }
}
