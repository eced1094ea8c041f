import BLE
import BLETime
import Foundation
import Synchronization

/// The location part of a ``CLLocationManager``: once per ``CLLocationManager/Options/locationInterval``
/// while updates are on, it asks the controller where the device is (SwiftBLE's vendor
/// command, answered by a simulated world: ``BLEDevice/simulatedLocation()``) and turns the
/// answer into the fixes and headings a phone would report.
///
/// A fix is the true position moved by a seeded random error (a two-dimensional normal
/// distribution whose 68 % radius is the fix's `horizontalAccuracy`): 5 m for the best
/// accuracies, else the desired accuracy (at most 3 km). With reduced accuracy (the app's
/// ``CLLocationManager/accuracyAuthorization``, or ``kCLLocationAccuracyReduced`` desired)
/// fixes, significant changes and visits are approximate instead (``ApproximateLocation``). Course and speed come from the true
/// movement since the previous fix. The seed is drawn from the caller's simulation, so a
/// simulated run repeats exactly. A controller that is not simulated, or a world without a
/// geographic origin, gives `didFailWithError` with ``CLError/Code/locationUnknown`` and
/// updates stop.
final class LocationEngine: Sendable {
    /// Settings Core Location takes and Linux has no use for, kept so they read back.
    struct Settings: Sendable {
        var allowsBackground = false
        var pausesAutomatically = true
        var showsIndicator = false
        var activityType = CLActivityType.other
    }

    private let storedSettings = Mutex(Settings())

    /// The settings that have no effect here.
    var settings: Settings {
        get { storedSettings.withLock { $0 } }
        set { storedSettings.withLock { $0 = newValue } }
    }

    private struct State: Sendable {
        var updatingLocation = false
        var updatingHeading = false
        var oneShot = false
        /// Significant-change monitoring and visit monitoring (``SignificantChangeFilter``,
        /// ``VisitDetector``): they measure as updates do and report less.
        var significantChanges = false
        var visits = false
        var significantFilter = SignificantChangeFilter()
        var visitDetector = VisitDetector()
        /// The approximate fixes of reduced accuracy, at most four an hour.
        var approximate = ApproximateLocation()
        /// Bumped by every start and stop, so events posted before it are dropped.
        var generation = 0
        var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
        var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
        var headingFilter: CLLocationDegrees = 1
        /// The true position of the last fix delivered, and of the last one measured.
        var lastDelivered: SimulatedLocation?
        var lastMeasured: SimulatedLocation?
        var lastHeading: Double?
        var location: CLLocation?
        var heading: CLHeading?
        var random: UInt64
        var runner: Task<Void, Never>?
        var closed = false

        var wantsUpdates: Bool { updatingLocation || updatingHeading || oneShot || significantChanges || visits }
    }

    private let state: Mutex<State>
    private let lease: ControllerLease
    private let relay: DelegateRelay
    private let interval: Duration
    private let clock: any StackClock
    private let clockOrigin: Int64
    private let dateOrigin: Date

    init(options: CLLocationManager.Options, lease: ControllerLease, relay: DelegateRelay) {
        var random = StackRandom()
        state = Mutex(State(random: random.next()))
        self.lease = lease
        self.relay = relay
        interval = options.locationInterval
        clock = Simulation.current?.clock ?? WallClock()
        clockOrigin = clock.microseconds
        dateOrigin = Date()
    }

    // MARK: Settings and requests

    var desiredAccuracy: CLLocationAccuracy {
        get { state.withLock { $0.desiredAccuracy } }
        set { state.withLock { $0.desiredAccuracy = newValue } }
    }

    var distanceFilter: CLLocationDistance {
        get { state.withLock { $0.distanceFilter } }
        set { state.withLock { $0.distanceFilter = newValue } }
    }

    var headingFilter: CLLocationDegrees {
        get { state.withLock { $0.headingFilter } }
        set { state.withLock { $0.headingFilter = newValue } }
    }

    var location: CLLocation? { state.withLock { $0.location } }
    var heading: CLHeading? { state.withLock { $0.heading } }

    func startUpdatingLocation() { change { $0.updatingLocation = true } }
    func stopUpdatingLocation() { change { $0.updatingLocation = false; $0.oneShot = false } }
    func requestLocation() { change { $0.oneShot = true } }
    func startUpdatingHeading() { change { $0.updatingHeading = true; $0.lastHeading = nil } }
    func stopUpdatingHeading() { change { $0.updatingHeading = false } }
    func startSignificantChanges() { change { $0.significantChanges = true; $0.significantFilter.reset() } }
    func stopSignificantChanges() { change { $0.significantChanges = false } }
    func startVisits() { change { $0.visits = true; $0.visitDetector = VisitDetector() } }
    func stopVisits() { change { $0.visits = false } }

