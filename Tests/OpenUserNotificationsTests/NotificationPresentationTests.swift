import BLE
import Foundation
import OpenUserNotifications
import SimulatedTesting
import Testing

/// What one launch of an app made.
@MainActor
final class Launches {
    var taps: [TapDelegate] = []
    var banners: [BannerDelegate] = []
}

/// The foreground case and the user's tap (UserNotifications, "Handling notifications and
/// notification-related actions"), on virtual time.
@Suite("Notifications in the foreground and the user's tap", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct NotificationPresentationTests {
    private func request(_ identifier: String, _ title: String, trigger: UNNotificationTrigger? = nil) -> UNNotificationRequest {
        let content = UNMutableNotificationContent()
        content.title = title
        return UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    }

    /// Installs `name` on `phone`; each run of it sets a ``TapDelegate`` that `launches` keeps.
    private func installTapping(_ name: String, on phone: SimulatedPhone, _ launches: Launches) throws {
        try phone.install(AppDescription(name: name)) { _ in
            let delegate = TapDelegate()
            UNUserNotificationCenter.current().delegate = delegate
            launches.taps.append(delegate)
        }
    }

    /// Launches `name`, lets its launch run, and returns its centre with alerts allowed.
    private func launchAllowingAlerts(_ name: String, on phone: SimulatedPhone) async throws -> UNUserNotificationCenter {
        try phone.perform(.launch(name))
        try await testClock.sleep(for: .milliseconds(100))
        let center = UNUserNotificationCenter.center(for: name, on: phone)
        _ = try await center.requestAuthorization(options: [.alert])
        return center
    }

    @Test("In the foreground a notification is not shown to an app without willPresent, and is shown as its willPresent says")
    func foreground() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let launches = Launches()
        try installTapping("Quiet", on: phone, launches)
        try phone.install(AppDescription(name: "Loud")) { _ in
            let delegate = BannerDelegate()
            UNUserNotificationCenter.current().delegate = delegate
            launches.banners.append(delegate)
        }
        try phone.perform(.launch("Quiet"))
        try phone.perform(.launch("Loud"))
        try await testClock.sleep(for: .milliseconds(100))
        for name in ["Quiet", "Loud"] {
            let center = UNUserNotificationCenter.center(for: name, on: phone)
            _ = try await center.requestAuthorization(options: [.alert])
            try await center.add(request("hello", "Hello from \(name)"))
        }
        try await wait { phone.lockScreenLog.count == 2 }
        let log = phone.lockScreenLog
        #expect(log.map(\.app) == ["Quiet", "Loud"])
        #expect(log.first?.presentation == .foreground(banner: false, list: false, sound: false))
        #expect(log.last?.presentation == .foreground(banner: true, list: true, sound: true))
        #expect(await UNUserNotificationCenter.center(for: "Quiet", on: phone).deliveredNotifications().isEmpty)
        #expect(await UNUserNotificationCenter.center(for: "Loud", on: phone).deliveredNotifications().count == 1)
        phone.close()
    }

    @Test("A tap on the notification of a terminated app launches it, and the delegate its launch sets hears didReceive with the default action")
    func tapLaunches() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let launches = Launches()
        try installTapping("Coupons", on: phone, launches)
        let center = try await launchAllowingAlerts("Coupons", on: phone)
        try phone.perform(.background("Coupons"))
        try await center.add(request("coupon", "10 % off today"))
        try phone.perform(.terminate("Coupons", .system))
        #expect(phone.lockScreenLog.map(\.presentation) == [.lockScreen])

        try phone.tapNotification("coupon", of: "Coupons")
        try await wait { launches.taps.count == 2 && !launches.taps[1].responses.isEmpty }
        #expect(phone.state(of: "Coupons") == .foreground)
        #expect(launches.taps[0].responses.isEmpty, "the first run's delegate is gone")
        let response = try #require(launches.taps.last?.responses.first)
        #expect(response.identifier == "coupon" && response.action == UNNotificationDefaultActionIdentifier && response.title == "10 % off today")
        #expect(await center.deliveredNotifications().isEmpty, "a tapped notification leaves the notification centre")
        #expect(throws: PhoneError.self) { try phone.tapNotification("coupon", of: "Coupons") }
        phone.close()
    }

    @Test("A tap on the notification of a suspended app brings it to the foreground and its running delegate hears didReceive")
    func tapResumes() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let launches = Launches()
        try installTapping("Coupons", on: phone, launches)
        let center = try await launchAllowingAlerts("Coupons", on: phone)
        try phone.perform(.background("Coupons"))
        try await center.add(request("later", "Later", trigger: UNTimeIntervalNotificationTrigger(timeInterval: 20, repeats: false)))
        try await testClock.sleep(for: .seconds(21))
        #expect(phone.state(of: "Coupons") == .suspended)
        try phone.tapNotification("later", of: "Coupons")
        try await wait { launches.taps.first?.responses.isEmpty == false }
        #expect(launches.taps.count == 1)
        #expect(launches.taps.first?.responses.map(\.identifier) == ["later"])
        #expect(phone.state(of: "Coupons") == .foreground)
        phone.close()
    }

    @Test("The delegate belongs to the run that set it: after a termination, a new run that sets none has none, and its foreground notification is not shown")
    func delegateEndsWithTheRun() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let launches = Launches()
        try phone.install(AppDescription(name: "Loud")) { _ in
            let center = UNUserNotificationCenter.current()
            // Only the first run sets a delegate.
            guard launches.banners.isEmpty else { return }
            let delegate = BannerDelegate()
            center.delegate = delegate
            launches.banners.append(delegate)
        }
        let center = try await launchAllowingAlerts("Loud", on: phone)
        #expect(center.delegate != nil)
        try await center.add(request("first", "first run"))
        try await wait { phone.lockScreenLog.count == 1 }
        try phone.perform(.terminate("Loud", .forceQuit))
        try phone.perform(.launch("Loud"))
        try await testClock.sleep(for: .milliseconds(100))
        #expect(center.delegate == nil, "the first run's delegate object is still alive, but its run is over")
        try await center.add(request("second", "second run"))
        try await wait { phone.lockScreenLog.count == 2 }
        #expect(phone.lockScreenLog.map(\.presentation) == [.foreground(banner: true, list: true, sound: true),
                                                           .foreground(banner: false, list: false, sound: false)])
        phone.close()
    }

    @Test("A notification the user swipes away leaves the notification centre without opening the app or calling it")
    func dismissal() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let launches = Launches()
        try installTapping("Coupons", on: phone, launches)
        let center = try await launchAllowingAlerts("Coupons", on: phone)
        try phone.perform(.background("Coupons"))
        try await center.add(request("coupon", "10 % off today"))
        try await testClock.sleep(for: .seconds(10))
        try phone.dismissNotification("coupon", of: "Coupons")
        try await testClock.sleep(for: .seconds(1))
        #expect(await center.deliveredNotifications().isEmpty)
        #expect(phone.state(of: "Coupons") == .suspended)
        #expect(launches.taps.first?.responses.isEmpty == true)
        #expect(phone.timeline.last?.description.hasSuffix("Coupons: notification dismissed “10 % off today”") == true)
        #expect(throws: PhoneError.self) { try phone.dismissNotification("coupon", of: "Coupons") }
        phone.close()
    }
}
