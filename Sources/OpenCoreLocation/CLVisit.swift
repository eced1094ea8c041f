import Foundation

/// A place the user went to, with when they arrived and left (Core Location's `CLVisit`),
/// delivered by ``CLLocationManager/startMonitoringVisits()`` through
/// ``CLLocationManagerDelegate/locationManager(_:didVisit:)``. Found from where the device
/// stays in its simulated world (docs/phone.md says how).
open class CLVisit: NSObject, @unchecked Sendable {
    // @unchecked Sendable: every property is a constant.
    /// When the user arrived; `Date.distantPast` if that is not known.
    public let arrivalDate: Date
    /// When the user left; `Date.distantFuture` while the visit goes on (the arrival's report).
    public let departureDate: Date
    /// Where the place is: the centre of the positions measured there.
    public let coordinate: CLLocationCoordinate2D
    /// The radius, in metres, within which the place lies.
    public let horizontalAccuracy: CLLocationAccuracy

    /// A visit with every property (Core Location makes them; tests and previews may too).
    public init(arrivalDate: Date, departureDate: Date, coordinate: CLLocationCoordinate2D, horizontalAccuracy: CLLocationAccuracy) {
        self.arrivalDate = arrivalDate
        self.departureDate = departureDate
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        super.init()
    }

    /// The place and the two dates, for logs.
    open override var description: String {
        "CLVisit(\(coordinate.latitude), \(coordinate.longitude) ±\(horizontalAccuracy) m, \(arrivalDate) – \(departureDate))"
    }
}
