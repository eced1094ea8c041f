import BLE
import Foundation
@testable import OpenCoreLocation
import SimulatedTesting
import Testing

/// Visit monitoring and significant-change monitoring (docs/phone.md, "Core Location beyond
/// beacons"): the rules on their own, then Apple-style code on a simulated walk and a bus
/// ride, on virtual time.
@Suite("Visits and significant location changes", .simulatedOnMainActor, .serialized)
@MainActor
struct VisitsAndSignificantChangesTests {
    static func at(_ east: Double, _ north: Double = 0) -> SimulatedLocation {
        SimulatedLocation(east: east, north: north, up: 0, headingDegrees: 0, origin: GeographicCoordinate(latitude: 51.5, longitude: 0))
    }

    @Test("A visit begins after 5 minutes within 100 m and ends when the device leaves; a short stop is no visit")
    func visitRule() {
        var detector = VisitDetector()
        var events: [VisitDetector.Event] = []
        // Stands still (moving a few metres) from 0 s to 400 s, then leaves at 401 s.
        for second in 0 ... 400 { events += detector.feed(Self.at(Double(second % 7), 3), at: Int64(second) * 1_000_000) }
        #expect(events.count == 1)
        guard case let .arrived(place, arrival)? = events.first else {
            Issue.record("no arrival: \(events)")
            return
        }
        #expect(arrival == 0 && abs(place.east - 3) < 0.1 && place.north == 3)
        events = detector.feed(Self.at(250), at: 401_000_000)
        guard case let .departed(left, arrivalAgain, departure)? = events.first, events.count == 1 else {
            Issue.record("no departure: \(events)")
            return
        }
        // The place is the centre of all 401 positions by now.
        #expect(arrivalAgain == 0 && departure == 400_000_000 && abs(left.east - 3) < 0.1 && left.north == 3)
        // Two minutes at the next place, then gone: nothing.
        for second in 402 ... 520 { events += detector.feed(Self.at(250), at: Int64(second) * 1_000_000) }
        events += detector.feed(Self.at(900), at: 521_000_000)
        #expect(events.count == 1)
    }

    @Test("Significant changes: at once, then only after 500 m and 5 minutes")
    func significantChangeRule() {
        var filter = SignificantChangeFilter()
        let first = filter.admits(Self.at(0), at: 0)
        let tooSoon = filter.admits(Self.at(3_000), at: 299_000_000)
        let tooNear = filter.admits(Self.at(499), at: 600_000_000)
        let far = filter.admits(Self.at(3_000), at: 300_000_000)
        filter.reset()
        let afterReset = filter.admits(Self.at(3_000), at: 300_000_001)
        #expect(first && !tooSoon && !tooNear && far && afterReset)
    }

    /// A scenario with a geographic origin whose `local` device (the app's phone) follows `route`.
    static func scenario(route: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ocl-moves-\(UUID().uuidString).yaml").path
        try """
            name: moves
            seed: 3
            origin: {latitude: 51.5, longitude: 0}
            devices:
              - {name: local, address: "F0:5B:1E:00:09:01", addressType: public, position: [0, 0, 1.2], host: external,
                 route: \(route)}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Walking to a café, staying 10 minutes and walking on gives one visit: its arrival, then its departure, at the café")
    func visitOnAWalk() async throws {
        // 150 m east at 1.5 m/s (100 s), 600 s at the café, then 300 m on.
        let path = try Self.scenario(route: "{waypoints: [{at: [150, 0, 1.2], pause: 600}, [450, 0, 1.2]], speed: 1.5}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let logger = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(path)")))
        let start = Date()
        logger.manager.delegate = logger
        logger.manager.startMonitoringVisits()
        try await testClock.sleep(seconds: 1_000)
        logger.manager.stopMonitoringVisits()
        #expect(logger.errors.isEmpty, "\(logger.errors)")
        #expect(logger.visits.count == 2, "\(logger.visits)")
        guard logger.visits.count == 2 else { return }
        let (arrival, departure) = (logger.visits[0], logger.visits[1])
        #expect(arrival.departureDate == .distantFuture)
        #expect(departure.arrivalDate == arrival.arrivalDate && departure.departureDate != .distantFuture)
        // It arrived about 100 s in (within the 100 m radius from about 33 s in) and left about 700 s in.
        let arrived = arrival.arrivalDate.timeIntervalSince(start), left = departure.departureDate.timeIntervalSince(start)
        #expect((30 ... 105).contains(arrived), "\(arrived)")
        #expect((700 ... 770).contains(left), "\(left)")
        // The café is 150 m east of 51.5 N, 0 E: 0.00216° of longitude.
        let east = departure.coordinate.longitude * 111_412.84 * cos(51.5 * .pi / 180)
        #expect(abs(east - 150) < 30 && abs(departure.coordinate.latitude - 51.5) < 0.0002, "\(departure)")
        #expect(departure.horizontalAccuracy == 100)
    }

    @Test("On a bus at 10 m/s significant changes come every 5 minutes; standing still, only the first")
    func significantChangesOnABus() async throws {
        let path = try Self.scenario(route: "{waypoints: [[20000, 0, 1.2]], speed: 10}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CLLocationManager.significantLocationChangeMonitoringAvailable())
        let logger = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(path)")))
        logger.manager.delegate = logger
        logger.manager.startMonitoringSignificantLocationChanges()
        try await testClock.sleep(seconds: 1_250)
        logger.manager.stopMonitoringSignificantLocationChanges()
        let count = logger.locations.count
        try await testClock.sleep(seconds: 400)
        #expect(logger.locations.count == count, "reports went on after the stop")
        // At 0, 300, 600, 900 and 1,200 s.
        #expect(count == 5, "\(logger.locations)")
        let gaps = zip(logger.locations, logger.locations.dropFirst()).map { $1.timestamp.timeIntervalSince($0.timestamp) }
        #expect(gaps.allSatisfy { (300 ... 302).contains($0) }, "\(gaps)")

        let still = try Self.scenario(route: "{waypoints: [[0, 0, 1.2]], speed: 1}")
        defer { try? FileManager.default.removeItem(atPath: still) }
        let sitter = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(still)")))
        sitter.manager.delegate = sitter
        sitter.manager.startMonitoringSignificantLocationChanges()
        try await testClock.sleep(seconds: 700)
        sitter.manager.stopMonitoringSignificantLocationChanges()
        #expect(sitter.locations.count == 1)
    }

    @Test("Darwin's time constants come with the framework, with Darwin's values and type")
    func timeConstants() {
        let second: UInt64 = NSEC_PER_SEC
        #expect(second == 1_000_000_000 && NSEC_PER_MSEC == 1_000_000 && NSEC_PER_USEC == 1_000 && USEC_PER_SEC == 1_000_000)
    }
}

/// Records fixes, visits and errors, as an app's delegate would.
final class MovesLogger: NSObject, CLLocationManagerDelegate {
    let manager: CLLocationManager
    var locations: [CLLocation] = []
    var visits: [CLVisit] = []
    var errors: [any Error] = []

    init(manager: CLLocationManager) {
        self.manager = manager
        super.init()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { self.locations += locations }
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) { visits.append(visit) }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) { errors.append(error) }
}
