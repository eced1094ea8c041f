import Foundation

/// A latitude or longitude in degrees (Core Location's `CLLocationDegrees`).
public typealias CLLocationDegrees = Double

/// A direction in degrees clockwise from north; negative when unknown (Core Location's
/// `CLLocationDirection`).
public typealias CLLocationDirection = Double

/// A speed in metres per second; negative when unknown (Core Location's `CLLocationSpeed`).
public typealias CLLocationSpeed = Double

/// The accuracy to ask for with the best fix the hardware gives, for navigation.
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy the hardware gives.
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Within ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// Within a hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// Within a kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Within three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// The accuracy of an app granted only approximate location; as
/// ``CLLocationManager/desiredAccuracy`` it asks for approximate fixes even with full accuracy
/// (Apple: "you can use this constant to access location data as if the app didn't have that
/// authorization"). Apple's header declares it without a value; 6,380,000 (about the Earth's
/// radius in metres) is the value a reimplementation of Core Location for iOS binaries gives
/// it, and keeps it apart from ``kCLLocationAccuracyThreeKilometers``.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 6_380_000
/// Every movement is reported (``CLLocationManager/distanceFilter``'s default).
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// Every change of heading is reported.
public let kCLHeadingFilterNone: CLLocationDegrees = -1

/// A latitude and longitude in degrees, WGS 84 (Core Location's `CLLocationCoordinate2D`).
public struct CLLocationCoordinate2D: Hashable, Sendable {
    /// Degrees north of the equator, −90 to 90.
    public var latitude: CLLocationDegrees
    /// Degrees east of Greenwich, −180 to 180.
    public var longitude: CLLocationDegrees

    /// (0, 0).
    public init() {
        latitude = 0
        longitude = 0
    }

    /// The coordinate at `latitude`, `longitude`.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An invalid coordinate, as Core Location reports one it does not know.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether `coordinate` is a place on Earth (latitude within ±90°, longitude within ±180°).
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90 ... 90).contains(coordinate.latitude) && (-180 ... 180).contains(coordinate.longitude)
}

/// Makes a coordinate (Core Location's C function).
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A location fix (Core Location's `CLLocation`): a coordinate with its accuracy, the
/// altitude, course, speed and time. Immutable, as Apple's is.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` of a Sendable value.
    /// Where, in degrees.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level (here: above the world's origin).
    public let altitude: CLLocationDistance
    /// The radius in metres within which the true position lies (about 68 % of fixes);
    /// negative when the coordinate is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// The altitude's accuracy in metres; negative when the altitude is invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// The direction of travel, degrees clockwise from north; −1 when unknown (not moving).
    public let course: CLLocationDirection
    /// The course's accuracy in degrees; −1 when the course is unknown.
    public let courseAccuracy: CLLocationDirection
    /// Metres per second; −1 when unknown.
    public let speed: CLLocationSpeed
    /// The speed's accuracy in metres per second; −1 when the speed is unknown.
    public let speedAccuracy: CLLocationSpeed
    /// When the fix was made.
    public let timestamp: Date

    /// A fix at `latitude`, `longitude`, now, with no altitude, course or speed.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
                  horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    /// A fix with its accuracies, without course or speed.
    public convenience init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                            verticalAccuracy: CLLocationAccuracy, timestamp: Date) {
        self.init(coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
                  verticalAccuracy: verticalAccuracy, course: -1, speed: -1, timestamp: timestamp)
    }

    /// A fix with course and speed.
    public convenience init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                            verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed,
                            timestamp: Date) {
        self.init(coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
                  verticalAccuracy: verticalAccuracy, course: course, courseAccuracy: course < 0 ? -1 : 0,
                  speed: speed, speedAccuracy: speed < 0 ? -1 : 0, timestamp: timestamp)
    }

    /// A fix with every value.
    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirection,
                speed: CLLocationSpeed, speedAccuracy: CLLocationSpeed, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
        super.init()
    }

    /// The great-circle distance to `location` in metres (haversine, mean Earth radius
    /// 6,371,008.8 m), as Core Location measures it, ignoring altitude.
    open func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let phi1 = coordinate.latitude * radians, phi2 = location.coordinate.latitude * radians
        let dPhi = phi2 - phi1
        let dLambda = (location.coordinate.longitude - coordinate.longitude) * radians
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(a)))
    }

    /// The fix itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// "<+51.47690000,-0.00050000> +/- 5.00m (speed 1.00 mps / course 90.00)".
    open override var description: String {
        String(format: "<%+.8f,%+.8f> +/- %.2fm (speed %.2f mps / course %.2f)", coordinate.latitude, coordinate.longitude,
               horizontalAccuracy, speed, course)
    }
}

/// Which way the device faces (Core Location's `CLHeading`). Immutable.
open class CLHeading: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` of a Sendable value.
    /// Degrees clockwise from magnetic north (here the same as ``trueHeading``: the
    /// simulated world has no magnetic declination).
    public let magneticHeading: CLLocationDirection
    /// Degrees clockwise from true north.
    public let trueHeading: CLLocationDirection
    /// The largest error in degrees; negative when the heading is invalid.
    public let headingAccuracy: CLLocationDirection
    /// The raw magnetometer reading along each axis in microtesla (0: none is simulated).
    public let x: Double
    /// See ``x``.
    public let y: Double
    /// See ``x``.
    public let z: Double
    /// When the heading was measured.
    public let timestamp: Date

    init(trueHeading: CLLocationDirection, headingAccuracy: CLLocationDirection, timestamp: Date) {
        magneticHeading = trueHeading
        self.trueHeading = trueHeading
        self.headingAccuracy = headingAccuracy
        x = 0
        y = 0
        z = 0
        self.timestamp = timestamp
        super.init()
    }

    /// The heading itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// What the app uses location for (Core Location's `CLActivityType`): a hint for pausing
/// updates, accepted and not used on Linux.
public enum CLActivityType: Int, Sendable {
    /// Unspecified.
    case other = 1
    /// Driving.
    case automotiveNavigation = 2
    /// Walking, running, cycling.
    case fitness = 3
    /// Other vehicles: boats, trains, planes.
    case otherNavigation = 4
    /// Flying.
    case airborne = 5
}
