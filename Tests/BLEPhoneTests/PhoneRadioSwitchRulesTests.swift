import BLEPhone
import Testing

/// Control Center's Bluetooth button and Airplane Mode, as the phone's system alone decides
/// them (TN3115's relaunch table, research §5; Radius Networks, "Bluetooth Beacons in iOS
/// 11", 2018; Apple, "Use Airplane Mode on your iPhone").
@Suite("The simulated iPhone's Control Center button and Airplane Mode")
struct PhoneRadioSwitchRulesTests {
    static let value = PhoneEvent(kind: .central, detail: "didUpdateValueFor 2A37", time: 0)

    /// A phone with a restoring central app "HR" the system terminated, and "Kit" likewise
    /// but set up with AccessorySetupKit.
    static func phone(_ profile: RelaunchProfile, staysOn: Bool = false) throws -> PhoneCore {
        var policy = PhonePolicy()
        policy.relaunchProfile = profile
        policy.bluetoothStaysOnInAirplaneMode = staysOn
        var phone = PhoneCore(policy: policy)
        try phone.install(AppDescription(name: "HR", modes: .bluetoothCentral, restoresState: true))
        try phone.install(AppDescription(name: "Kit", modes: .bluetoothCentral, restoresState: true, usesAccessorySetupKit: true))
        for name in ["HR", "Kit"] {
            _ = try phone.handle(.launch(name), at: 0)
            _ = try phone.handle(.terminate(name, .system), at: 1)
        }
        return phone
    }

    @Test("Control Center off: Core Bluetooth events are dropped and region events pass; on again, the kept work relaunches the app (iOS 11 to 18)")
    func controlCenterKeepsTheWork() throws {
        var phone = try Self.phone(.iOS11to18)
        _ = try phone.handle(.controlCenterBluetooth(on: false), at: 2)
        #expect(phone.bluetoothOn && !phone.bluetoothAvailable)
        #expect(try phone.event(Self.value, for: "HR", at: 3) == [.dropped(app: "HR", event: Self.value, reason: "Bluetooth is off in Control Center")])
        _ = try phone.handle(.controlCenterBluetooth(on: true), at: 4)
        #expect(try phone.event(Self.value, for: "HR", at: 5).first == .relaunched(app: "HR", for: Self.value))
    }

    @Test("On iOS 26 the Control Center button ends the kept work of apps without AccessorySetupKit; opening the app again restores the rule")
    func controlCenterOnIOS26() throws {
        var phone = try Self.phone(.iOS26)
        _ = try phone.handle(.controlCenterBluetooth(on: false), at: 2)
        _ = try phone.handle(.controlCenterBluetooth(on: true), at: 3)
        let reason = "iOS26 relaunches only apps using AccessorySetupKit after the Control Center button"
        #expect(try phone.event(Self.value, for: "HR", at: 4) == [.dropped(app: "HR", event: Self.value, reason: reason)])
        #expect(try phone.event(Self.value, for: "Kit", at: 4).first == .relaunched(app: "Kit", for: Self.value))
        _ = try phone.handle(.launch("HR"), at: 5)
        _ = try phone.handle(.terminate("HR", .system), at: 6)
        #expect(try phone.event(Self.value, for: "HR", at: 7).first == .relaunched(app: "HR", for: Self.value))
    }

    @Test("On iOS 10 the Control Center button is the Settings switch; a restart turns the button on again")
    func controlCenterOnIOS10AndRestart() throws {
        var old = try Self.phone(.iOS10)
        _ = try old.handle(.controlCenterBluetooth(on: false), at: 2)
        #expect(!old.bluetoothOn && old.controlCenterBluetoothOn)
        var phone = try Self.phone(.iOS11to18)
        _ = try phone.handle(.controlCenterBluetooth(on: false), at: 2)
        _ = try phone.handle(.reboot, at: 3)
        #expect(phone.controlCenterBluetoothOn && phone.bluetoothAvailable)
    }

    @Test("Airplane Mode turns Bluetooth off and back on; switched on in Airplane Mode, it stays on the next time, and off, off")
    func airplaneModeRemembers() throws {
        var phone = try Self.phone(.iOS11to18)
        _ = try phone.handle(.airplaneMode(on: true), at: 2)
        #expect(phone.airplaneModeOn && !phone.bluetoothOn)
        #expect(try phone.event(Self.value, for: "HR", at: 3) == [.dropped(app: "HR", event: Self.value, reason: "Bluetooth is off")])
        _ = try phone.handle(.bluetooth(on: true), at: 4)
        _ = try phone.handle(.airplaneMode(on: false), at: 5)
        #expect(phone.bluetoothOn && !phone.airplaneModeOn)
        _ = try phone.handle(.airplaneMode(on: true), at: 6)
        #expect(phone.bluetoothOn, "remembered from the last time")
        _ = try phone.handle(.bluetooth(on: false), at: 7)
        _ = try phone.handle(.airplaneMode(on: false), at: 8)
        #expect(!phone.bluetoothOn, "switched off by the user, not by Airplane Mode")
        _ = try phone.handle(.bluetooth(on: true), at: 9)
        _ = try phone.handle(.airplaneMode(on: true), at: 10)
        #expect(!phone.bluetoothOn, "switched off in Airplane Mode last time")
        _ = try phone.handle(.airplaneMode(on: false), at: 11)
        #expect(phone.bluetoothOn)
    }

    @Test("Airplane Mode with Bluetooth left on relaunches on iOS 11 and later, not on iOS 10")
    func airplaneModeRelaunch() throws {
        var phone = try Self.phone(.iOS11to18, staysOn: true)
        _ = try phone.handle(.airplaneMode(on: true), at: 2)
        #expect(phone.bluetoothOn)
        #expect(try phone.event(Self.value, for: "HR", at: 3).first == .relaunched(app: "HR", for: Self.value))
        var old = try Self.phone(.iOS10, staysOn: true)
        _ = try old.handle(.airplaneMode(on: true), at: 2)
        _ = try old.handle(.airplaneMode(on: false), at: 3)
        #expect(try old.event(Self.value, for: "HR", at: 4)
            == [.dropped(app: "HR", event: Self.value, reason: "iOS10 relaunches no app after Airplane Mode")])
    }
}
