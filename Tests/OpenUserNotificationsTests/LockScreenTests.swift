import Foundation
import BLEPhone
import Testing

/// The phone's notification centre as a sans-IO value: the rules without a clock or an app.
@Suite("The lock screen's rules")
struct LockScreenTests {
    private func allowed(_ app: String = "Shop") -> LockScreen {
        var screen = LockScreen()
        _ = screen.requestAuthorization(for: app, provisional: false)
        return screen
    }

    @Test("A request added with the identifier of a pending one replaces it")
    func replacement() throws {
        var screen = allowed()
        _ = try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "first", trigger: .timeInterval(microseconds: 10_000_000, repeats: false)), at: 0)
        _ = try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "second", trigger: .timeInterval(microseconds: 20_000_000, repeats: false)), at: 1_000_000)
        #expect(screen.pendingRequests(of: "Shop").map(\.title) == ["second"])
        #expect(screen.nextDeadline == 21_000_000)
        #expect(screen.advance(to: 20_999_999).isEmpty)
        #expect(screen.advance(to: 21_000_000).map(\.request.title) == ["second"])
        #expect(screen.pendingRequests(of: "Shop").isEmpty)
    }

    @Test("A repeating interval under 60 s and a non-positive one are refused with a typed error")
    func invalidIntervals() {
        var screen = allowed()
        #expect(throws: LocalNotificationError.invalidTimeInterval(seconds: 59, repeats: true)) {
            try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "t", trigger: .timeInterval(microseconds: 59_000_000, repeats: true)), at: 0)
        }
        #expect(throws: LocalNotificationError.invalidTimeInterval(seconds: 0, repeats: false)) {
            try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "t", trigger: .timeInterval(microseconds: 0, repeats: false)), at: 0)
        }
        // An interval past the end of the clock is refused, not an overflow.
        #expect(throws: LocalNotificationError.self) {
            try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "t", trigger: .timeInterval(microseconds: .max, repeats: false)), at: 1)
        }
        #expect(screen.pendingRequests(of: "Shop").isEmpty)
    }

    @Test("Without authorization nothing is scheduled; a refusing user leaves the app denied")
    func authorization() {
        var screen = LockScreen()
        screen.setAnswer(.deny, for: "Shop")
        #expect(throws: LocalNotificationError.notificationsNotAllowed(app: "Shop", .notDetermined)) {
            try screen.add(LocalNotification(app: "Shop", identifier: "a", title: "t"), at: 0)
        }
        #expect(screen.requestAuthorization(for: "Shop", provisional: false) == (granted: false, asked: true))
        #expect(screen.authorization(of: "Shop") == .denied)
        #expect(screen.requestAuthorization(for: "Shop", provisional: false) == (granted: false, asked: false))
        #expect(screen.requestAuthorization(for: "Other", provisional: true) == (granted: true, asked: false))
        #expect(screen.authorization(of: "Other") == .provisional)
    }

    @Test("A repeating trigger fires every interval and stays pending; a region trigger fires on its crossing only")
    func repeatingAndRegion() throws {
        var screen = allowed()
        _ = try screen.add(LocalNotification(app: "Shop", identifier: "tick", title: "t", trigger: .timeInterval(microseconds: 60_000_000, repeats: true)), at: 0)
        _ = try screen.add(LocalNotification(app: "Shop", identifier: "door", title: "d", trigger: .region("door", onEntry: true, onExit: false, repeats: false)), at: 0)
        #expect(screen.advance(to: 180_000_000).map(\.time) == [60_000_000, 120_000_000, 180_000_000])
        #expect(screen.regionCrossed("door", of: "Shop", entered: false, at: 1).isEmpty)
        #expect(screen.regionCrossed("door", of: "Other", entered: true, at: 1).isEmpty)
        #expect(screen.regionCrossed("door", of: "Shop", entered: true, at: 2).map(\.request.identifier) == ["door"])
        #expect(screen.pendingRequests(of: "Shop").map(\.identifier) == ["tick"])
    }
}

extension LockScreenTests {
    @Test("A calendar trigger fires at each matching date of the phone's calendar (UTC, from 1 January 2026); one no date matches is refused")
    func calendar() throws {
        var screen = allowed()
        _ = try screen.add(LocalNotification(app: "Shop", identifier: "morning", title: "m",
                                             trigger: .calendar(DateComponents(hour: 9, minute: 0), repeats: true)), at: 0)
        let hour: Int64 = 3_600_000_000
        #expect(screen.nextDeadline == 9 * hour)
        #expect(screen.advance(to: 40 * hour).map(\.time) == [9 * hour, 33 * hour])
        #expect(screen.nextDeadline == 57 * hour)
        #expect(throws: LocalNotificationError.noNextDate) {
            try screen.add(LocalNotification(app: "Shop", identifier: "never", title: "n",
                                             trigger: .calendar(DateComponents(year: 2020), repeats: false)), at: 0)
        }
    }
}
