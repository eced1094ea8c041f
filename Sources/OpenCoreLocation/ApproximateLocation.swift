import BLE
import Foundation

/// Where an app with reduced accuracy is told it is (``CLAccuracyAuthorization/reducedAccuracy``,
/// or ``kCLLocationAccuracyReduced`` asked for as ``CLLocationManager/desiredAccuracy``).
///
/// Apple says such locations are "reduced in both space and time", by "selecting a nearby
/// point of interest and updating the location at most a few times per hour", and are
/// "usually within 1–20 kilometers of the actual location" (`kCLLocationAccuracyReduced`).
/// Ours are deterministic, so that a simulated run repeats and a test can check them:
///
/// - **Space.** The position is moved to the centre of its square in a grid of ``cellSize``
///   (4 km) squares laid on the world's east/north metres from its origin: every position in
///   a square gives the same place (our stand-in for Apple's "nearby point of interest"), at
///   most 2.83 km (half the diagonal) from the truth. `horizontalAccuracy` is 3 km, which
///   bounds that error; altitude, course and speed are not given (their accuracies are −1).
/// - **Time.** At most one new fix every ``interval`` (15 minutes: four an hour, Apple's "a few
///   times per hour"); a one-time request in between gets the last fix again.
struct ApproximateLocation: Sendable {
    /// The side of a grid square, in metres.
    static let cellSize = 4_000.0
    /// The shortest time between two new fixes, in microseconds: 15 minutes.
    static let interval: Int64 = 900_000_000
    /// The horizontal accuracy approximate fixes report.
    static let horizontalAccuracy: CLLocationAccuracy = 3_000

    /// The last approximate fix delivered, and when (microseconds).
    private(set) var last: (fix: CLLocation, time: Int64)?

    /// Whether a new approximate fix may be delivered at `time`.
    func isDue(at time: Int64) -> Bool {
        last.map { time - $0.time >= Self.interval } ?? true
    }

    /// Remembers `fix`, delivered at `time`.
    mutating func record(_ fix: CLLocation, at time: Int64) {
        last = (fix, time)
    }

    /// `location` moved to the centre of its grid square.
    static func snap(_ location: SimulatedLocation) -> SimulatedLocation {
        var snapped = location
        snapped.east = ((location.east / cellSize).rounded(.down) + 0.5) * cellSize
        snapped.north = ((location.north / cellSize).rounded(.down) + 0.5) * cellSize
        snapped.up = 0
        return snapped
    }

    /// The approximate fix for the true position `measured`, timestamped `date`.
    static func fix(for measured: SimulatedLocation, at date: Date) -> CLLocation {
        let coordinate = snap(measured).coordinate ?? GeographicCoordinate(latitude: 0, longitude: 0)
        return CLLocation(coordinate: CLLocationCoordinate2D(latitude: coordinate.latitude, longitude: coordinate.longitude),
                          altitude: 0, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: -1,
                          course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: date)
    }
}
