import Foundation
import SimulatedTesting
#if canImport(CoreLocation)
import CoreLocation
#else
import OpenCoreLocation
#endif
import Synchronization

/// How long a test waits for a delegate call before it fails (machines are shared).
let patience: Duration = .seconds(60)

/// The neighbourhood's iBeacon UUID (1/1 door, 1/2 shop, 2/7 backyard).
let neighbourhoodUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()

/// One delegate call, as values a test can compare.
enum BeaconEvent: Sendable, Equatable {
    struct Ranged: Sendable, Equatable {
        var major: Int
        var minor: Int
        var proximity: CLProximity
        var accuracy: Double
        var rssi: Int
    }

    case didEnter(String)
    case didExit(String)
    case didDetermineState(CLRegionState, String)
    case didRange([Ranged], major: Int?)
    case didFailRanging(code: Int?)
    case monitoringDidFail(String?, code: Int?)
    case didStartMonitoring(String)
    case didFail(code: Int?)
    case didChangeAuthorization
}

/// Every delegate call in order, and waits for the next one matching a condition. Sendable,
/// so the delegate (on the main queue) and the test share it without isolation games.
final class BeaconEventLog: Sendable {
    private struct Waiter {
        var id: Int
        var from: Int
        var predicate: @Sendable (BeaconEvent) -> Bool
        var continuation: CheckedContinuation<BeaconEvent?, Never>
    }

    private struct State {
        var events: [BeaconEvent] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// The calls so far.
    var events: [BeaconEvent] { state.withLock { $0.events } }

    /// How many calls so far: a cursor for ``first(from:within:where:)``.
    var count: Int { state.withLock { $0.events.count } }

    func append(_ event: BeaconEvent) {
        let ready = state.withLock { state -> [CheckedContinuation<BeaconEvent?, Never>] in
            state.events.append(event)
            let index = state.events.count - 1
            let matching = state.waiters.filter { $0.from <= index && $0.predicate(event) }
            state.waiters.removeAll { waiter in matching.contains { $0.id == waiter.id } }
            return matching.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: event) }
    }

    /// The first call at index `from` or later matching `predicate`, waiting up to `within`
    /// for it; `nil` if none came.
    func first(from: Int = 0, within: Duration = patience, where predicate: @escaping @Sendable (BeaconEvent) -> Bool) async -> BeaconEvent? {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if let found = state.events[min(from, state.events.count)...].first(where: predicate) {
                    continuation.resume(returning: found)
                    return nil
                }
                let id = state.nextID
                state.nextID += 1
                state.waiters.append(Waiter(id: id, from: from, predicate: predicate, continuation: continuation))
                return id
            }
            guard let id else { return }
            let clock = testClock
            Task {
                // The timeout: a timer on the test's clock, not a wait for the event.
                try? await clock.sleep(for: within)
                let expired = self.state.withLock { state -> CheckedContinuation<BeaconEvent?, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }
}

/// A delegate written as an iOS app writes one: an NSObject implementing the optional
/// methods it needs with Core Location's signatures. It records every call.
final class BeaconWatcher: NSObject, CLLocationManagerDelegate {
    let log = BeaconEventLog()

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        log.append(.didEnter(region.identifier))
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        log.append(.didExit(region.identifier))
    }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        log.append(.didDetermineState(state, region.identifier))
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        let ranged = beacons.map {
            BeaconEvent.Ranged(major: $0.major.intValue, minor: $0.minor.intValue, proximity: $0.proximity, accuracy: $0.accuracy, rssi: $0.rssi)
        }
        log.append(.didRange(ranged, major: beaconConstraint.major.map(Int.init)))
    }

    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        log.append(.didFailRanging(code: (error as? CLError)?.code.rawValue))
    }

    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        log.append(.monitoringDidFail(region?.identifier, code: (error as? CLError)?.code.rawValue))
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        log.append(.didStartMonitoring(region.identifier))
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        log.append(.didFail(code: (error as? CLError)?.code.rawValue))
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        log.append(.didChangeAuthorization)
    }
}
