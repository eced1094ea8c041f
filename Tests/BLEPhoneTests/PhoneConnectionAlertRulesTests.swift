import BLEPhone
import Testing

/// The system's connection alerts (`CBConnectPeripheralOptionNotifyOn…`), as the phone's
/// system alone decides them (research §9, rule 5), on virtual time in microseconds.
@Suite("The simulated iPhone's connection alerts")
struct PhoneConnectionAlertRulesTests {
    static let sensor = "5E1F0A2B-0000-4000-8000-000000000001"
    static let notification = "Notification from"

    /// Two apps without background modes, connected to the sensor and asking for its
    /// notification alerts; `first` then `second` came to the foreground last, both now suspended.
    static func phone(first: String, second: String) throws -> PhoneCore {
        var phone = PhoneCore()
        for name in ["Pulse", "Coach"] {
            try phone.install(AppDescription(name: name))
            phone.requestConnectionAlerts([notification], peripheral: sensor, for: name)
        }
        var now: Int64 = 0
        for name in [first, second] {
            _ = try phone.handle(.launch(name), at: now)
            _ = try phone.handle(.background(name), at: now + 1_000_000)
            now += 2_000_000
        }
        _ = phone.advance(to: now + phone.policy.suspendGrace)
        return phone
    }

    func alert(_ phone: PhoneCore, for app: String, kind: String = notification, peripheral: String = sensor) -> [PhoneOutput] {
        phone.connectionAlert("\(kind) Polar", kind: kind, peripheral: peripheral, for: app, at: 60_000_000)
    }

    @Test("Rule 5: with several apps asking for one peripheral's alert, only the most recently foreground one's shows")
    func mostRecentlyForegroundOnly() throws {
        var phone = try Self.phone(first: "Pulse", second: "Coach")
        #expect(try phone.state(of: "Pulse") == .suspended)
        #expect(try phone.state(of: "Coach") == .suspended)
        #expect(alert(phone, for: "Coach") == [.alert(app: "Coach", message: "Notification from Polar")])
        #expect(alert(phone, for: "Pulse").isEmpty)
        // Pulse on screen again, then off: now it is the one.
        _ = try phone.handle(.foreground("Pulse"), at: 70_000_000)
        _ = try phone.handle(.suspend("Pulse"), at: 71_000_000)
        #expect(alert(phone, for: "Pulse") == [.alert(app: "Pulse", message: "Notification from Polar")])
        #expect(alert(phone, for: "Coach").isEmpty)
    }

    @Test("Rule 5: the most recently foreground app hears the event itself while it runs, and no other app's alert shows")
    func runningAppTakesTheAlert() throws {
        var phone = try Self.phone(first: "Pulse", second: "Coach")
        _ = try phone.handle(.foreground("Coach"), at: 70_000_000)
        #expect(alert(phone, for: "Coach").isEmpty)
        #expect(alert(phone, for: "Pulse").isEmpty)
    }

    @Test("Rule 5: apps asking for another peripheral or another alert do not compete; an app that ended stops competing")
    func onlyTheSameAlertCompetes() throws {
        var phone = try Self.phone(first: "Pulse", second: "Coach")
        // Coach asked for nothing of another sensor: Pulse's alert of it shows.
        #expect(alert(phone, for: "Pulse", peripheral: "another sensor") == [.alert(app: "Pulse", message: "Notification from Polar")])
        let disconnection = "Disconnected from"
        phone.requestConnectionAlerts([disconnection], peripheral: Self.sensor, for: "Pulse")
        #expect(alert(phone, for: "Pulse", kind: disconnection) == [.alert(app: "Pulse", message: "Disconnected from Polar")])
        phone.requestConnectionAlerts([Self.notification], peripheral: Self.sensor, for: "Pulse")
        #expect(alert(phone, for: "Pulse").isEmpty)
        _ = try phone.handle(.terminate("Coach", .system), at: 80_000_000)
        #expect(alert(phone, for: "Pulse") == [.alert(app: "Pulse", message: "Notification from Polar")])
    }
}
