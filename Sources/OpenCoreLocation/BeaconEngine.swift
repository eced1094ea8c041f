import BLE
import BLETime
import BLEBeacons
import Foundation
import Synchronization

/// The machinery behind a ``CLLocationManager``: BLEBeacons' monitoring and ranging cores
/// under one lock, fed from a passive scan of the controller with every advertisement
/// reported (duplicates allowed, since ranging averages each one), ticked once a second.
/// Sendable, so the scan and tick tasks and the manager's caller share it; the delegate
/// calls it produces go to the main queue through the ``DelegateRelay``.
///
/// The controller (the manager's ``ControllerLease``) is opened lazily by the first start
/// (monitoring or ranging) and stays open until the manager goes away; a controller that
/// cannot be opened fails every region and constraint waiting for it, and the next start
/// tries again.
final class BeaconEngine: Sendable {
    private struct State: Sendable {
        var monitor: BeaconMonitor
        var ranger: BeaconRanger<IBeaconIdentity>
        /// The flags of each monitored region, by identifier.
        var regions: [String: RegionSnapshot] = [:]
        /// Every constraint ranged, directly or through a region, in the order ranging
        /// started: what the ranging ticks report.
        var constraints: [BeaconIdentityConstraint] = []
        /// Constraints ranged with `startRangingBeacons(satisfying:)`.
        var direct: [BeaconIdentityConstraint] = []
        /// Regions ranged with the older `startRangingBeacons(in:)`, in the order started.
        var rangedRegions: [RegionSnapshot] = []

        /// Recomputes ``constraints`` from the direct constraints and the ranged regions.
        mutating func refreshConstraints() {
            var union: [BeaconIdentityConstraint] = []
            for constraint in direct + rangedRegions.compactMap(\.constraint) where !union.contains(constraint) {
                union.append(constraint)
            }
            // Keep the order in which ranging started for the ones still ranged.
            constraints = constraints.filter(union.contains) + union.filter { !constraints.contains($0) }
        }
        var runner: Task<Void, Never>?
        var closed = false
        /// Regions whose state the app asked for while Bluetooth was off, answered when it
        /// comes back on.
        var heldRequests: [RegionSnapshot] = []
    }

    let relay: DelegateRelay
    private let options: CLLocationManager.Options
    private let lease: ControllerLease
    private let state: Mutex<State>
    /// The clock of the ranging ticks and the monitoring cores: the simulation's when the
    /// manager is made in one (its embedded world then joins that simulation too), else the
    /// wall clock, as the host on a real controller keeps.
    private let clock: any StackClock
    private let origin: Int64

    init(options: CLLocationManager.Options, lease: ControllerLease, relay: DelegateRelay) {
        self.options = options
        self.lease = lease
        self.relay = relay
        clock = Simulation.current?.clock ?? WallClock()
        origin = clock.microseconds
        var monitor = BeaconMonitor(configuration: Self.monitoring(options, app: relay.app))
        // A manager made on a phone with Bluetooth off starts with the radio off.
        if relay.app?.phone.isBluetoothOn == false { monitor.radioSwitchedOff(at: 0) }
        state = Mutex(State(monitor: monitor, ranger: BeaconRanger(configuration: RangingConfiguration())))
    }

    /// The monitoring core's configuration: the exit period of `options`; for a manager of an
    /// app of a simulated iPhone, the phone's late and missed exits too (``PhonePolicy``'s
    /// `lateExitProbability`, `lateExitDelay`, `exitMissProbability`; iOS research §9, rule
    /// 21), drawn from a seed of the phone's. A manager of no phone, a Linux program's,
    /// reports every exit one exit period after the last packet.
    private static func monitoring(_ options: CLLocationManager.Options, app: PhoneApp?) -> MonitoringConfiguration {
        var configuration = MonitoringConfiguration(exitPeriod: options.exitPeriod)
        if let app {
            let policy = app.policy
            configuration.exitTiming = ExitTiming(
                lateProbability: policy.lateExitProbability,
                lateBy: .microseconds(policy.lateExitDelay.lowerBound) ... .microseconds(policy.lateExitDelay.upperBound),
                missProbability: policy.exitMissProbability, seed: app.phone.nextMonitorSeed())
        }
        return configuration
    }

