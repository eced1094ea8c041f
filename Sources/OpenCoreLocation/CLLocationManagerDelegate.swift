import Foundation

/// What a ``CLLocationManager`` tells its delegate (Core Location's
/// `CLLocationManagerDelegate`, its beacon and authorization part), on the main queue.
///
/// On Apple platforms these are `@objc optional` requirements; Linux has no Objective-C
/// runtime, so every method has a default that does nothing (in an extension) and a class
/// implements the ones it wants with Apple's signatures:
///
/// ```swift
/// final class Watcher: NSObject, CLLocationManagerDelegate {
///     func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { print("in", region.identifier) }
/// }
/// ```
/// Because the defaults are extension methods, a delegate method must match the
/// signature exactly, or with every object parameter implicitly unwrapped
/// (`didEnterRegion region: CLRegion!`), as code written against the Swift 1 SDKs spells
/// it: both are called. Any other spelling (plain optionals, a typo) makes a new,
/// never-called method instead of a compile error, just as with Apple's optional
/// requirements; the compiler warns ("nearly matches") only when the method is declared in
/// the extension that declares the conformance.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// The device entered `region` (`locationManager:didEnterRegion:`).
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    /// The device left `region` (`locationManager:didExitRegion:`).
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    /// `region`'s state, on each transition and on ``CLLocationManager/requestState(for:)``
    /// (`locationManager:didDetermineState:forRegion:`).
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    /// The beacons matching `beaconConstraint`, closest first, once a second while ranging
    /// (`locationManager:didRangeBeacons:satisfyingConstraint:`).
    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)
    /// Ranging `beaconConstraint` failed (`locationManager:didFailRangingBeaconsForConstraint:error:`).
    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)
    /// Monitoring `region` failed (`locationManager:monitoringDidFailForRegion:withError:`).
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    /// Monitoring `region` started (`locationManager:didStartMonitoringForRegion:`).
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    /// The manager failed, e.g. its controller could not be opened (`locationManager:didFailWithError:`).
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// New fixes, oldest first (`locationManager:didUpdateLocations:`), while
    /// ``CLLocationManager/startUpdatingLocation()`` is on or after ``CLLocationManager/requestLocation()``.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// A new heading (`locationManager:didUpdateHeading:`), while
    /// ``CLLocationManager/startUpdatingHeading()`` is on.
    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    /// A visit began (its `departureDate` is `distantFuture`) or ended
    /// (`locationManager:didVisit:`), while ``CLLocationManager/startMonitoringVisits()`` is on.
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
    /// Updates paused (`locationManagerDidPauseLocationUpdates:`). Never called on Linux:
    /// updates are not paused automatically.
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    /// Updates resumed (`locationManagerDidResumeLocationUpdates:`). Never called on Linux.
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
    /// The authorization status is known or changed (`locationManagerDidChangeAuthorization:`);
    /// called once after the manager is created.
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)

    // Names Apple deprecated and still calls: code written before iOS 13 and 14 uses them.

    /// The beacons of `region`, closest first, once a second while it is ranged with
    /// ``CLLocationManager/startRangingBeacons(in:)`` (`locationManager:didRangeBeacons:inRegion:`);
    /// delivered right after the constraint-based ``locationManager(_:didRange:satisfying:)-2ec2r``.
    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
    /// Ranging `region` failed (`locationManager:rangingBeaconsDidFailForRegion:withError:`).
    func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
    /// The authorization status, as `status` (`locationManager:didChangeAuthorizationStatus:`);
    /// delivered right after ``locationManagerDidChangeAuthorization(_:)-79dro``.
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)

    // Old code spells delegate methods with implicitly unwrapped parameters, as the Swift 1
    // SDKs imported them; Apple's Objective-C protocols call those too. The default of each
    // method above forwards to its spelling here, so either spelling is called.

    /// ``locationManager(_:didEnterRegion:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didEnterRegion region: CLRegion!)
    /// ``locationManager(_:didExitRegion:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didExitRegion region: CLRegion!)
    /// ``locationManager(_:didDetermineState:for:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didDetermineState state: CLRegionState, for region: CLRegion!)
    /// ``locationManager(_:didRange:satisfying:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didRange beacons: [CLBeacon]!, satisfying beaconConstraint: CLBeaconIdentityConstraint!)
    /// ``locationManager(_:didFailRangingFor:error:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint!, error: (any Error)!)
    /// ``locationManager(_:monitoringDidFailFor:withError:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, monitoringDidFailFor region: CLRegion!, withError error: (any Error)!)
    /// ``locationManager(_:didStartMonitoringFor:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didStartMonitoringFor region: CLRegion!)
    /// ``locationManager(_:didFailWithError:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didFailWithError error: (any Error)!)
    /// ``locationManager(_:didUpdateLocations:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didUpdateLocations locations: [CLLocation]!)
    /// ``locationManager(_:didUpdateHeading:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didUpdateHeading newHeading: CLHeading!)
    /// ``locationManager(_:didVisit:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didVisit visit: CLVisit!)
    /// ``locationManagerDidChangeAuthorization(_:)`` spelled with implicitly unwrapped parameters.
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager!)
    /// ``locationManager(_:didRangeBeacons:in:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didRangeBeacons beacons: [CLBeacon]!, in region: CLBeaconRegion!)
    /// ``locationManager(_:rangingBeaconsDidFailFor:withError:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, rangingBeaconsDidFailFor region: CLBeaconRegion!, withError error: (any Error)!)
    /// ``locationManager(_:didChangeAuthorization:)`` spelled with implicitly unwrapped parameters.
    func locationManager(_ manager: CLLocationManager!, didChangeAuthorization status: CLAuthorizationStatus)
}

extension CLLocationManagerDelegate {
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        self.locationManager(manager as CLLocationManager?, didEnterRegion: region)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        self.locationManager(manager as CLLocationManager?, didExitRegion: region)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        self.locationManager(manager as CLLocationManager?, didDetermineState: state, for: region)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        self.locationManager(manager as CLLocationManager?, didRange: beacons, satisfying: beaconConstraint)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        self.locationManager(manager as CLLocationManager?, didFailRangingFor: beaconConstraint, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        self.locationManager(manager as CLLocationManager?, monitoringDidFailFor: region, withError: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        self.locationManager(manager as CLLocationManager?, didStartMonitoringFor: region)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        self.locationManager(manager as CLLocationManager?, didFailWithError: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        self.locationManagerDidChangeAuthorization(manager as CLLocationManager?)
    }
    /// Does nothing unless the delegate implements it (never called on Linux).
    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
    /// Does nothing unless the delegate implements it (never called on Linux).
    public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {}
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        self.locationManager(manager as CLLocationManager?, didUpdateLocations: locations)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {
        self.locationManager(manager as CLLocationManager?, didUpdateHeading: newHeading)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        self.locationManager(manager as CLLocationManager?, didVisit: visit)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {
        self.locationManager(manager as CLLocationManager?, didRangeBeacons: beacons, in: region)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {
        self.locationManager(manager as CLLocationManager?, rangingBeaconsDidFailFor: region, withError: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        self.locationManager(manager as CLLocationManager?, didChangeAuthorization: status)
    }
}
