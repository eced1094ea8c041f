import BLE
import Foundation
import OpenUserNotifications
import SimulatedTesting
import Testing

/// A coupon app's own rule, as an iOS developer writes it: the app hears the shop's region
/// entry itself (Core Location's `didEnterRegion`) and posts a coupon at once, unless it
/// showed one in the last 24 hours. A `UNLocationNotificationTrigger` cannot do this: the
/// system fires it on every entry (repeating) or once ever, without asking the app.
@MainActor
final class DailyCoupon {
    let center: UNUserNotificationCenter
    /// When the last coupon was shown (UserDefaults, in a real app).
    private(set) var lastShown: Date?

    init(center: UNUserNotificationCenter) {
        self.center = center
    }

    /// The shop's region was entered at `now`.
    func shopEntered(at now: Date) {
        if let lastShown, now.timeIntervalSince(lastShown) < 24 * 3600 { return }
        lastShown = now
        let content = UNMutableNotificationContent()
        content.title = "Your daily coupon"
        content.body = "10 % off until midnight"
        center.add(UNNotificationRequest(identifier: "coupon", content: content, trigger: nil))
    }
}

@Suite("At most one coupon a day, by the app's own rule", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct DailyCouponTests {
    @Test("A route passing the shop four times in 26 hours shows the coupon twice: at the first pass and a day later")
    func atMostOncePerDay() async throws {
        let phone = SimulatedPhone(clock: testClock)
        try phone.install(AppDescription(name: "Coupons")) { _ in _ = UNUserNotificationCenter.current() }
        try phone.perform(.launch("Coupons"))
        try await testClock.sleep(for: .milliseconds(100))
        let center = UNUserNotificationCenter.center(for: "Coupons", on: phone)
        _ = try await center.requestAuthorization(options: [.alert])
        try phone.perform(.background("Coupons"))
        let app = DailyCoupon(center: center)
        let start = testClock.microseconds
        // The phone's date of a moment on its clock (the same as a delivered notification's).
        func now() -> Date { Date(timeIntervalSince1970: 1_767_225_600 + Double(testClock.microseconds) / 1e6) }
        for hours in [0.0, 2, 25, 26] {
            try await testClock.sleep(untilMicroseconds: start + Int64(hours * 3600e6))
            app.shopEntered(at: now())
        }
        try await testClock.sleep(for: .seconds(1))
        let shown = phone.lockScreenLog.map { Double($0.time - start) / 3600e6 }
        #expect(shown == [0, 25], "\(phone.lockScreenLog)")
        phone.close()
    }
}
