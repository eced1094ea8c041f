import BLE
import BLEBeacons
import BLETime
import Dispatch
import Foundation

/// One delegate call, as Sendable values, on its way from the engine to the main queue.
enum LocationEvent: Sendable {
    case didEnter(RegionSnapshot)
    case didExit(RegionSnapshot)
    case didDetermineState(CLRegionState, RegionSnapshot)
    case didRange([BeaconSnapshot], BeaconIdentityConstraint)
    case didFailRanging(BeaconIdentityConstraint, CLError)
    /// Ranging a region of the older, region-based API failed.
    case rangingRegionDidFail(RegionSnapshot, CLError)
    case monitoringDidFail(RegionSnapshot?, CLError)
    case didStartMonitoring(RegionSnapshot)
    case didFail(CLError)
    case didChangeAuthorization
    /// New fixes, posted in the location engine's generation (dropped after a stop).
    case didUpdateLocations([CLLocation], Int)
    /// A fix of the significant-change service, in the location engine's generation: the
    /// phone wakes or relaunches the app for it, as for a region event.
    case didChangeSignificantly([CLLocation], Int)
    /// A new heading, in the location engine's generation.
    case didUpdateHeading(CLHeading, Int)
    /// A visit begun or ended, posted in a location-engine generation.
    case didVisit(CLVisit, Int)
    /// No location can be had, in the location engine's generation.
    case didFailLocation(CLError, Int)
}

/// The main-queue end of a manager: holds it and its delegate weakly and makes the
/// delegate calls on the main queue.
final class DelegateRelay: @unchecked Sendable {
    // @unchecked Sendable: both references are read and written only under `lock`; the
    // delegate (not Sendable) is set from any thread, as on Apple platforms, and called
    // only on the main queue (CLLocationManager, "Threads").
    private let lock = NSLock()
    /// The app of a simulated phone the manager belongs to (made in its launch entry point).
    let app = PhoneApp.launching
    private weak var manager: CLLocationManager?
    private weak var storedDelegate: (any CLLocationManagerDelegate)?

    /// Remembers the manager whose delegate to call; the manager owns the relay, so weakly.
    func attach(_ manager: CLLocationManager) {
        lock.withLock { self.manager = manager }
    }

    /// The manager's delegate, held weakly as Core Location holds it.
    var delegate: (any CLLocationManagerDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }

    /// Hands `events` to the delegate in order on the main queue (Core Location's
    /// delivery for a manager made on the main thread). Events about a region or a
    /// constraint the app stopped meanwhile are dropped, so nothing arrives after a stop.
    /// Posted from simulated code, the delivery is part of the simulation's timeline
    /// (``Simulation/dispatch(to:_:)``): simulated time waits for the delegate.
    func post(_ events: [LocationEvent]) {
        guard !events.isEmpty else { return }
        let delivery: @Sendable () -> Void = {
            MainActor.assumeIsolated { self.route(events) }
        }
        if let simulation = Simulation.current {
            simulation.dispatch(to: .main, delivery)
        } else {
            DispatchQueue.main.async(execute: delivery)
        }
    }

