import Foundation

// The defaults of the implicitly unwrapped spellings of the delegate methods: each exact
// spelling's default forwards here, so a delegate that implements either is called.

extension CLLocationManagerDelegate {
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didUpdateLocations locations: [CLLocation]!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didUpdateHeading newHeading: CLHeading!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didVisit visit: CLVisit!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didEnterRegion region: CLRegion!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didExitRegion region: CLRegion!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didDetermineState state: CLRegionState, for region: CLRegion!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didRange beacons: [CLBeacon]!, satisfying beaconConstraint: CLBeaconIdentityConstraint!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, monitoringDidFailFor region: CLRegion!, withError error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didStartMonitoringFor region: CLRegion!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didFailWithError error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didRangeBeacons beacons: [CLBeacon]!, in region: CLBeaconRegion!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, rangingBeaconsDidFailFor region: CLBeaconRegion!, withError error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func locationManager(_ manager: CLLocationManager!, didChangeAuthorization status: CLAuthorizationStatus) {}
}
