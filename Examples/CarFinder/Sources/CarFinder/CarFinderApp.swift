// The finder app, written as an iOS app is: Core Location monitors the region of every tag
// of the finder network (one UUID) in the background; entering it wakes the app, which
// ranges the tags and takes a location fix while it runs, and posts what it heard with where
// it was. Only the imports differ on Linux.
#if canImport(CoreLocation)
import CoreLocation
#else
import OpenCoreLocation
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stolen-car finder: a phone in a pocket that reports the tags it hears, each with the
/// phone's position, to the back end's `POST /phone-sightings`, so that the back end can draw
/// a tag's track (`GET /identities/{identity}/track`) from many passers-by.
///
/// iOS wakes a suspended app for a region entry and lets it run about 10 s; ranging reaches
/// the app only while it runs. So the app reports what it ranges in that window, a batch
/// every ``batchSize`` rangings and on leaving the region; a request made after the app was
/// suspended goes out at its next wake.
@MainActor
public final class CarFinderApp: NSObject, @preconcurrency CLLocationManagerDelegate {
    /// How many ranged reports make a batch.
    public static let batchSize = 3
    /// The oldest fix a report may carry, in seconds: an older one says too little about
    /// where the phone is now.
    public static let freshestFix = 5.0

    /// The location manager the app monitors, ranges and locates with.
    public let manager: CLLocationManager
    /// The back end's base URL.
    public let backend: URL
    /// The phone's name in the reports.
    public let phone: String
    /// The finder network's tag UUID.
    public let tagUUID: UUID
    private let now: @Sendable () -> Date
    private var unsent: [PhoneSightingPost] = []
    /// The latest fix and when it came, by ``now``.
    private var lastFix: (location: CLLocation, received: Date)?
    /// Every report the back end took, in order.
    public private(set) var reported: [PhoneSightingPost] = []
    /// Ranged tags dropped for want of a fresh fix.
    public private(set) var withoutFix = 0
    /// Failed posts (their reports are sent again with the next batch).
    public private(set) var failures: [String] = []

    /// The app with its manager (`CLLocationManager()` on an iPhone), back end, phone name
    /// and the network's tag UUID; `now` is the clock (`Date()` on an iPhone).
    public init(manager: CLLocationManager, backend: URL, phone: String, tagUUID: UUID, now: @escaping @Sendable () -> Date = { Date() }) {
        self.manager = manager
        self.backend = backend
        self.phone = phone
        self.tagUUID = tagUUID
        self.now = now
        super.init()
    }

    private var region: CLBeaconRegion { CLBeaconRegion(uuid: tagUUID, identifier: "finder tags") }

    /// Asks for Always location and monitors the tags' region (the launch entry point calls it).
    public func start() {
        manager.delegate = self
        manager.requestAlwaysAuthorization()
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.startMonitoring(for: region)
    }

    /// Stops monitoring, ranging and locating (the user turned the finder off).
    public func stop() {
        manager.stopRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: tagUUID))
        manager.stopUpdatingLocation()
        manager.stopMonitoring(for: region)
    }

    /// A tag is near: range it and find where the phone is, while the system lets the app run.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        manager.startUpdatingLocation()
        manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: tagUUID))
    }

    /// The tags are gone: stop, and send what is left.
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        manager.stopRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: tagUUID))
        manager.stopUpdatingLocation()
        send()
    }

    /// Keeps the latest fix.
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        if let location = locations.last { lastFix = (location, now()) }
    }

    /// Each tag heard this second becomes a report with the phone's latest fix.
    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        let date = now()
        for beacon in beacons where beacon.rssi != 0 {
            guard let fix = lastFix?.location, let received = lastFix?.received, date.timeIntervalSince(received) <= Self.freshestFix else {
                withoutFix += 1
                continue
            }
            unsent.append(PhoneSightingPost(
                phone: phone, identity: "ibeacon:\(beacon.uuid.uuidString):\(beacon.major.intValue):\(beacon.minor.intValue)", rssi: beacon.rssi,
                time: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()),
                position: .init(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude, accuracy: fix.horizontalAccuracy)))
        }
        if unsent.count >= Self.batchSize { send() }
    }

    /// Posts the unsent reports as one batch; on failure they wait for the next.
    private func send() {
        guard !unsent.isEmpty else { return }
        let batch = unsent
        unsent = []
        Task {
            var request = URLRequest(url: backend.appendingPathComponent("phone-sightings"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do {
                request.httpBody = try JSONEncoder().encode(PhoneSightingBatchPost(sightings: batch))
                let (_, response) = try await URLSession.shared.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard status == 202 else { throw URLError(.badServerResponse) }
                reported += batch
            } catch {
                failures.append("\(error)")
                unsent = batch + unsent
            }
        }
    }
}
