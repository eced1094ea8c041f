import BLESystems
import BLEWorld
import Foundation
import SimulatedTesting
import Testing

/// Cheating, end to end: the `cheating` scenario's bystander copies the shop's static iBeacon
/// and its Eddystone-EID beacon in the shop and plays both back 290 m away. Two phones carry
/// the coupon app (Examples/ShopCoupon) with both strategies, suspended in a pocket: the
/// victim never comes near the shop but waits beside the bystander; the customer walks in.
/// The EID strategy asks the in-process back end, configured with the shop beacon's key.
@Suite("Cheating", .timeLimit(.minutes(10)))
struct CheatingTests {
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
        let outcome = try await CheatingSystem.run(SystemsTesting.setup("cheating"))

        func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 - PhoneSystems.epochSeconds }
        func distanceToShop(_ name: String, at time: Double) throws -> Double {
            guard let at = truth.position(of: name, at: time) else { throw NoSuchDevice(name: name) }
            let dx = max(shopMin.x - at.x, 0, at.x - shopMax.x)
            let dy = max(shopMin.y - at.y, 0, at.y - shopMax.y)
            return hypot(dx, dy)
        }
        func distance(_ a: String, _ b: String, at time: Double) throws -> Double {
            guard let first = truth.position(of: a, at: time) else { throw NoSuchDevice(name: a) }
            guard let second = truth.position(of: b, at: time) else { throw NoSuchDevice(name: b) }
            return hypot(first.x - second.x, first.y - second.y)
        }

        let victim = try #require(outcome.phones["victim"])
        let customer = try #require(outcome.phones["customer"])
        for (name, apps) in [("victim", victim), ("customer", customer)] {
            for time in apps.staticCoupons {
                let t = seconds(time)
                print("\(name): iBeacon coupon at \(tenths(t)) s, \(tenths(try distanceToShop(name, at: t))) m from the shop, "
                      + "\(tenths(try distance(name, "copier iBeacon", at: t))) m from the copier")
            }
            for answer in apps.answers {
                let t = seconds(answer.time)
                print("\(name): EID \(answer.frame.suffix(16)) heard at \(tenths(t)) s, \(tenths(try distanceToShop(name, at: t))) m from the shop → \(answer.status) \(answer.body)")
            }
            for time in apps.rotatingCoupons { print("\(name): EID coupon at \(tenths(seconds(time))) s") }
        }

        // Fooled: the static coupon fires for the victim, who was never near the shop but beside the copier.
        #expect(!victim.staticCoupons.isEmpty, "the copied iBeacon should fool the static coupon")
        for time in victim.staticCoupons {
            let t = seconds(time)
            #expect(try distanceToShop("victim", at: t) > 3 * Self.hearingRange)
            #expect(try distance("victim", "copier iBeacon", at: t) < 50)
        }
        // Not fooled: the victim's app asked about the copied EID and the back end refused it as stale.
        #expect(victim.rotatingCoupons.isEmpty)
        #expect(!victim.answers.isEmpty, "the victim's app should have heard the replayed EID frame")
        #expect(victim.answers.allSatisfy { $0.status == 410 && $0.body.contains("stale_eid") }, "\(victim.answers)")
        // The real visit: both coupons, while the customer is at the shop.
        #expect(!customer.staticCoupons.isEmpty && !customer.rotatingCoupons.isEmpty)
        for time in customer.staticCoupons + customer.rotatingCoupons {
            #expect(try distanceToShop("customer", at: seconds(time)) <= Self.hearingRange)
        }
        #expect(customer.answers.contains { $0.status == 200 && $0.body.contains(#""beacon":"shop""#) })
        // What reached the lock screens.
        let victimScreen = victim.lockScreen
        let customerScreen = customer.lockScreen
        print("victim lock screen: \(victimScreen)")
        print("customer lock screen: \(customerScreen)")
        #expect(victimScreen.contains { $0.contains("iBeacon") } && !victimScreen.contains { $0.contains("rotating") }, "\(victimScreen)")
        #expect(customerScreen.contains { $0.contains("iBeacon") } && customerScreen.contains { $0.contains("rotating") }, "\(customerScreen)")
        #expect(outcome.serverErrors == 0)
        // The story ble sim run cheating prints tells the back end's refusal.
        #expect(outcome.run.story.contains { $0.actor == .backEnd && $0.text.contains("410") })
        // And what each phone's radio heard: the victim's hears the shop's iBeacon identity only
        // from the copy's playback at 120 s, before its coupon; the customer's hears it in the shop.
        let shop = try CheatingSystem.shopBeacon(of: SystemsTesting.setup("cheating"))
        let shopIdentity = "ibeacon:\(shop.uuid.uuidString):\(shop.major):\(shop.minor)"
        func firstHeard(by name: String) -> Double? {
            outcome.run.story.first { $0.actor == .radio && $0.who == name && $0.text == "began hearing \(shopIdentity)" }.map { Double($0.time) / 1e6 }
        }
        let victimHeard = try #require(firstHeard(by: "victim"))
        #expect(victimHeard >= 120 && victim.staticCoupons.allSatisfy { seconds($0) >= victimHeard }, "first heard at \(victimHeard) s")
        let customerHeard = try #require(firstHeard(by: "customer"))
        #expect(customer.staticCoupons.allSatisfy { seconds($0) >= customerHeard }, "first heard at \(customerHeard) s")
    }
}

/// A device the scenario's truth does not have.
struct NoSuchDevice: Error {
    var name: String
}
