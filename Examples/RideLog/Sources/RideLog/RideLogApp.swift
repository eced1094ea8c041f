// The rider's app, written as an iOS app is: Core Location monitors the bus's and the stops'
// beacon regions (the system wakes the app for each entry and exit, in the background),
// URLSession posts the finished ride, and a local notification shows the reference number.
// Only the imports differ on Linux.
#if canImport(CoreLocation)
import CoreLocation
import UserNotifications
#else
import OpenCoreLocation
import OpenUserNotifications
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ride log: records boarding, the stops passed and alighting from region events, posts
/// each ride to the back end's `POST /rides`, keeps it while the network is out and retries
/// within the background time iOS grants (and at every later wake), and shows the reference
/// number the back end answers on the lock screen.
@MainActor
public final class RideLogApp: NSObject, @preconcurrency CLLocationManagerDelegate {
    /// The bus's beacons: one UUID and major for the vehicle, any minor.
    public struct Bus: Sendable {
        /// The fleet's iBeacon UUID.
        public var uuid: UUID
        /// The bus's major.
        public var major: UInt16
        /// The line, as the rider knows it.
        public var route: String

        /// A bus whose beacons are `uuid` / `major`, on line `route`.
        public init(uuid: UUID, major: UInt16, route: String) {
            self.uuid = uuid
            self.major = major
            self.route = route
        }

        /// The region's identifier, and the vehicle as the back end names it.
        var identity: String { "ibeacon:\(uuid.uuidString):\(major)" }
    }

    /// A stop's beacon.
    public struct StopBeacon: Sendable {
        /// The stop's name, which is its region's identifier.
        public var name: String
        /// The beacon's UUID, major and minor.
        public var uuid: UUID
        /// See ``uuid``.
        public var major: UInt16
        /// See ``uuid``.
        public var minor: UInt16

        /// The stop `name` whose beacon is `uuid` / `major` / `minor`.
        public init(name: String, uuid: UUID, major: UInt16, minor: UInt16) {
            self.name = name
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }
    }

    /// How long the app keeps trying a post within one stretch of background time (iOS
    /// grants about 30 s; the app stops short of it rather than be terminated).
    public static let retryBudget: Duration = .seconds(25)
    /// The pause between tries.
    public static let retryInterval: Duration = .seconds(5)

    /// The location manager the app monitors with.
    public let manager: CLLocationManager
    /// The back end's base URL.
    public let backend: URL
    /// Who rides.
    public let rider: String
    /// The bus.
    public let bus: Bus
    /// The stops.
    public let stops: [StopBeacon]
    private let system: RideLogSystem
    private var recorder: RideRecorder
    /// Rides finished and not yet answered with a reference, oldest first.
    public private(set) var pending: [RidePost] = []
    /// Every ride finished, in order.
    public private(set) var rides: [RideRecorder.Ride] = []
    /// The references the back end gave, in order.
    public private(set) var references: [String] = []
    /// What the app did, one line each with the time in microseconds since 1970: its story.
    public private(set) var story: [(time: Int64, line: String)] = []
    private var sending = false

    /// The app with its manager (`CLLocationManager()` on an iPhone), back end, rider and
    /// beacons; `system` gives the time, retries' pauses and background time.
    public init(manager: CLLocationManager, backend: URL, rider: String, bus: Bus, stops: [StopBeacon], system: RideLogSystem = .standard) {
        self.manager = manager
        self.backend = backend
        self.rider = rider
        self.bus = bus
        self.stops = stops
        self.system = system
        recorder = RideRecorder(busRegion: bus.identity, stopRegions: Set(stops.map(\.name)))
        super.init()
    }

    /// Asks for Always location and for notifications, and monitors the bus's and the stops'
    /// regions (the launch entry point calls it).
    public func start() {
        manager.delegate = self
        manager.requestAlwaysAuthorization()
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
        manager.startMonitoring(for: CLBeaconRegion(uuid: bus.uuid, major: bus.major, identifier: bus.identity))
        for stop in stops {
            manager.startMonitoring(for: CLBeaconRegion(uuid: stop.uuid, major: stop.major, minor: stop.minor, identifier: stop.name))
        }
    }

    /// Stops monitoring every region the app monitors (the rider turned ride logging off).
    public func stop() {
        manager.stopMonitoring(for: CLBeaconRegion(uuid: bus.uuid, major: bus.major, identifier: bus.identity))
        for stop in stops {
            manager.stopMonitoring(for: CLBeaconRegion(uuid: stop.uuid, major: stop.major, minor: stop.minor, identifier: stop.name))
        }
    }

    /// A stop's or the bus's region was entered: boarding, or a stop on the ride; a wake is
    /// also a chance to send what is pending.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        let now = system.microseconds()
        recorder.entered(region.identifier, at: now)
        tell("entered \(region.identifier)", at: now)
        sendPending()
    }

    /// A region was left: leaving the bus's finishes the ride, which is posted.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        let now = system.microseconds()
        tell("left \(region.identifier)", at: now)
        if let ride = recorder.exited(region.identifier, at: now) {
            rides.append(ride)
            let names = ride.stops.map(\.zone).joined(separator: " → ")
            tell("ride finished: \(names)", at: now)
            pending.append(RidePost(rider: rider, vehicle: bus.identity, route: bus.route, boarded: ride.boarded, alighted: ride.alighted,
                                    stops: ride.stops, postedAt: now))
        }
        sendPending()
    }

    /// Posts the pending rides, oldest first, in background time: tries again every
    /// ``retryInterval`` while a post fails, for at most ``retryBudget``; what is still
    /// pending then waits for the app's next wake.
    private func sendPending() {
        guard !sending, !pending.isEmpty else { return }
        sending = true
        system.beginBackgroundTask()
        Task {
            let deadline = system.microseconds() + Self.retryBudget.microseconds
            while let ride = pending.first {
                do {
                    let reference = try await post(ride)
                    pending.removeFirst()
                    references.append(reference)
                    tell("posted: reference \(reference)", at: system.microseconds())
                    notify(reference: reference, ride: ride)
                } catch {
                    let now = system.microseconds()
                    tell("post failed (\(error)), kept", at: now)
                    guard now + Self.retryInterval.microseconds <= deadline else { break }
                    do { try await system.sleep(Self.retryInterval) } catch { break }
                }
            }
            sending = false
            system.endBackgroundTask()
        }
    }

    /// One `POST /rides`; the reference the back end gave (a new ride's, or the one a ride
    /// posted before got).
    private func post(_ ride: RidePost) async throws(RidePostFailure) -> String {
        var request = URLRequest(url: backend.appendingPathComponent("rides"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let data: Data
        let response: URLResponse
        do {
            request.httpBody = try JSONEncoder().encode(ride)
            (data, response) = try await URLSession.shared.data(for: request)
        } catch let error as URLError {
            throw .network(code: error.code.rawValue)
        } catch {
            throw .network(code: URLError.Code.unknown.rawValue)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 || status == 201 else { throw .status(status) }
        guard let created = try? JSONDecoder().decode(RideCreated.self, from: data) else { throw .unreadableAnswer }
        return created.reference
    }

    /// Shows the reference on the lock screen at once.
    private func notify(reference: String, ride: RidePost) {
        let content = UNMutableNotificationContent()
        content.title = "Ride logged: \(reference)"
        content.body = "Line \(ride.route), \(ride.boarded.zone) to \(ride.alighted.zone)"
        content.sound = .default
        UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "ride-\(reference)", content: content, trigger: nil))
    }

    private func tell(_ line: String, at time: Int64) {
        story.append((time, line))
    }
}

extension Duration {
    /// The duration in whole microseconds.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
