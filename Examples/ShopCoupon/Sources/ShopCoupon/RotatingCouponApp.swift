// The coupon app keyed on the shop's rotating identity, written as an iOS app is: Core
// Bluetooth scans for Eddystone frames (service 0xFEAA) in the background, URLSession asks
// the back end which beacon sent the ephemeral identifier heard, and a local notification
// shows the coupon only when the back end says it is the shop's, now. Only the imports
// differ on Linux.
#if canImport(CoreBluetooth)
import CoreBluetooth
import UserNotifications
#else
import OpenCoreBluetooth
import OpenUserNotifications
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The coupon keyed on an Eddystone-EID: the shop's beacon sends an identifier that changes
/// every 2^K seconds and only the back end, which holds the beacon's identity key, can say
/// whose it is (`POST /eid/resolve`). A copy played back later carries an identifier that is
/// no longer current, and the back end refuses it (410 `stale_eid`).
@MainActor
public final class RotatingCouponApp: NSObject, @preconcurrency CBCentralManagerDelegate {
    /// The Eddystone service UUID.
    public static let eddystone = CBUUID(string: "FEAA")
    /// The beacon name the back end answers for the shop.
    public let shopBeacon: String
    /// The back end's base URL.
    public let backend: URL
    private let now: @Sendable () -> Date
    /// The app's notification centre, taken when the app is made (at launch): with several
    /// simulated phones in one process, `current()` outside a launch is the latest launched
    /// app's, and on an iPhone it is the same object either way.
    private let notifications = UNUserNotificationCenter.current()
    private let options: [String: Any]?
    private var central: CBCentralManager?
    private var asked: Set<Data> = []
    /// When the app showed a coupon, by ``now``.
    public private(set) var couponsShown: [Date] = []
    /// Each frame the app asked about: when, the identifier's service data in hex, and the
    /// back end's status and answer.
    public private(set) var answers: [(time: Date, frame: String, status: Int, body: String)] = []

    /// The app with the back end's URL and the name the back end gives the shop's beacon;
    /// `options` are the central manager's (SwiftBLE's controller option in a simulation,
    /// `nil` on an iPhone); `now` is the clock (`Date()` on an iPhone).
    public init(backend: URL, shopBeacon: String = "shop", options: [String: Any]? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.backend = backend
        self.shopBeacon = shopBeacon
        self.options = options
        self.now = now
        super.init()
    }

    /// Asks for notifications and starts the central manager (the launch entry point calls it).
    public func start() {
        notifications.requestAuthorization(options: [.alert, .sound]) { _, _ in }
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    /// Stops scanning.
    public func stop() {
        central?.stopScan()
    }

    /// Bluetooth is on: scan for Eddystone frames (a service filter, so the scan goes on in
    /// the background with the bluetooth-central mode).
    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else { return }
        central.scanForPeripherals(withServices: [Self.eddystone], options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    }

    /// An Eddystone frame: an EID one not asked about yet goes to the back end.
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard let serviceData = advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data],
              let frame = serviceData[Self.eddystone], frame.first == 0x30, asked.insert(frame).inserted else { return }
        let heard = now()
        Task { await resolve(frame, heard: heard) }
    }

    private func resolve(_ frame: Data, heard: Date) async {
        let hex = frame.map { String(format: "%02X", $0) }.joined()
        var request = URLRequest(url: backend.appendingPathComponent("eid").appendingPathComponent("resolve"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let time = Int64((heard.timeIntervalSince1970 * 1_000_000).rounded())
        request.httpBody = try? JSONEncoder().encode(EIDObservationPost(frame: hex, time: time))
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            answers.append((heard, hex, status, String(decoding: data, as: UTF8.self)))
            guard status == 200, let answer = try? JSONDecoder().decode(EIDResolutionAnswer.self, from: data), answer.beacon == shopBeacon else { return }
            showCoupon()
        } catch {
            // Not asked after all: ask again when the frame is heard next.
            asked.remove(frame)
            answers.append((heard, hex, 0, "\(error)"))
        }
    }

    private func showCoupon() {
        couponsShown.append(now())
        let content = UNMutableNotificationContent()
        content.title = "10% off at the shop today"
        content.body = "Show this at the counter (rotating-identity coupon)"
        notifications.add(UNNotificationRequest(identifier: "eid-coupon-\(couponsShown.count)", content: content, trigger: nil))
    }
}

/// `POST /eid/resolve`'s body (`EIDObservation` in openapi.yaml): the app knows the contract,
/// not the back end's types.
struct EIDObservationPost: Encodable {
    var frame: String
    var time: Int64
}

/// The back end's `EIDResolution`, as far as the app reads it.
struct EIDResolutionAnswer: Decodable {
    var beacon: String
}
