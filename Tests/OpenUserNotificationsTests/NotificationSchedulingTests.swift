import BLE
import Foundation
import OpenUserNotifications
import SimulatedTesting
import Testing

/// Apple-style UserNotifications code as an app of a simulated iPhone, on virtual time:
/// authorization, time triggers, replacement and removal.
@Suite("Local notifications on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct NotificationSchedulingTests {
    /// A phone with `name` installed, launched and then sent to the background; its centre.
    private func backgroundApp(_ name: String = "Shop", answer: NotificationAuthorizationAnswer = .allow) async throws
        -> (SimulatedPhone, UNUserNotificationCenter) {
        let phone = SimulatedPhone(clock: testClock)
        phone.setNotificationAnswer(answer, for: name)
        try phone.install(AppDescription(name: name)) { _ in _ = UNUserNotificationCenter.current() }
        try phone.perform(.launch(name))
        try await testClock.sleep(for: .milliseconds(100))
        try phone.perform(.background(name))
        return (phone, UNUserNotificationCenter.center(for: name, on: phone))
    }

    private func content(_ title: String, _ body: String = "") -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = body
        return content
    }

    @Test("An app starts not determined; the user allows by default, the settings say authorized, and the prompt is on the timeline")
    func authorizationAllowed() async throws {
        let (phone, center) = try await backgroundApp()
        #expect(await center.notificationSettings().authorizationStatus == .notDetermined)
        let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        #expect(granted)
        let settings = await center.notificationSettings()
        #expect(settings.authorizationStatus == .authorized)
        #expect(settings.alertSetting == .enabled)
        #expect(phone.timeline.contains { entry in
            if case let .alert(app: "Shop", message: message) = entry.output { message.contains("notDetermined → authorized") } else { false }
        })
        // Asked again, the user is not asked again.
        let alerts = phone.timeline.count
        #expect(try await center.requestAuthorization(options: [.alert]))
        #expect(phone.timeline.count == alerts)
        phone.close()
    }

    @Test("A user who refuses leaves the app denied, and adding a request fails with notificationsNotAllowed")
    func authorizationDenied() async throws {
        let (phone, center) = try await backgroundApp(answer: .deny)
        let answer = Answer()
        center.requestAuthorization(options: [.alert]) { granted, error in
            MainActor.assumeIsolated { answer.granted = granted; answer.error = error != nil }
        }
        try await wait { answer.granted != nil }
        #expect(answer.granted == false && answer.error == false)
        #expect(await center.notificationSettings().authorizationStatus == .denied)
        await #expect(throws: UNError(.notificationsNotAllowed, reason: "Shop may not post notifications (authorization denied); ask with requestAuthorization first")) {
            try await center.add(UNNotificationRequest(identifier: "a", content: content("Hello"), trigger: nil))
        }
        do {
            try await center.add(UNNotificationRequest(identifier: "a", content: content("Hello"), trigger: nil))
        } catch UNError.notificationsNotAllowed {
            // Apple's bridged-error pattern matches.
        }
        #expect(phone.lockScreenLog.isEmpty)
        phone.close()
    }

    @Test("Provisional authorization is granted without asking the user")
    func provisional() async throws {
        let (phone, center) = try await backgroundApp(answer: .deny)
        #expect(try await center.requestAuthorization(options: [.provisional, .alert]))
        #expect(await center.notificationSettings().authorizationStatus == .provisional)
        #expect(!phone.timeline.contains { if case .alert = $0.output { true } else { false } })
        phone.close()
    }

    @Test("A time trigger delivers to the lock screen exactly its interval after the add, on virtual time, with that date")
    func timeTrigger() async throws {
        let (phone, center) = try await backgroundApp()
        _ = try await center.requestAuthorization(options: [.alert])
        let added = testClock.microseconds
        let content = content("Your table is ready", "Come to the counter")
        content.userInfo = ["table": 12]
        try await center.add(UNNotificationRequest(identifier: "table", content: content,
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)))
        content.title = "changed after the add"
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["table"])
        try await testClock.sleep(for: .seconds(29))
        #expect(phone.lockScreenLog.isEmpty)
        try await testClock.sleep(for: .seconds(2))
        let entry = try #require(phone.lockScreenLog.first)
        #expect(entry.time == added + 30_000_000)
        #expect(entry.app == "Shop" && entry.title == "Your table is ready" && entry.body == "Come to the counter")
        #expect(entry.presentation == .lockScreen)
        #expect(await center.pendingNotificationRequests().isEmpty)
        let delivered = await center.deliveredNotifications()
        #expect(delivered.map(\.request.identifier) == ["table"])
        #expect(delivered.first?.request.content.userInfo["table"] as? Int == 12)
        let expected = Date(timeIntervalSince1970: 1_767_225_600 + Double(added + 30_000_000) / 1e6)
        #expect(delivered.first.map { abs($0.date.timeIntervalSince(expected)) < 1e-5 } == true, "\(String(describing: delivered.first?.date))")
        // The phone's story (what `ble sim run` prints) has the delivery in its place.
        let line = String(format: "%.3f s", Double(entry.time) / 1e6) + "  Shop: notification “Your table is ready” — Come to the counter (lock screen)"
        #expect(phone.timeline.map(\.description).contains(line), "\(phone.timeline.map(\.description))")
        phone.close()
    }

    @Test("A request with the identifier of a pending one replaces it: only the second is delivered, at its own time")
    func replacement() async throws {
        let (phone, center) = try await backgroundApp()
        _ = try await center.requestAuthorization(options: [.alert])
        let start = testClock.microseconds
        try await center.add(UNNotificationRequest(identifier: "reminder", content: content("first"),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 10, repeats: false)))
        try await center.add(UNNotificationRequest(identifier: "reminder", content: content("second"),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 20, repeats: false)))
        #expect(await center.pendingNotificationRequests().map(\.content.title) == ["second"])
        try await testClock.sleep(for: .seconds(25))
        #expect(phone.lockScreenLog.map(\.title) == ["second"])
        #expect(phone.lockScreenLog.first.map { $0.time - start } == 20_000_000)
        phone.close()
    }

    @Test("Removed pending requests are never delivered; removed delivered ones leave the notification centre")
    func removal() async throws {
        let (phone, center) = try await backgroundApp()
        _ = try await center.requestAuthorization(options: [.alert])
        for name in ["a", "b", "c"] {
            try await center.add(UNNotificationRequest(identifier: name, content: content(name),
                                                       trigger: UNTimeIntervalNotificationTrigger(timeInterval: 10, repeats: false)))
        }
        center.removePendingNotificationRequests(withIdentifiers: ["b"])
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["a", "c"])
        try await testClock.sleep(for: .seconds(11))
        #expect(phone.lockScreenLog.map(\.title) == ["a", "c"])
        try await center.add(UNNotificationRequest(identifier: "d", content: content("d"),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 10, repeats: false)))
        center.removeAllPendingNotificationRequests()
        center.removeDeliveredNotifications(withIdentifiers: ["a"])
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["c"])
        center.removeAllDeliveredNotifications()
        #expect(await center.deliveredNotifications().isEmpty)
        try await testClock.sleep(for: .seconds(11))
        #expect(phone.lockScreenLog.map(\.title) == ["a", "c"])
        phone.close()
    }

    @Test("A repeating interval under 60 s is refused at add with notificationInvalidNoDate instead of Apple's exception; 60 s repeats every minute")
    func repeatingIntervals() async throws {
        let (phone, center) = try await backgroundApp()
        _ = try await center.requestAuthorization(options: [.alert])
        let refusal = ErrorBox()
        center.add(UNNotificationRequest(identifier: "fast", content: content("fast"),
                                         trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true))) { error in
            let code = (error as? UNError)?.code
            MainActor.assumeIsolated { refusal.code = code }
        }
        try await wait { refusal.code != nil }
        #expect(refusal.code == .notificationInvalidNoDate)
        #expect(await center.pendingNotificationRequests().isEmpty)
        try await center.add(UNNotificationRequest(identifier: "minute", content: content("minute"),
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        try await testClock.sleep(for: .seconds(185))
        #expect(phone.lockScreenLog.map(\.title) == ["minute", "minute", "minute"])
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["minute"])
        #expect(await center.deliveredNotifications().count == 1, "one identifier, one entry in the notification centre")
        phone.close()
    }
}

/// A completion handler's answer.
@MainActor
final class Answer {
    var granted: Bool?
    var error: Bool?
}

/// A completion handler's error code.
@MainActor
final class ErrorBox {
    var code: UNError.Code?
}

/// A program on no phone (a Linux command-line tool) that posts notifications.
@Suite("Local notifications off any phone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct NotificationsOffPhoneTests {
    @Test("Off a phone, current() is a centre on a phone of its own whose one app is in the background: notifications reach its lock screen")
    func ownPhone() async throws {
        let center = UNUserNotificationCenter.current()
        #expect(UNUserNotificationCenter.current() === center)
        #expect(try await center.requestAuthorization(options: [.alert]))
        let content = UNMutableNotificationContent()
        content.title = "Build finished"
        try await center.add(UNNotificationRequest(identifier: "build", content: content,
                                                   trigger: UNTimeIntervalNotificationTrigger(timeInterval: 2, repeats: false)))
        try await testClock.sleep(for: .seconds(3))
        #expect(center.phone.lockScreenLog.map(\.title) == ["Build finished"])
        #expect(center.phone.lockScreenLog.first?.presentation == .lockScreen)
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["build"])
        center.phone.close()
    }
}
