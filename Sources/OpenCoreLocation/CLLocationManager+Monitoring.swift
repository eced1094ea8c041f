import Foundation

// Public rather than open: methods in an extension cannot be overridden without Objective-C.
extension CLLocationManager {
    /// Starts significant-change monitoring: `locationManager(_:didUpdateLocations:)` with
    /// the position at once, then each time the device has moved 500 m or more from the last
    /// one reported, at most once every five minutes (the rule Apple documents for the
    /// service; ``SignificantChangeFilter``). Measured from the simulated world once per
    /// location interval; while standard updates run they carry every fix instead. For an app
    /// of a simulated iPhone each change wakes the suspended app, or relaunches the terminated
    /// one with `PhoneLaunchOptions.location` (not after a force-quit), as iOS does.
    public func startMonitoringSignificantLocationChanges() { locationEngine.startSignificantChanges() }

    /// Stops significant-change monitoring; nothing from it is delivered after this returns.
    public func stopMonitoringSignificantLocationChanges() { locationEngine.stopSignificantChanges() }

    /// Starts visit monitoring: `locationManager(_:didVisit:)` when the device has stayed at a
    /// place (within 100 m for 5 minutes: our thresholds, Apple documents none;
    /// ``VisitDetector``), with `departureDate` `distantFuture`, and again with both dates when
    /// it leaves. For an app of a simulated iPhone each visit wakes or relaunches the app as a
    /// significant change does.
    public func startMonitoringVisits() { locationEngine.startVisits() }

    /// Stops visit monitoring; no visit is delivered after this returns.
    public func stopMonitoringVisits() { locationEngine.stopVisits() }
}