    /// Microseconds since the engine was made: the cores' clock.
    private func now() -> BeaconTime {
        clock.microseconds - origin
    }

    // MARK: Requests from the manager

    func startMonitoring(_ region: RegionSnapshot) {
        guard let constraint = region.constraint else {
            relay.post([.monitoringDidFail(region, CLError(.regionMonitoringFailure, reason: "only beacon regions can be monitored on Linux"))])
            return
        }
        let now = now()
        let failure = state.withLock { state -> BeaconMonitoringError? in
            do throws(BeaconMonitoringError) {
                try state.monitor.startMonitoring(BeaconRegion(identifier: region.identifier, constraint: constraint), at: now)
                state.regions[region.identifier] = region
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            relay.post([.monitoringDidFail(region, CLError(.regionMonitoringFailure, reason: failure.description))])
        } else {
            relay.post([.didStartMonitoring(region)])
            ensureRunning()
        }
    }

    func stopMonitoring(identifier: String) {
        state.withLock { state in
            state.monitor.stopMonitoring(identifier: identifier)
            state.regions[identifier] = nil
        }
    }

    /// The region's state after the exits now due; `unknown` for a region not monitored.
    /// With Bluetooth off the request is held and answered, `unknown`, when it comes back
    /// on (``bluetoothSwitched(on:)``).
    func requestState(for region: RegionSnapshot) {
        let now = now()
        let events = state.withLock { state -> [LocationEvent]? in
            guard state.monitor.isRadioOn else {
                if !state.heldRequests.contains(where: { $0.identifier == region.identifier }) { state.heldRequests.append(region) }
                return nil
            }
            return state.monitor.requestState(for: region.identifier, at: now).map { Self.event($0, regions: state.regions) }
        }
        guard let events else { return }
        relay.post(events.isEmpty ? [.didDetermineState(.unknown, region)] : events)
    }

    func startRanging(_ constraint: BeaconIdentityConstraint) {
        let off = state.withLock { state in
            if !state.direct.contains(constraint) { state.direct.append(constraint) }
            state.refreshConstraints()
            return !state.monitor.isRadioOn
        }
        if off { relay.post([.didFailRanging(constraint, Self.bluetoothOff)]) }
        ensureRunning()
    }

    func stopRanging(_ constraint: BeaconIdentityConstraint) {
        state.withLock { state in
            state.direct.removeAll { $0 == constraint }
            state.refreshConstraints()
        }
    }

    /// Ranges a beacon region (the older, region-based API); a region with the identifier of
    /// a ranged one replaces it, as Core Location's region identity is its identifier.
    func startRanging(region: RegionSnapshot) {
        guard let constraint = region.constraint else { return }
        let off = state.withLock { state in
            state.rangedRegions.removeAll { $0.identifier == region.identifier }
            state.rangedRegions.append(region)
            state.refreshConstraints()
            return !state.monitor.isRadioOn
        }
        if off { relay.post([.didFailRanging(constraint, Self.bluetoothOff), .rangingRegionDidFail(region, Self.bluetoothOff)]) }
        ensureRunning()
    }

    /// Stops ranging the region with `identifier`.
    func stopRanging(regionIdentifier identifier: String) {
        state.withLock { state in
            state.rangedRegions.removeAll { $0.identifier == identifier }
            state.refreshConstraints()
        }
    }

    /// The regions ranged with the region-based API, in the order ranging started.
    var rangedRegions: [RegionSnapshot] { state.withLock { $0.rangedRegions } }

    /// The ranged regions whose beacons are `constraint`'s: the regions a `didRange` for
    /// `constraint` is also reported for, as `didRangeBeacons:inRegion:`.
    func rangedRegions(for constraint: BeaconIdentityConstraint) -> [RegionSnapshot] {
        state.withLock { state in state.rangedRegions.filter { $0.constraint == constraint } }
    }

    func isMonitoring(_ identifier: String) -> Bool { state.withLock { $0.regions[identifier] != nil } }

    func isRanging(_ constraint: BeaconIdentityConstraint) -> Bool { state.withLock { $0.constraints.contains(constraint) } }

    var monitoredRegions: [RegionSnapshot] {
        state.withLock { state in state.monitor.monitoredRegions.compactMap { state.regions[$0.identifier] } }
    }

    /// The constraints ranged with `startRangingBeacons(satisfying:)`, not those of ranged regions.
    var rangedConstraints: [BeaconIdentityConstraint] { state.withLock { $0.direct } }

    /// Stops the scan; the manager is going away (and closes the controller).
    func shutdown() {
        state.withLock { state in
            state.closed = true
            state.runner?.cancel()
            state.runner = nil
        }
    }

    // MARK: Bluetooth switch

    /// Ranging's error with Bluetooth off: Apple's `CLError.Code.rangingUnavailable`, "this
    /// might happen if the device is in Airplane mode or if Bluetooth or location services
    /// are disabled".
    static let bluetoothOff = CLError(.rangingUnavailable, reason: "Bluetooth is off")

    /// Bluetooth was switched off or on in the phone's Settings (iOS research §7 and §9,
    /// rule 22; Stack Overflow answer 34062216). Off: every monitored region becomes unknown
    /// without an exit and reports nothing; each ranging request fails once with
    /// `rangingUnavailable` and ranges nothing, but stays, as the regions do. On: the
    /// regions are determined afresh with `didDetermineState` alone, state requests made
    /// meanwhile are answered `unknown`, and ranging reports again.
    func bluetoothSwitched(on: Bool) {
        let now = now()
        let events = state.withLock { state -> [LocationEvent] in
            guard on != state.monitor.isRadioOn else { return [] }
            guard on else {
                state.monitor.radioSwitchedOff(at: now)
                state.ranger = BeaconRanger(configuration: state.ranger.configuration)
                // As when the controller fails: each constraint, then each region of the older API.
                return state.constraints.map { .didFailRanging($0, Self.bluetoothOff) }
                    + state.rangedRegions.map { .rangingRegionDidFail($0, Self.bluetoothOff) }
            }
            state.monitor.radioSwitchedOn(at: now)
            let held = state.heldRequests
            state.heldRequests = []
            return held.map { region in
                let answer = state.monitor.requestState(for: region.identifier, at: now).map { Self.event($0, regions: state.regions) }
                return answer.last ?? .didDetermineState(.unknown, region)
            }
        }
        relay.post(events)
    }

    // MARK: Screen

    /// The phone's screen came on (Apple, `CLRegion.notifyEntryStateOnDisplay`: the state is
    /// reported "when the user turns on the display and the device is already inside the
    /// region"; §9, rule 23): exits now due first, then `didDetermineState(.inside)` for each
    /// monitored region that asks for it and is inside. Nothing with Bluetooth off.
    func screenCameOn() {
        let now = now()
        let events = state.withLock { state -> [LocationEvent] in
            guard state.monitor.isRadioOn else { return [] }
            var events: [LocationEvent] = []
            for region in state.monitor.monitoredRegions {
                guard state.regions[region.identifier]?.notifyEntryStateOnDisplay == true else { continue }
                for event in state.monitor.requestState(for: region.identifier, at: now) {
                    if case let .didDetermineState(regionState, _, _) = event, regionState != .inside { continue }
                    events.append(Self.event(event, regions: state.regions))
                }
            }
            return events
        }
        relay.post(events)
    }

    // MARK: Running

    private func ensureRunning() {
        state.withLock { state in
            guard state.runner == nil, !state.closed else { return }
            state.runner = Task { await self.run() }
        }
    }

    private func run() async {
        let device: BLEDevice
        do {
            device = try await lease.device()
        } catch {
            failEverything(because: error.description)
            return
        }
        do {
            let results = try await device.central.scan(options: ScanOptions(active: false, allowDuplicates: true))
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.consume(results) }
                group.addTask { await self.tickEverySecond() }
                await group.next()  // either ends only when cancelled or when the device goes
                group.cancelAll()
            }
        } catch {
            failEverything(because: error.description)
        }
        // Cancelled: the manager is going away and closes the lease. Otherwise the device went.
        if !Task.isCancelled { await lease.release(device) }
    }

    /// Feeds every iBeacon advertisement to the cores.
    private func consume(_ results: ScanResults) async {
        for await advertisement in results {
            guard let data = advertisement.manufacturerData, let rssi = advertisement.rssi,
                  let frame = try? IBeacon(manufacturerData: data) else { continue }
            let now = now()
            let events = state.withLock { state -> [LocationEvent] in
                guard state.monitor.isRadioOn else { return [] }
                if state.constraints.contains(where: { $0.matches(frame.identity) }) {
                    state.ranger.add(frame, rssi: rssi, at: now)
                }
                return state.monitor.detected(frame.identity, at: now).map { Self.event($0, regions: state.regions) }
            }
            relay.post(events)
        }
    }

    /// Ranging results and due exits at each tick of the ranging interval (a timer, not a
    /// wait for something to happen).
    private func tickEverySecond() async {
        let clock = self.clock
        var deadline = clock.microseconds + options.rangingInterval.wholeMicroseconds
        while !Task.isCancelled {
            do {
                try await clock.sleep(untilMicroseconds: deadline)
            } catch {
                return
            }
            deadline += options.rangingInterval.wholeMicroseconds
            let now = now()
            let date = Date()
            let events = state.withLock { state -> [LocationEvent] in
                guard state.monitor.isRadioOn else { return [] }
                let ranged = state.ranger.range(at: now)
                var events: [LocationEvent] = state.constraints.map { constraint in
                    .didRange(ranged.filter { constraint.matches($0.identity) }.map { BeaconSnapshot($0, at: date) }, constraint)
                }
                events += state.monitor.tick(at: now).map { Self.event($0, regions: state.regions) }
                return events
            }
            relay.post(events)
        }
    }

    /// The controller cannot be used: every region and constraint fails and is dropped,
    /// and the next start opens the controller again.
    private func failEverything(because reason: String) {
        let events = state.withLock { state in
            var events: [LocationEvent] = [.didFail(CLError(.rangingUnavailable, reason: reason))]
            for region in state.monitor.monitoredRegions {
                events.append(.monitoringDidFail(state.regions[region.identifier], CLError(.regionMonitoringFailure, reason: reason)))
                state.monitor.stopMonitoring(region)
            }
            for constraint in state.constraints {
                events.append(.didFailRanging(constraint, CLError(.rangingUnavailable, reason: reason)))
            }
            for region in state.rangedRegions {
                events.append(.rangingRegionDidFail(region, CLError(.rangingUnavailable, reason: reason)))
            }
            state.regions = [:]
            state.constraints = []
            state.direct = []
            state.rangedRegions = []
            state.runner = nil
            return events
        }
        relay.post(events)
    }

    private static func event(_ event: MonitorEvent, regions: [String: RegionSnapshot]) -> LocationEvent {
        let region = regions[event.region.identifier]
            ?? RegionSnapshot(identifier: event.region.identifier, constraint: event.region.constraint, notifyOnEntry: true,
                              notifyOnExit: true, notifyEntryStateOnDisplay: false)
        switch event {
        case .didEnter: return .didEnter(region)
        case .didExit: return .didExit(region)
        case let .didDetermineState(state, _, _): return .didDetermineState(CLRegionState(rawValue: state.rawValue) ?? .unknown, region)
        }
    }
}