    /// Runs `body` on the main queue after the events posted before it, as Core Location
    /// calls a completion handler "in the same threading context" as the delegate (Apple,
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`).
    func run(_ body: @escaping @Sendable () -> Void) {
        if let simulation = Simulation.current {
            simulation.dispatch(to: .main, body)
        } else {
            DispatchQueue.main.async(execute: body)
        }
    }

    /// Delivers `events`, through the phone's rules for a manager of a phone's app (iOS
    /// research §9): region events wake the app or relaunch it, an entry off screen comes
    /// late (rules 21 and 22); ranging reaches only a running app, never a suspended one,
    /// and is not kept for later (rule 24). Both need the app's location authorization
    /// (rule 22): with When In Use they reach it only in the foreground, without any
    /// authorization never; what they miss is dropped, not kept. Significant changes and
    /// visits, with Always, wake a suspended app and relaunch a terminated one, but not after
    /// a force-quit (`PhoneCore`'s routing); with When In Use they reach it only in use; standard updates reach the manager whatever the app's state.
    @MainActor private func route(_ events: [LocationEvent]) {
        guard let app else { return deliver(events) }
        for unit in Self.units(events) {
            switch unit[0] {
            case let .didEnter(region), let .didExit(region), let .didDetermineState(_, region):
                let detail = if unit.contains(where: { if case .didEnter = $0 { true } else { false } }) {
                    "didEnterRegion \(region.identifier)"
                } else if unit.contains(where: { if case .didExit = $0 { true } else { false } }) {
                    "didExitRegion \(region.identifier)"
                } else {
                    "didDetermineState \(region.identifier)"
                }
                if let refusal = app.phone.locationRefusal(for: app.name) {
                    app.phone.dropped(.region, detail, for: app.name, reason: refusal)
                    continue
                }
                app.phone.deliver(.region, detail, region: region.identifier, for: app.name, on: MainActor.shared) {
                    MainActor.assumeIsolated { self.deliver(unit) }
                }
            case .didRange:
                if app.state.isRunning, let refusal = app.phone.locationRefusal(for: app.name) {
                    app.phone.dropped(.region, "didRange", for: app.name, reason: refusal)
                } else if app.state.isRunning {
                    deliver(unit)
                } else {
                    app.phone.dropped(.region, "didRange", for: app.name, reason: "ranging reaches only a running app")
                }
            case .didChangeSignificantly, .didVisit:
                let detail = if case .didVisit = unit[0] { "didVisit" } else { "didUpdateLocations (significant change)" }
                if let refusal = app.phone.locationServiceRefusal(for: app.name) {
                    app.phone.dropped(.region, detail, for: app.name, reason: refusal)
                    continue
                }
                app.phone.deliver(.region, detail, for: app.name, on: MainActor.shared) {
                    MainActor.assumeIsolated { self.deliver(unit) }
                }
            case .didFailRanging, .rangingRegionDidFail:
                if app.state.isRunning {
                    deliver(unit)
                } else {
                    app.phone.dropped(.region, "didRange", for: app.name, reason: "ranging reaches only a running app")
                }
            default:
                deliver(unit)
            }
        }
    }

    /// `events` cut into what the phone routes as one: an entry or exit with the state
    /// determination of the same region next to it (one crossing, delivered together), and
    /// every other event alone.
    static func units(_ events: [LocationEvent]) -> [[LocationEvent]] {
        var units: [[LocationEvent]] = []
        for event in events {
            if let last = units.last?.last, units.last?.count == 1, Self.sameCrossing(last, event) {
                units[units.count - 1].append(event)
            } else {
                units.append([event])
            }
        }
        return units
    }

    /// Whether `first` and `second` are a state determination and an entry or exit of one region.
    private static func sameCrossing(_ first: LocationEvent, _ second: LocationEvent) -> Bool {
        switch (first, second) {
        case let (.didDetermineState(_, a), .didEnter(b)), let (.didDetermineState(_, a), .didExit(b)),
             let (.didEnter(a), .didDetermineState(_, b)), let (.didExit(a), .didDetermineState(_, b)):
            a.identifier == b.identifier
        default:
            false
        }
    }

    @MainActor private func deliver(_ events: [LocationEvent]) {
        for event in events {
            guard let manager = lock.withLock({ self.manager }), let delegate else { return }
            let engine = manager.engine
            switch event {
            case let .didEnter(region):
                guard region.notifyOnEntry, engine.isMonitoring(region.identifier) else { continue }
                delegate.locationManager(manager, didEnterRegion: region.makeRegion())
            case let .didExit(region):
                guard region.notifyOnExit, engine.isMonitoring(region.identifier) else { continue }
                delegate.locationManager(manager, didExitRegion: region.makeRegion())
            case let .didDetermineState(state, region):
                delegate.locationManager(manager, didDetermineState: state, for: region.makeRegion())
            case let .didRange(beacons, constraint):
                guard engine.isRanging(constraint) else { continue }
                let ranged = beacons.map(CLBeacon.init)
                delegate.locationManager(manager, didRange: ranged, satisfying: CLBeaconIdentityConstraint(constraint))
                // The older callback too, for each region ranged with `startRangingBeacons(in:)`.
                for region in engine.rangedRegions(for: constraint) {
                    guard let beaconRegion = region.makeRegion() as? CLBeaconRegion else { continue }
                    delegate.locationManager(manager, didRangeBeacons: ranged, in: beaconRegion)
                }
            case let .didFailRanging(constraint, error):
                delegate.locationManager(manager, didFailRangingFor: CLBeaconIdentityConstraint(constraint), error: error)
            case let .rangingRegionDidFail(region, error):
                guard let beaconRegion = region.makeRegion() as? CLBeaconRegion else { continue }
                delegate.locationManager(manager, rangingBeaconsDidFailFor: beaconRegion, withError: error)
            case let .monitoringDidFail(region, error):
                delegate.locationManager(manager, monitoringDidFailFor: region?.makeRegion(), withError: error)
            case let .didStartMonitoring(region):
                delegate.locationManager(manager, didStartMonitoringFor: region.makeRegion())
            case let .didFail(error):
                delegate.locationManager(manager, didFailWithError: error)
            case let .didUpdateLocations(locations, generation), let .didChangeSignificantly(locations, generation):
                guard manager.locationEngine.isCurrent(generation) else { continue }
                delegate.locationManager(manager, didUpdateLocations: locations)
            case let .didUpdateHeading(heading, generation):
                guard manager.locationEngine.isCurrent(generation) else { continue }
                delegate.locationManager(manager, didUpdateHeading: heading)
            case let .didVisit(visit, generation):
                guard manager.locationEngine.isCurrent(generation) else { continue }
                delegate.locationManager(manager, didVisit: visit)
            case let .didFailLocation(error, generation):
                guard manager.locationEngine.isCurrent(generation) else { continue }
                delegate.locationManager(manager, didFailWithError: error)
            case .didChangeAuthorization:
                delegate.locationManagerDidChangeAuthorization(manager)
                // The callback Apple deprecated in iOS 14 and still delivers.
                delegate.locationManager(manager, didChangeAuthorization: manager.authorizationStatus)
            }
        }
    }
}
