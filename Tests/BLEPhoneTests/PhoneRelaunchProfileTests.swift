import BLEPhone
import Testing

/// Rule 16's relaunch profiles and restarts (research §5, "When the system relaunches";
/// TN3115, QA1962), as the phone's system alone decides them, on virtual time in microseconds.
@Suite("The simulated iPhone's relaunch profiles and restarts")
struct PhoneRelaunchProfileTests {
    static let second: Int64 = 1_000_000

    /// A phone on `profile` with a heart-rate app that restores state ("Pulse", running in the
    /// background), one that does not ("Plain"), a suspended one ("Idle") and one never launched.
    static func phone(_ profile: RelaunchProfile = .iOS11to18, passcode: Bool = true) throws -> PhoneCore {
        var policy = PhonePolicy()
        policy.relaunchProfile = profile
        policy.passcodeSet = passcode
        var phone = PhoneCore(policy: policy)
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true))
        try phone.install(AppDescription(name: "Plain", modes: .bluetoothCentral))
        try phone.install(AppDescription(name: "Idle", modes: .bluetoothCentral, restoresState: true))
        try phone.install(AppDescription(name: "Never", modes: .bluetoothCentral, restoresState: true))
        for name in ["Pulse", "Plain", "Idle"] { _ = try phone.handle(.launch(name), at: 0) }
        _ = try phone.handle(.suspend("Idle"), at: second)
        _ = try phone.handle(.background("Pulse"), at: second)
        return phone
    }

    static func value(at time: Int64) -> PhoneEvent {
        PhoneEvent(kind: .central, detail: "didUpdateValueFor 2A37", time: time)
    }

    @Test("Rule 16: a restart ends every app that runs or is suspended; until the first unlock no Bluetooth event relaunches one and the user cannot open one")
    func rebootWaitsForFirstUnlock() throws {
        var phone = try Self.phone()
        let outputs = try phone.handle(.reboot, at: 2 * Self.second)
        #expect(outputs == [
            .stateChanged(app: "Pulse", from: .background, to: .terminated(.reboot)),
            .stateChanged(app: "Plain", from: .foreground, to: .terminated(.reboot)),
            .stateChanged(app: "Idle", from: .suspended, to: .terminated(.reboot)),
        ])
        #expect(try phone.state(of: "Never") == .notRunning)
        #expect(phone.awaitingFirstUnlock)
        let early = Self.value(at: 3 * Self.second)
        #expect(try phone.event(early, for: "Pulse", at: early.time)
            == [.dropped(app: "Pulse", event: early, reason: "the phone has not been unlocked since it restarted")])
        #expect(throws: PhoneError.self) { try phone.handle(.launch("Plain"), at: 4 * Self.second) }

        _ = try phone.handle(.unlock, at: 5 * Self.second)
        #expect(!phone.awaitingFirstUnlock)
        let late = Self.value(at: 6 * Self.second)
        #expect(try phone.event(late, for: "Pulse", at: late.time) == [
            .relaunched(app: "Pulse", for: late),
            .stateChanged(app: "Pulse", from: .terminated(.reboot), to: .background),
            .deliver(app: "Pulse", events: [late]),
        ])
        // An app that preserves nothing stays terminated, as after any termination.
        #expect(try phone.event(late, for: "Plain", at: late.time)
            == [.dropped(app: "Plain", event: late, reason: "the app preserves no Bluetooth state or lacks the background mode")])
    }

    @Test("Rule 16: without a passcode the phone relaunches at once after a restart")
    func rebootWithoutPasscode() throws {
        var phone = try Self.phone(passcode: false)
        _ = try phone.handle(.reboot, at: 2 * Self.second)
        #expect(!phone.awaitingFirstUnlock)
        let event = Self.value(at: 3 * Self.second)
        #expect(try phone.event(event, for: "Idle", at: event.time).first == .relaunched(app: "Idle", for: event))
    }

    @Test("Rule 16: iOS 10 relaunches no app after a restart, even after the first unlock, nor one the system had ended before it")
    func iOS10NoRelaunchAfterReboot() throws {
        var phone = try Self.phone(.iOS10)
        _ = try phone.handle(.terminate("Idle", .system), at: Self.second + 1)
        #expect(!phone.keepsBluetoothState(of: "Pulse", after: .reboot))
        let outputs = try phone.handle(.reboot, at: 2 * Self.second)
        #expect(outputs.contains(.stateChanged(app: "Idle", from: .terminated(.system), to: .terminated(.reboot))))
        _ = try phone.handle(.unlock, at: 3 * Self.second)
        for name in ["Pulse", "Idle"] {
            let event = Self.value(at: 4 * Self.second)
            #expect(try phone.event(event, for: name, at: event.time)
                == [.dropped(app: name, event: event, reason: "iOS10 relaunches no app after a restart")])
        }
        // The user's launch starts it again, and a system termination is relaunched for, as ever.
        _ = try phone.handle(.launch("Pulse"), at: 5 * Self.second)
        _ = try phone.handle(.terminate("Pulse", .system), at: 6 * Self.second)
        let event = Self.value(at: 7 * Self.second)
        #expect(try phone.event(event, for: "Pulse", at: event.time).first == .relaunched(app: "Pulse", for: event))
    }

    @Test("Rule 16: on iOS 26 a force-quit app is relaunched for Bluetooth only when it uses AccessorySetupKit; before iOS 26 never",
          arguments: [RelaunchProfile.iOS10, .iOS11to18, .iOS26])
    func forceQuitAndAccessorySetupKit(profile: RelaunchProfile) throws {
        var policy = PhonePolicy()
        policy.relaunchProfile = profile
        var phone = PhoneCore(policy: policy)
        try phone.install(AppDescription(name: "Kit", modes: .bluetoothCentral, restoresState: true, usesAccessorySetupKit: true))
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true))
        for name in ["Kit", "Pulse"] {
            _ = try phone.handle(.launch(name), at: 0)
            _ = try phone.handle(.terminate(name, .forceQuit), at: Self.second)
        }
        let event = Self.value(at: 2 * Self.second)
        let kit = try phone.event(event, for: "Kit", at: event.time)
        #expect((kit.first == .relaunched(app: "Kit", for: event)) == (profile == .iOS26), "\(kit)")
        #expect(phone.keepsBluetoothState(of: "Kit", after: .forceQuit) == (profile == .iOS26))
        #expect(try phone.event(event, for: "Pulse", at: event.time)
            == [.dropped(app: "Pulse", event: event, reason: "the user force-quit the app")])
    }

    @Test("Rule 16: a force-quit app stays as it was through a restart; a region event still relaunches an app before the first unlock")
    func rebootLeavesForceQuitAndRegions() throws {
        var phone = try Self.phone()
        _ = try phone.handle(.terminate("Plain", .forceQuit), at: Self.second + 1)
        let outputs = try phone.handle(.reboot, at: 2 * Self.second)
        #expect(!outputs.contains { if case .stateChanged(app: "Plain", _, _) = $0 { true } else { false } })
        #expect(try phone.state(of: "Plain") == .terminated(.forceQuit))
        let state = PhoneEvent(kind: .region, detail: "didDetermineState inside", time: 3 * Self.second)
        #expect(try phone.event(state, for: "Idle", at: state.time).first == .relaunched(app: "Idle", for: state))
    }
}
