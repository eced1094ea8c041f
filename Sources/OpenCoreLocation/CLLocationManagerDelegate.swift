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
/// signature exactly (a typo makes a new, never-called method instead of a compile error,
/// just as with Apple's optional requirements).
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
    /// The authorization status is known or changed (`locationManagerDidChangeAuthorization:`);
    /// called once after the manager is created.
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)

    // Names Apple deprecated and still calls: code written before iOS 13 and 14 uses them.

    /// The beacons of `region`, closest first, once a second while it is ranged with
    /// ``CLLocationManager/startRangingBeacons(in:)`` (`locationManager:didRangeBeacons:inRegion:`);
    /// delivered right after the constraint-based ``locationManager(_:didRange:satisfying:)``.
    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
    /// Ranging `region` failed (`locationManager:rangingBeaconsDidFailForRegion:withError:`).
    func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
    /// The authorization status, as `status` (`locationManager:didChangeAuthorizationStatus:`);
    /// delivered right after ``locationManagerDidChangeAuthorization(_:)``.
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
}

extension CLLocationManagerDelegate {
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    /// Does nothing unless the delegate implements it.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
}
