import BLEPhone
import Testing

/// Control Center's Bluetooth button comes on again by itself at 5 AM on the phone's clock
/// (Apple, "Use Bluetooth and Wi-Fi in Control Center": until the user turns it on, connects
/// an accessory in Settings, restarts, or "it's 5 AM local time").
@Suite("The simulated iPhone's Control Center button at 5 AM")
struct PhoneControlCenterFiveAMTests {
    static let hour: Int64 = 3_600_000_000
    static let value = PhoneRadioSwitchRulesTests.value
    static let message = "Control Center's Bluetooth button on again: 5 AM local time"

    @Test("Off at 1 AM, the button comes on at 5 AM, not a microsecond before, and the kept work relaunches the app again")
    func onAgainAtFive() throws {
        var phone = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        _ = try phone.handle(.controlCenterBluetooth(on: false), at: Self.hour)
        #expect(phone.nextDeadline == 5 * Self.hour)
        #expect(phone.advance(to: 5 * Self.hour - 1).isEmpty)
        #expect(!phone.bluetoothAvailable)
        #expect(phone.advance(to: 5 * Self.hour) == [.system(Self.message)])
        #expect(phone.bluetoothAvailable && phone.nextDeadline == nil)
        #expect(try phone.event(Self.value, for: "HR", at: 5 * Self.hour + 1).first == .relaunched(app: "HR", for: Self.value))
    }

    @Test("Off after 5 AM, it waits for the next day's; a clock that starts at 04:50 brings it on ten minutes after time 0")
    func nextDay() throws {
        var phone = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        _ = try phone.handle(.controlCenterBluetooth(on: false), at: 6 * Self.hour)
        #expect(phone.nextDeadline == 29 * Self.hour)
        var early = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        early.timeOfDayAtZero = 4 * Self.hour + 50 * 60_000_000
        _ = try early.handle(.controlCenterBluetooth(on: false), at: 2)
        let tenMinutes: Int64 = 600_000_000
        #expect(early.nextDeadline == tenMinutes)
        _ = try early.handle(.controlCenterBluetooth(on: false), at: 5 * Self.hour)
        #expect(early.nextDeadline == 24 * Self.hour + tenMinutes)
    }

    @Test("Turned on by the user or by a restart first, nothing happens at 5 AM; the Settings switch and iOS 10's button have no 5 AM")
    func nothingPending() throws {
        var user = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        _ = try user.handle(.controlCenterBluetooth(on: false), at: Self.hour)
        _ = try user.handle(.controlCenterBluetooth(on: true), at: 2 * Self.hour)
        #expect(user.nextDeadline == nil)
        var restarted = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        _ = try restarted.handle(.controlCenterBluetooth(on: false), at: Self.hour)
        _ = try restarted.handle(.reboot, at: 2 * Self.hour)
        #expect(restarted.nextDeadline == nil && restarted.controlCenterBluetoothOn)
        var settings = try PhoneRadioSwitchRulesTests.phone(.iOS11to18)
        _ = try settings.handle(.bluetooth(on: false), at: Self.hour)
        #expect(settings.nextDeadline == nil)
        #expect(settings.advance(to: 6 * Self.hour).isEmpty && !settings.bluetoothOn)
        var old = try PhoneRadioSwitchRulesTests.phone(.iOS10)
        _ = try old.handle(.controlCenterBluetooth(on: false), at: Self.hour)
        #expect(old.nextDeadline == nil)
        #expect(old.advance(to: 6 * Self.hour).isEmpty && !old.bluetoothOn)
    }
}