    /// Whether an event posted in `generation` may still be delivered.
    func isCurrent(_ generation: Int) -> Bool { state.withLock { $0.generation == generation } }

    /// Stops for good: the manager is going away.
    func shutdown() {
        state.withLock { state in
            state.closed = true
            state.runner?.cancel()
            state.runner = nil
        }
    }

    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            body(&state)
            state.generation += 1
            if state.wantsUpdates, state.runner == nil, !state.closed {
                state.runner = Task { await self.run() }
            }
        }
    }

    // MARK: Running

    private func run() async {
        let device: BLEDevice
        do {
            device = try await lease.device()
        } catch {
            fail(because: "the controller could not be opened: \(error)")
            return
        }
        var deadline = clock.microseconds
        while !Task.isCancelled {
            guard state.withLock({ $0.wantsUpdates }) else { break }
            let measured: SimulatedLocation?
            do {
                measured = try await device.simulatedLocation()
            } catch {
                fail(because: "the controller failed: \(error)")
                return
            }
            guard let measured else {
                fail(because: "the controller is not simulated, so no location is known (location comes from a simulated world)")
                return
            }
            guard measured.origin != nil else {
                fail(because: "the simulated world has no geographic origin (a scenario's origin: {latitude:, longitude:})")
                return
            }
            relay.post(events(for: measured))
            deadline += interval.wholeMicroseconds
            do {
                try await clock.sleep(untilMicroseconds: deadline)
            } catch {
                break
            }
        }
        // Started again while this runner was finishing: start a new one.
        state.withLock { state in
            state.runner = nil
            if state.wantsUpdates, !state.closed, !Task.isCancelled { state.runner = Task { await self.run() } }
        }
    }

    /// The fix and heading due for `measured`, per the settings and filters.
    private func events(for measured: SimulatedLocation) -> [LocationEvent] {
        let time = clock.microseconds
        let now = date(at: time)
        let seconds = interval.wholeMicroseconds > 0 ? Double(interval.wholeMicroseconds) / 1e6 : 1
        // Asked outside the engine's lock: the phone has its own.
        let reducedOnPhone = relay.app.map { $0.phone.locationAccuracy(of: $0.name) == .reduced } ?? false
        return state.withLock { state in
            var events: [LocationEvent] = []
            let previous = state.lastMeasured
            state.lastMeasured = measured
            // Apple: with reduced accuracy a desired accuracy other than reduced "has no effect".
            let approximate = reducedOnPhone || state.desiredAccuracy == kCLLocationAccuracyReduced
            if state.visits {
                for visit in state.visitDetector.feed(measured, at: time) {
                    events.append(.didVisit(self.visit(visit, approximate: approximate), state.generation))
                }
            }
            // Significant changes use the same callback; while standard updates run they
            // already carry every fix.
            if state.significantChanges, !state.updatingLocation, !approximate || state.approximate.isDue(at: time),
               state.significantFilter.admits(measured, at: time) {
                let fix = approximate ? approximateFix(measured, at: time, date: now, state: &state)
                    : makeFix(measured, previous: previous, seconds: seconds, at: now, state: &state)
                state.lastDelivered = measured
                state.location = fix
                events.append(.didChangeSignificantly([fix], state.generation))
            }
            if state.updatingLocation || state.oneShot {
                let moved = state.lastDelivered.map { hypot(measured.east - $0.east, measured.north - $0.north) } ?? .infinity
                if state.oneShot || state.distanceFilter <= 0 || moved >= state.distanceFilter {
                    let fix: CLLocation? = if !approximate {
                        makeFix(measured, previous: previous, seconds: seconds, at: now, state: &state)
                    } else if state.approximate.isDue(at: time) {
                        approximateFix(measured, at: time, date: now, state: &state)
                    } else if state.oneShot {
                        // A one-time request between two approximate fixes gets the last again.
                        state.approximate.last?.fix
                    } else {
                        nil
                    }
                    if let fix {
                        state.lastDelivered = measured
                        state.location = fix
                        state.oneShot = false
                        events.append(.didUpdateLocations([fix], state.generation))
                    }
                }
            }
            if state.updatingHeading {
                let change = state.lastHeading.map { abs(((measured.headingDegrees - $0 + 540).truncatingRemainder(dividingBy: 360)) - 180) }
                if change.map({ state.headingFilter <= 0 || $0 >= state.headingFilter }) ?? true {
                    let heading = CLHeading(trueHeading: measured.headingDegrees, headingAccuracy: 5, timestamp: now)
                    state.lastHeading = measured.headingDegrees
                    state.heading = heading
                    events.append(.didUpdateHeading(heading, state.generation))
                }
            }
            return events
        }
    }

    /// The date of a virtual-time instant: the manager's creation date plus the time since.
    private func date(at microseconds: Int64) -> Date {
        Date(timeInterval: Double(microseconds - clockOrigin) / 1e6, since: dateOrigin)
    }

    /// The ``CLVisit`` a detected visit reports; with reduced accuracy, at its place's grid
    /// square (``ApproximateLocation``).
    private func visit(_ event: VisitDetector.Event, approximate: Bool) -> CLVisit {
        let place: SimulatedLocation, arrival: Int64, departure: Date
        switch event {
        case let .arrived(at, since):
            (place, arrival, departure) = (at, since, .distantFuture)
        case let .departed(at, since, until):
            (place, arrival, departure) = (at, since, date(at: until))
        }
        let shown = approximate ? ApproximateLocation.snap(place) : place
        let coordinate = shown.coordinate ?? GeographicCoordinate(latitude: 0, longitude: 0)
        return CLVisit(arrivalDate: date(at: arrival), departureDate: departure,
                       coordinate: CLLocationCoordinate2D(latitude: coordinate.latitude, longitude: coordinate.longitude),
                       horizontalAccuracy: approximate ? ApproximateLocation.horizontalAccuracy : VisitDetector.radius)
    }

    /// A new approximate fix for `measured`, remembered for the 15-minute rule.
    private func approximateFix(_ measured: SimulatedLocation, at time: Int64, date: Date, state: inout State) -> CLLocation {
        let fix = ApproximateLocation.fix(for: measured, at: date)
        state.approximate.record(fix, at: time)
        return fix
    }

    private func makeFix(_ measured: SimulatedLocation, previous: SimulatedLocation?, seconds: Double, at date: Date,
                         state: inout State) -> CLLocation {
        let accuracy = state.desiredAccuracy <= 0 ? 5 : min(3000, max(5, state.desiredAccuracy))
        // Per-axis sigma for which 68 % of two-dimensional errors fall within `accuracy`.
        let sigma = accuracy / 1.51
        var noisy = measured
        noisy.east += sigma * Self.normal(&state.random)
        noisy.north += sigma * Self.normal(&state.random)
        let coordinate = noisy.coordinate ?? GeographicCoordinate(latitude: 0, longitude: 0)
        var course: CLLocationDirection = -1
        var speed: CLLocationSpeed = 0
        if let previous {
            let east = measured.east - previous.east, north = measured.north - previous.north
            let distance = hypot(east, north)
            speed = distance / seconds
            if distance > 0.05 {
                course = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
            }
        }
        return CLLocation(coordinate: CLLocationCoordinate2D(latitude: coordinate.latitude, longitude: coordinate.longitude),
                          altitude: measured.up, horizontalAccuracy: accuracy, verticalAccuracy: accuracy * 1.5,
                          course: course, courseAccuracy: course < 0 ? -1 : 10, speed: speed, speedAccuracy: 0.5,
                          timestamp: date)
    }

    /// A standard normal draw (Box–Muller) from the engine's SplitMix64 sequence.
    private static func normal(_ random: inout UInt64) -> Double {
        func uniform() -> Double {
            random &+= 0x9E37_79B9_7F4A_7C15
            var z = random
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return (Double((z ^ (z >> 31)) >> 11) + 0.5) / Double(1 << 53)
        }
        return sqrt(-2 * log(uniform())) * cos(2 * .pi * uniform())
    }

    /// No location can be had: the delegate hears why, and updates stop.
    private func fail(because reason: String) {
        let generation = state.withLock { state -> Int in
            state.updatingLocation = false
            state.updatingHeading = false
            state.oneShot = false
            state.significantChanges = false
            state.visits = false
            state.runner = nil
            state.generation += 1
            return state.generation
        }
        relay.post([.didFailLocation(CLError(.locationUnknown, reason: reason), generation)])
    }
}
