import BLEPhone
import Testing

/// The phone's screen, as the phone's system alone decides it (iOS research §9, rules 1 and
/// 23): off, the app on screen leaves it; on, the lock screen, and no app returns by itself.
@Suite("The simulated iPhone's screen")
struct PhoneScreenRulesTests {
    @Test("Screen off moves the app on screen to the background, suspended after the grace period; apps off screen stay as they are")
    func screenOff() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Bus"))
        try phone.install(AppDescription(name: "Mail"))
        _ = try phone.handle(.launch("Mail"), at: 0)
        _ = try phone.handle(.background("Mail"), at: 1)
        _ = try phone.handle(.launch("Bus"), at: 2)
        let outputs = try phone.handle(.screen(on: false), at: 3_000_000)
        #expect(outputs == [.stateChanged(app: "Bus", from: .foreground, to: .background)])
        #expect(!phone.screenOn)
        let grace = PhonePolicy().suspendGrace
        let due = phone.advance(to: 3_000_000 + grace)
        #expect(due.contains(.stateChanged(app: "Bus", from: .background, to: .suspended)))
        #expect(try phone.state(of: "Bus") == .suspended)
    }

    @Test("Screen on brings no app back; opening one turns the screen on")
    func screenOnIsTheLockScreen() throws {
        var phone = PhoneCore()
        try phone.install(AppDescription(name: "Bus"))
        _ = try phone.handle(.launch("Bus"), at: 0)
        _ = try phone.handle(.screen(on: false), at: 1)
        #expect(try phone.handle(.screen(on: true), at: 2).isEmpty)
        #expect(try phone.state(of: "Bus") == .background)
        _ = try phone.handle(.screen(on: false), at: 3)
        _ = try phone.handle(.foreground("Bus"), at: 4)
        #expect(phone.screenOn)
        #expect(try phone.state(of: "Bus") == .foreground)
    }
}
