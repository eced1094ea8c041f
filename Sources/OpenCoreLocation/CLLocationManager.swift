import Foundation
import Synchronization

/// The beacon part of Core Location's `CLLocationManager` on Linux: region monitoring and
/// ranging of iBeacons through SwiftBLE, with Apple's names, so code written for Apple
/// platforms compiles with only its import changed:
///
/// ```swift
/// #if canImport(CoreLocation)
/// import CoreLocation
/// #else
/// import OpenCoreLocation
/// #endif
///
/// final class Watcher: NSObject, CLLocationManagerDelegate {
///     let manager = CLLocationManager()
///     func start() {
///         manager.delegate = self
///         manager.startMonitoring(for: CLBeaconRegion(uuid: storeUUID, identifier: "store"))
///     }
///     func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { print("welcome") }
/// }
/// ```
///
/// **Threads.** As on Apple platforms, the manager has no actor: it is made, configured
/// and given its ``delegate`` from any code, isolated or not. The delegate is called on the
/// main queue; keep it running: a command-line program ends its top-level code with
/// `dispatchMain()` (or `RunLoop.main.run()`), a test runs on the main actor
/// (`@MainActor`) and awaits. Apple calls the delegate on the run loop of the thread that
/// made the manager, which must be running; that is the main thread in practice, and here
/// it is the main queue whichever thread made the manager. The class is
/// `@unchecked Sendable`, and this is the whole argument: its state is the engine (a
/// `Sendable` value behind its own lock) and the delegate reference (behind the relay's
/// lock), and the delegate is only ever called on the main queue, one call at a time.
///
/// **Controller.** The manager listens through the controller `$SWIFTBLE_HCI` names (default
/// `sim`, the embedded neighbourhood), opened when monitoring or ranging first starts; when
/// it cannot be opened, the delegate gets `locationManager(_:didFailWithError:)` with
/// ``CLError/Code/rangingUnavailable``, then `monitoringDidFailFor` /
/// `didFailRangingFor` for every region and constraint. ``init(options:)`` picks another
/// controller or a shorter exit period (SwiftBLE-only).
///
/// **Authorization.** Off a simulated phone, Linux has no location permission:
/// ``authorizationStatus`` is ``CLAuthorizationStatus/authorizedAlways`` from the start and
/// the request methods do nothing. A manager of an app of a simulated iPhone has the app's
/// authorization, which the phone keeps across launches: not determined until the app asks
/// and the phone's user answers (`AppDescription.locationAuthorization`); see
/// ``requestAlwaysAuthorization()``. `locationManagerDidChangeAuthorization(_:)` is called
/// after creation and after each change, as Core Location does. The app's Precise Location
/// switch is ``accuracyAuthorization``: with reduced accuracy fixes are approximate and
/// region events and ranged beacons never arrive, until
/// ``requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`` is granted.
open class CLLocationManager: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the engine and the delegate reference are behind locks and the
    // delegate is called only on the main queue (the "Threads" paragraph above).
    /// SwiftBLE's settings for a manager; Core Location has none of these.
    public struct Options: Sendable {
        /// The controller, as `--hci` spells it (`sim`, `sim:FILE.yaml`, `tcp:HOST:PORT`,
        /// …); `nil` reads `$SWIFTBLE_HCI`, else `sim`.
        public var hci: String?
        /// How long no beacon of a region may be heard before the device has left it
        /// (default 30 s, BLEBeacons' `MonitoringConfiguration`, about what iOS waits). For a
        /// manager of an app of a simulated iPhone, a share of exits come later than this and
        /// a share never, as the phone's `PhonePolicy` says (iOS research §9, rule 21).
        public var exitPeriod: Duration
        /// How often ranged beacons are reported (default 1 s, as Core Location does).
        public var rangingInterval: Duration
        /// How often the location is measured while updates are on (default 1 s, about
        /// what a phone's GPS gives).
        public var locationInterval: Duration

        /// Options with every value given; by default Core Location's behaviour on `$SWIFTBLE_HCI`.
        public init(hci: String? = nil, exitPeriod: Duration = .seconds(30), rangingInterval: Duration = .seconds(1),
                    locationInterval: Duration = .seconds(1)) {
            self.hci = hci
            self.exitPeriod = exitPeriod
            self.rangingInterval = rangingInterval
            self.locationInterval = locationInterval
        }
    }

    /// Who is told what happens; held weakly, called on the main queue. Settable from any
    /// thread.
    open var delegate: (any CLLocationManagerDelegate)? {
        get { engine.relay.delegate }
        set { engine.relay.delegate = newValue }
    }

    let engine: BeaconEngine
    let locationEngine: LocationEngine
    private let lease: ControllerLease
    /// Set once a manager of the app's next run took the engines over (its regions are the
    /// phone's, not the app's): this one then leaves them running when it goes.
    let handedOver = Mutex(false)

    /// A manager with Core Location's behaviour, listening on `$SWIFTBLE_HCI` (default `sim`).
    public override convenience init() {
        self.init(options: Options())
    }

    /// A manager with SwiftBLE's `options` (the controller, the exit period, the ranging
    /// interval); not in Core Location.
    ///
    /// Made in the launch entry point of an app of a simulated iPhone (`SimulatedPhone`), the
    /// manager belongs to the app; after the system relaunched the app for a region event,
    /// it takes over the regions the app's last run monitored, which the phone kept (iOS
    /// research §9, rule 20), and the event follows.
    public init(options: Options) {
        let (membership, kept) = LocationMembership.joinLaunchingApp()
        if let kept {
            lease = kept.lease
            engine = kept.engine
            locationEngine = kept.locationEngine
            kept.handedOver.withLock { $0 = true }
        } else {
            let relay = DelegateRelay()
            lease = ControllerLease(hci: options.hci)
            engine = BeaconEngine(options: options, lease: lease, relay: relay)
            locationEngine = LocationEngine(options: options, lease: lease, relay: relay)
        }
        super.init()
        membership.manager = self
        engine.relay.attach(self)
        // Core Location tells each manager made its authorization (relaunched or not).
        engine.relay.post([.didChangeAuthorization])
    }

    deinit {
        guard !handedOver.withLock({ $0 }) else { return }
        engine.shutdown()
        locationEngine.shutdown()
        let lease = lease
        Task { await lease.close() }
    }

    // MARK: Availability and authorization

    /// Whether regions of `regionClass` can be monitored: only ``CLBeaconRegion`` on Linux.
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        regionClass == CLBeaconRegion.self || regionClass is CLBeaconRegion.Type
    }

    /// Whether beacons can be ranged: always, given a controller (its absence is reported
    /// when ranging starts).
    open class func isRangingAvailable() -> Bool { true }

    /// Whether location services are on: always, on Linux.
    open class func locationServicesEnabled() -> Bool { true }

    /// The app's authorization on a simulated phone; off a phone
    /// ``CLAuthorizationStatus/authorizedAlways``: Linux asks no permission.
    open var authorizationStatus: CLAuthorizationStatus {
        guard let app = engine.relay.app else { return .authorizedAlways }
        return CLAuthorizationStatus(app.phone.locationAuthorization(of: app.name))
    }

    /// ``CLAuthorizationStatus/authorizedAlways``: the class method Apple deprecated in
    /// iOS 14 and still ships, which code written before it calls. It knows no app, so on
    /// a simulated phone ask a manager (``authorizationStatus``).
    open class func authorizationStatus() -> CLAuthorizationStatus { .authorizedAlways }

    /// Asks for When In Use authorization: on a simulated phone, from not determined and
    /// while the app is in the foreground, the phone's user answers (at most When In Use)
    /// and the delegate hears the change; otherwise nothing happens (Apple's
    /// `requestWhenInUseAuthorization()`). Off a phone it does nothing.
    open func requestWhenInUseAuthorization() { requestAuthorization(always: false) }

    /// Asks for Always authorization: on a simulated phone, from not determined (or once
    /// from When In Use) and while the app is in the foreground, the phone's user answers
    /// and the delegate hears the change; otherwise nothing happens (Apple's
    /// `requestAlwaysAuthorization()`). iOS 13's provisional Always is simplified to the
    /// user's answer at once (`PhoneCore.requestLocationAuthorization(for:always:)`). Off a
    /// phone it does nothing.
    open func requestAlwaysAuthorization() { requestAuthorization(always: true) }

    /// The largest radius of a circular region: -1, since circular regions (which need a
    /// location fix) cannot be monitored on Linux.
    open var maximumRegionMonitoringDistance: CLLocationDistance { -1 }

    // MARK: Monitoring

    /// The regions monitored now (copies, as Core Location returns them).
    open var monitoredRegions: Set<CLRegion> {
        Set(engine.monitoredRegions.map { $0.makeRegion() })
    }

    /// Starts monitoring `region` (a ``CLBeaconRegion``): the delegate gets
    /// `didStartMonitoringFor`, then `didDetermineState` and `didEnterRegion` on the first
    /// beacon heard, `didExitRegion` after the exit period without one. A region with the
    /// identifier of a monitored one replaces it; beyond 20 regions, or for a region that is
    /// not a beacon region, `monitoringDidFailFor` with ``CLError/Code/regionMonitoringFailure``.
    open func startMonitoring(for region: CLRegion) {
        guard !refusesDenied(.monitoringDidFail(region.snapshot, CLError(.regionMonitoringDenied))) else { return }
        engine.startMonitoring(region.snapshot)
        if let app = engine.relay.app, engine.isMonitoring(region.identifier) {
            app.phone.startMonitoringRegion(region.identifier, for: app.name)
        }
    }

    /// Stops monitoring the region with `region`'s identifier; no further calls about it.
    open func stopMonitoring(for region: CLRegion) {
        engine.stopMonitoring(identifier: region.identifier)
        if let app = engine.relay.app { app.phone.stopMonitoringRegion(region.identifier, for: app.name) }
    }

    /// Asks for `region`'s state: `didDetermineState` with it (after any exit now due);
    /// ``CLRegionState/unknown`` for a region not monitored.
    open func requestState(for region: CLRegion) {
        engine.requestState(for: region.snapshot)
    }

    // MARK: Ranging

    /// The constraints being ranged now.
    open var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> {
        Set(engine.rangedConstraints.map(CLBeaconIdentityConstraint.init))
    }

    /// Starts ranging the beacons `constraint` covers: once a second the delegate gets
    /// `didRange` with them, closest first (immediate, near, far, then unknown; by accuracy
    /// within a class), possibly none.
    open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        guard !refusesDenied(.didFailRanging(constraint.value, CLError(.denied))) else { return }
        engine.startRanging(constraint.value)
    }

    /// Stops ranging `constraint`; no `didRange` for it arrives after this returns.
    open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        engine.stopRanging(constraint.value)
    }

    // MARK: Ranging by region (the API before iOS 13, deprecated and still shipping)

    /// The regions ranged with ``startRangingBeacons(in:)`` (copies).
    open var rangedRegions: Set<CLRegion> {
        Set(engine.rangedRegions.map { $0.makeRegion() })
    }

    /// Starts ranging `region`'s beacons: once a second the delegate gets
    /// `locationManager(_:didRangeBeacons:in:)` with them, closest first, right after
    /// `didRange(_:satisfying:)` for the region's constraint. A region with the identifier
    /// of a ranged one replaces it.
    open func startRangingBeacons(in region: CLBeaconRegion) {
        guard !refusesDenied(.rangingRegionDidFail(region.snapshot, CLError(.denied))) else { return }
        engine.startRanging(region: region.snapshot)
    }

    /// Stops ranging the region with `region`'s identifier; no ranging call for it arrives
    /// after this returns (unless its constraint is also ranged directly).
    open func stopRangingBeacons(in region: CLBeaconRegion) {
        engine.stopRanging(regionIdentifier: region.identifier)
    }

    // MARK: Location and heading updates
    //
    // The device's position in its simulated world, as a phone's location hardware reports
    // it (LocationEngine says how fixes are made). On a controller that is not simulated,
    // or in a world without a geographic origin, the delegate gets
    // `locationManager(_:didFailWithError:)` with `CLError.Code.locationUnknown`.

    /// The accuracy wanted, in metres or one of the `kCLLocationAccuracy…` constants
    /// (default ``kCLLocationAccuracyBest``): fixes report it as `horizontalAccuracy`
    /// (5 m for the best) and their error follows it. ``kCLLocationAccuracyReduced`` asks for
    /// approximate fixes (3 km accurate, four an hour) even with full accuracy; with
    /// ``CLAccuracyAuthorization/reducedAccuracy`` every value gives them (Apple,
    /// `accuracyAuthorization`).
    open var desiredAccuracy: CLLocationAccuracy {
        get { locationEngine.desiredAccuracy }
        set { locationEngine.desiredAccuracy = newValue }
    }

    /// The metres the device must move before the next fix is delivered (default
    /// ``kCLDistanceFilterNone``: every fix).
    open var distanceFilter: CLLocationDistance {
        get { locationEngine.distanceFilter }
        set { locationEngine.distanceFilter = newValue }
    }

    /// The degrees the heading must turn before the next heading is delivered (default 1;
    /// ``kCLHeadingFilterNone``: every measurement).
    open var headingFilter: CLLocationDegrees {
        get { locationEngine.headingFilter }
        set { locationEngine.headingFilter = newValue }
    }

    /// Whether updates go on in the background (accepted; a Linux process has no
    /// background state).
    open var allowsBackgroundLocationUpdates: Bool {
        get { locationEngine.settings.allowsBackground }
        set { locationEngine.settings.allowsBackground = newValue }
    }

    /// Whether the system may pause updates (accepted; updates are never paused here).
    open var pausesLocationUpdatesAutomatically: Bool {
        get { locationEngine.settings.pausesAutomatically }
        set { locationEngine.settings.pausesAutomatically = newValue }
    }

    /// Whether the status bar shows background use (accepted; there is no status bar).
    open var showsBackgroundLocationIndicator: Bool {
        get { locationEngine.settings.showsIndicator }
        set { locationEngine.settings.showsIndicator = newValue }
    }

    /// What the app uses location for (accepted; a hint for pausing, which never happens).
    open var activityType: CLActivityType {
        get { locationEngine.settings.activityType }
        set { locationEngine.settings.activityType = newValue }
    }

    /// The most recent fix delivered, `nil` before the first.
    open var location: CLLocation? { locationEngine.location }

    /// The most recent heading delivered, `nil` before the first.
    open var heading: CLHeading? { locationEngine.heading }

    /// Whether headings can be had: always; a controller that cannot say reports
    /// ``CLError/Code/locationUnknown`` once updates start.
    open class func headingAvailable() -> Bool { true }

    /// Whether significant-change monitoring is available: yes; the positions come from the
    /// simulated world, and a controller that cannot say reports
    /// ``CLError/Code/locationUnknown`` once monitoring starts, as updates do.
    open class func significantLocationChangeMonitoringAvailable() -> Bool { true }

    /// Starts fixes: `locationManager(_:didUpdateLocations:)` once per location interval
    /// (1 s), subject to ``distanceFilter``.
    open func startUpdatingLocation() { locationEngine.startUpdatingLocation() }

    /// Stops fixes (and a pending ``requestLocation()``); none is delivered after this returns.
    open func stopUpdatingLocation() { locationEngine.stopUpdatingLocation() }

    /// Delivers one fix, then stops unless updates are on.
    open func requestLocation() { locationEngine.requestLocation() }

    /// Starts headings: `locationManager(_:didUpdateHeading:)` when the heading turns by
    /// ``headingFilter``, measured once per location interval.
    open func startUpdatingHeading() { locationEngine.startUpdatingHeading() }

    /// Stops headings; none is delivered after this returns.
    open func stopUpdatingHeading() { locationEngine.stopUpdatingHeading() }

    /// Does nothing: headings need no calibration in the simulated world.
    open func dismissHeadingCalibrationDisplay() {}
}

