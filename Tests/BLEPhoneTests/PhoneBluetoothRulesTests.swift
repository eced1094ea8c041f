import BLEPhone
import Testing

/// Bluetooth in the phone's Settings, as the phone's system alone decides it: the switch's
/// state reports and each app's permission (Apple, `CBManagerState`, `CBManagerAuthorization`,
/// `NSBluetoothAlwaysUsageDescription`; TN3115 for relaunches).
@Suite("The simulated iPhone's Bluetooth switch and permission")
struct PhoneBluetoothRulesTests {
    static func phone(_ apps: AppDescription...) throws -> PhoneCore {
        var phone = PhoneCore()
        for app in apps { try phone.install(app) }
        return phone
    }

    @Test("Switched off, a manager's state report still reaches a running app, while its other events are dropped")
    func stateReportsPassTheSwitch() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral, restoresState: true))
        _ = try phone.handle(.launch("HR"), at: 0)
        _ = try phone.handle(.bluetooth(on: false), at: 1)
        let off = PhoneEvent(kind: .central, detail: "didUpdateState poweredOff", time: 2)
        #expect(try phone.event(off, for: "HR", at: 2) == [.deliver(app: "HR", events: [off])])
        let value = PhoneEvent(kind: .central, detail: "didUpdateValueFor 2A37", time: 3)
        #expect(try phone.event(value, for: "HR", at: 3) == [.dropped(app: "HR", event: value, reason: "Bluetooth is off")])
    }

    @Test("A state report relaunches no terminated app, even one that restores state and has the mode (TN3115)")
    func stateReportsRelaunchNothing() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral, restoresState: true))
        _ = try phone.handle(.launch("HR"), at: 0)
        _ = try phone.handle(.terminate("HR", .system), at: 1)
        _ = try phone.handle(.bluetooth(on: false), at: 2)
        let off = PhoneEvent(kind: .central, detail: "didUpdateState poweredOff", time: 3)
        #expect(try phone.event(off, for: "HR", at: 3) == [.dropped(app: "HR", event: off, reason: "a state change relaunches no app")])
        #expect(try phone.state(of: "HR") == .terminated(.system))
    }

    @Test("The first manager asks the user once; the answer is kept, allowed by default")
    func permissionAskedOnce() throws {
        var phone = try Self.phone(AppDescription(name: "Pulse"), AppDescription(name: "Shy", bluetoothAuthorization: .deny))
        #expect(phone.bluetoothAuthorization(of: "Pulse") == .notDetermined)
        let first = try phone.bluetoothManagerMade(by: "Pulse", at: 0)
        #expect(first.authorization == .allowedAlways)
        #expect(first.outputs.count == 1)
        guard case let .alert(app: "Pulse", message: prompt) = first.outputs.first else { Issue.record("no prompt: \(first.outputs)"); return }
        #expect(prompt.hasPrefix("“Pulse” Would Like to Use Bluetooth"))
        #expect(prompt.contains(AppDescription.defaultBluetoothUsageDescription))
        let second = try phone.bluetoothManagerMade(by: "Pulse", at: 1)
        #expect(second.authorization == .allowedAlways)
        #expect(second.outputs.isEmpty)
        // Kept across a termination and a new launch, as Settings keeps it.
        _ = try phone.handle(.terminate("Pulse", .forceQuit), at: 2)
        #expect(try phone.bluetoothManagerMade(by: "Pulse", at: 3).outputs.isEmpty)

        let refused = try phone.bluetoothManagerMade(by: "Shy", at: 4)
        #expect(refused.authorization == .denied)
        #expect(phone.bluetoothAuthorization(of: "Shy") == .denied)
        let again = try phone.bluetoothManagerMade(by: "Shy", at: 5)
        #expect(again.authorization == .denied)
        #expect(again.outputs.isEmpty)
    }

    @Test("An app without NSBluetoothAlwaysUsageDescription is terminated as a crash by its first manager, with the privacy reason")
    func missingUsageDescriptionTerminates() throws {
        var phone = try Self.phone(AppDescription(name: "Leaky", bluetoothUsageDescription: nil))
        _ = try phone.handle(.launch("Leaky"), at: 0)
        let made = try phone.bluetoothManagerMade(by: "Leaky", at: 1)
        #expect(made.outputs == [.crashed(app: "Leaky", reason: PhoneCore.bluetoothUsageCrashReason),
                                 .stateChanged(app: "Leaky", from: .foreground, to: .terminated(.crash))])
        #expect(try phone.state(of: "Leaky") == .terminated(.crash))
        // A second manager made by the dying launch code ends nothing more.
        #expect(try phone.bluetoothManagerMade(by: "Leaky", at: 2).outputs.isEmpty)
        #expect(phone.bluetoothAuthorization(of: "Leaky") == .notDetermined)
        #expect(throws: PhoneError.unknownApp("Nope")) { try phone.bluetoothManagerMade(by: "Nope", at: 3) }
    }

    @Test("The system wakes no suspended app for peripheralIsReady(toSendWriteWithoutResponse:): the call is lost (Apple DTS, forums thread 765444)")
    func readyToWriteWakesNothing() throws {
        var phone = try Self.phone(AppDescription(name: "HR", modes: .bluetoothCentral))
        _ = try phone.handle(.launch("HR"), at: 0)
        _ = try phone.handle(.suspend("HR"), at: 1)
        let ready = PhoneEvent(kind: .central, detail: "isReadyToSendWriteWithoutResponse", time: 2)
        #expect(try phone.event(ready, for: "HR", at: 2)
            == [.dropped(app: "HR", event: ready, reason: "the system wakes no app for peripheralIsReady(toSendWriteWithoutResponse:)")])
        #expect(try phone.state(of: "HR") == .suspended)
        let value = PhoneEvent(kind: .central, detail: "didUpdateValueFor 2A37", time: 3)
        #expect(try phone.event(value, for: "HR", at: 3).last == .deliver(app: "HR", events: [value]))
    }
}
