import BLE
import BLEBackend
import BLEFleetStore
import BLEPhone
import BLEWorld
import Foundation
import OpenCoreBluetooth
import OpenCoreLocation
import ShopCoupon
import SimulatedTesting
import Testing

/// Cheating, end to end: the `cheating` scenario's bystander copies the shop's static iBeacon
/// and its Eddystone-EID beacon in the shop and plays both back 290 m away. Two phones carry
/// the coupon app (Examples/ShopCoupon) with both strategies, suspended in a pocket: the
/// victim never comes near the shop but waits beside the bystander; the customer walks in.
/// The EID strategy asks the in-process back end, configured with the shop beacon's key.
@Suite("Cheating", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct CheatingTests {
    /// The scenario at `path` with `phone` marked `host: external`: Core Location's manager
    /// opens `sim:FILE` on that device, so each phone hears the world from where it is.
    static func scenario(_ path: String, attachingHostTo phone: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = "  - name: \(phone)\n"
        guard let range = text.range(of: line) else { throw CancellationError() }
        return text.replacingCharacters(in: range, with: line + "    host: external\n")
    }

    static let shop = StaticCouponApp.ShopBeacon(uuid: UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!, major: 7, minor: 1)
    /// The shop's EID beacon as its operator configured the back end: the scenario's key and
    /// its counter (1000) at virtual time 0.
    static func beacons() throws -> EIDBeaconRegistry {
        try EIDBeaconRegistry(beacons: [.init(identifier: "shop", identityKey: "8B3C5E0FA2D14C6E9B7A1F2D3E4C5B6A", rotationExponent: 5,
                                              timeCounter: 1000, registeredAt: Int64(PhoneSystems.epochSeconds * 1e6))])
    }

    /// The farthest a phone hears the shop's beacons, in metres, from the scenario's figures:
    /// -12 dBm, nothing in the way, three standard deviations (6 dB) of shadowing in its
    /// favour, down to -95 dBm: 40 + 25 log10(d) = 89 dB.
    static let hearingRange = pow(10, (-12 + 95 + 6 - 40) / 25.0)

    @Test("The static-iBeacon coupon fires for the victim 290 m from the shop, beside the copier; the EID coupon does not (the back end refuses the replayed identifier as stale); both fire for the customer in the shop")
    func copiedBeacon() async throws {
        let path = PhoneSystems.scenarioPath("cheating")
        let scenario = try ScenarioLoader.load(path: path)
        let truth = try PhoneSystems.Truth(scenario)
        guard case let .box(shopMin, shopMax)? = scenario.zones.first(where: { $0.name == "shop" })?.shape else {
            Issue.record("the scenario has no shop box")
            return
        }
        let directory = try SystemsTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        try await store.migrate()
        let backend = RecordingBackend(BackendInProcess(store: store, eidBeacons: try Self.beacons()))

        var phones: [String: SimulatedPhone] = [:]
        let launches = CouponLaunches()
        for (index, name) in ["victim", "customer"].enumerated() {
            let file = directory + "/\(name).yaml"
            try Self.scenario(path, attachingHostTo: name).write(toFile: file, atomically: true, encoding: .utf8)
            let phone = SimulatedPhone(clock: testClock, seed: scenario.seed &+ UInt64(index))
            let host = PhoneSystems.uniqueHost("coupons")
            phone.register(server: backend, host: host)
            try phone.install(AppDescription(name: "Coupons", modes: [.bluetoothCentral])) { _ in
                let now: @Sendable () -> Date = { PhoneSystems.date(testClock.microseconds) }
                let manager = CLLocationManager(options: .init(hci: "sim:\(file)", exitPeriod: .seconds(10)))
                let fixed = StaticCouponApp(manager: manager, shop: Self.shop, now: now)
                fixed.start()
                let rotating = RotatingCouponApp(backend: URL(string: "http://\(host)")!, options: [OpenCoreBluetoothControllerOptionKey: "sim:\(file)"],
                                                 now: now)
                rotating.start()
                launches.apps[name] = (fixed, rotating)
            }
            try phone.perform(.launch("Coupons"))
            try await testClock.sleep(for: .milliseconds(100))
            try phone.perform(.background("Coupons"))
            phones[name] = phone
        }
        try await testClock.sleep(untilMicroseconds: Int64((scenario.durationSeconds ?? 240) * 1e6))

        func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 - PhoneSystems.epochSeconds }
        func distanceToShop(_ name: String, at time: Double) throws -> Double {
            let at = try #require(truth.position(of: name, at: time))
            let dx = max(shopMin.x - at.x, 0, at.x - shopMax.x)
            let dy = max(shopMin.y - at.y, 0, at.y - shopMax.y)
            return hypot(dx, dy)
        }
        func distance(_ a: String, _ b: String, at time: Double) throws -> Double {
            let first = try #require(truth.position(of: a, at: time)), second = try #require(truth.position(of: b, at: time))
            return hypot(first.x - second.x, first.y - second.y)
        }

        let victim = try #require(launches.apps["victim"])
        let customer = try #require(launches.apps["customer"])
        for (name, apps) in [("victim", victim), ("customer", customer)] {
            for time in apps.fixed.couponsShown {
                let t = seconds(time)
                print("\(name): iBeacon coupon at \(tenths(t)) s, \(tenths(try distanceToShop(name, at: t))) m from the shop, "
                      + "\(tenths(try distance(name, "copier iBeacon", at: t))) m from the copier")
            }
            for answer in apps.rotating.answers {
                let t = seconds(answer.time)
                print("\(name): EID \(answer.frame.suffix(16)) heard at \(tenths(t)) s, \(tenths(try distanceToShop(name, at: t))) m from the shop → \(answer.status) \(answer.body)")
            }
            for time in apps.rotating.couponsShown { print("\(name): EID coupon at \(tenths(seconds(time))) s") }
        }

        // Fooled: the static coupon fires for the victim, who was never near the shop but beside the copier.
        #expect(!victim.fixed.couponsShown.isEmpty, "the copied iBeacon should fool the static coupon")
        for time in victim.fixed.couponsShown {
            let t = seconds(time)
            #expect(try distanceToShop("victim", at: t) > 3 * Self.hearingRange)
            #expect(try distance("victim", "copier iBeacon", at: t) < 50)
        }
        // Not fooled: the victim's app asked about the copied EID and the back end refused it as stale.
        #expect(victim.rotating.couponsShown.isEmpty)
        #expect(!victim.rotating.answers.isEmpty, "the victim's app should have heard the replayed EID frame")
        #expect(victim.rotating.answers.allSatisfy { $0.status == 410 && $0.body.contains("stale_eid") }, "\(victim.rotating.answers)")
        // The real visit: both coupons, while the customer is at the shop.
        #expect(!customer.fixed.couponsShown.isEmpty && !customer.rotating.couponsShown.isEmpty)
        for time in customer.fixed.couponsShown + customer.rotating.couponsShown {
            #expect(try distanceToShop("customer", at: seconds(time)) <= Self.hearingRange)
        }
        #expect(customer.rotating.answers.contains { $0.status == 200 && $0.body.contains(#""beacon":"shop""#) })
        // What reached the lock screens.
        let victimScreen = phones["victim"]?.lockScreenLog.map(\.body) ?? []
        let customerScreen = phones["customer"]?.lockScreenLog.map(\.body) ?? []
        for name in ["victim", "customer"] {
            for entry in phones[name]?.lockScreenLog ?? [] { print("\(name) lock screen at \(tenths(Double(entry.time) / 1e6)) s: \(entry.title) — \(entry.body) [\(entry.app)]") }
        }
        #expect(victimScreen.contains { $0.contains("iBeacon") } && !victimScreen.contains { $0.contains("rotating") }, "\(victimScreen)")
        #expect(customerScreen.contains { $0.contains("iBeacon") } && customerScreen.contains { $0.contains("rotating") }, "\(customerScreen)")
        #expect(!backend.exchanges.contains { $0.response.status >= 500 })

        for (fixed, rotating) in launches.apps.values {
            fixed.stop()
            rotating.stop()
        }
        for phone in phones.values { phone.close() }
        await store.close()
    }
}

/// The coupon apps of each phone.
@MainActor
final class CouponLaunches {
    var apps: [String: (fixed: StaticCouponApp, rotating: RotatingCouponApp)] = [:]
}
